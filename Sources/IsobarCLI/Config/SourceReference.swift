/// An id as output prints it, read back: a configured entry's (`open-meteo`) or one of its models' (`open-meteo/ecmwf_ifs025`).
struct SourceReference: Equatable {
    /// The configuration entry it names.
    var entryID: String
    /// The model it names within the entry; nil for the whole entry.
    var model: String?

    /// What `id` names among `configuration`'s entries; a usage error naming every id printed, with a suggestion, when nothing.
    init(_ id: String, in configuration: Configuration) throws(UsageError) {
        if configuration.providers.contains(where: { $0.id == id }) {
            self.init(entryID: id, model: nil)
            return
        }
        for entry in configuration.providers where id.hasPrefix(entry.id + "/") {
            let model = String(id.dropFirst(entry.id.count + 1))
            if entry.models?.contains(model) == true {
                self.init(entryID: entry.id, model: model)
                return
            }
        }
        let known = Self.printedIDs(configuration)
        let suggestion = Spelling.closest(to: id, in: known).map { "; did you mean '\($0)'?" } ?? ""
        throw UsageError("unknown provider '\(id)'\(suggestion); configured providers are \(known.joined(separator: ", "))")
    }

    /// Creates a reference.
    init(entryID: String, model: String?) {
        self.entryID = entryID
        self.model = model
    }

    /// Every id output may print for the configuration: each entry's, and each of its models'.
    static func printedIDs(_ configuration: Configuration) -> [String] {
        configuration.providers.flatMap { entry in [entry.id] + (entry.models ?? []).map { "\(entry.id)/\($0)" } }
    }

    /// The entries the references name, in the configuration's order, each enabled; an entry named only by some of its models
    /// asks for those models alone.
    static func select(_ references: [SourceReference], from configuration: Configuration) -> [ProviderEntry] {
        configuration.providers.compactMap { entry -> ProviderEntry? in
            let named = references.filter { $0.entryID == entry.id }
            guard !named.isEmpty else { return nil }
            var selected = entry
            selected.enabled = true
            if !named.contains(where: { $0.model == nil }) {
                let models = named.compactMap(\.model)
                selected.models = entry.models?.filter { models.contains($0) }
            }
            return selected
        }
    }
}
