/// An id as output prints it, read back: a configured entry's (`open-meteo`) or one of its models' (`open-meteo/ecmwf_ifs025`).
struct SourceReference: Equatable {
    /// The configuration entry it names.
    var entryID: String
    /// The model it names within the entry; nil for the whole entry.
    var model: String?

    /// What `id` names among `configuration`'s entries; a usage error naming the entries, with a suggestion among every id
    /// printed, when nothing.
    init(_ id: String, in configuration: Configuration) throws(UsageError) {
        if configuration.providers.contains(where: { $0.id == id }) {
            self.init(entryID: id, model: nil)
            return
        }
        for entry in configuration.providers where id.hasPrefix(entry.id + "/") {
            let model = String(id.dropFirst(entry.id.count + 1))
            if entry.options.members.contains(model) {
                self.init(entryID: entry.id, model: model)
                return
            }
        }
        let suggestion = Spelling.closest(to: id, in: Self.printedIDs(configuration)).map { "; did you mean '\($0)'?" } ?? ""
        let entries = configuration.providers.map(\.id).joined(separator: ", ")
        throw UsageError("unknown provider '\(id)'\(suggestion); configured providers are \(entries)")
    }

    /// Creates a reference.
    init(entryID: String, model: String?) {
        self.entryID = entryID
        self.model = model
    }

    /// Every id output may print for the configuration: each entry's, and each of its models'.
    static func printedIDs(_ configuration: Configuration) -> [String] {
        configuration.providers.flatMap { entry in [entry.id] + entry.options.members.map { "\(entry.id)/\($0)" } }
    }

    /// The entries the references name, in the configuration's order, each enabled and whole: a model is asked for in its
    /// entry's one request, with the others (so that a replay still finds the request it recorded).
    static func select(_ references: [SourceReference], from configuration: Configuration) -> [ProviderEntry] {
        configuration.providers.compactMap { entry -> ProviderEntry? in
            guard references.contains(where: { $0.entryID == entry.id }) else { return nil }
            var selected = entry
            selected.enabled = true
            return selected
        }
    }
}
