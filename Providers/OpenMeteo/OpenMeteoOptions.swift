import IsobarCore

/// The options of an `open-meteo` entry: the weather models it asks for.
public struct OpenMeteoOptions: Sendable, Equatable {
    /// `models`: the weather models asked for in its one request, each a source of the consensus; empty for the best match.
    public var models: [String]

    /// Options asking for `models`.
    public init(models: [String]) { self.models = models }

    /// The keys an open-meteo entry has of its own.
    public static let keys = ["models"]

    /// `models`: a non-empty list of at most 16 distinct model names (lower-case letters, digits, `_`), when present.
    public static func read(_ source: OptionSource) throws(OptionError) -> ProviderOptions {
        try OptionError.reading {
            guard let value = try source.entry.nonNullMember("models") else { return ProviderOptions() }
            let names = try value.elements().map { name throws(JSONError) in try name.string() }
            let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_")
            guard !names.isEmpty, names.count <= 16 else { throw OptionError("\(value.path) must list 1 to 16 models") }
            for name in names where name.isEmpty || !name.allSatisfy(allowed.contains) {
                throw OptionError("\(value.path) has '\(name)', not a model name (lower-case letters, digits and _)")
            }
            guard Set(names).count == names.count else { throw OptionError("\(value.path) lists a model twice") }
            return ProviderOptions(OpenMeteoOptions(models: names), members: names)
        }
    }
}
