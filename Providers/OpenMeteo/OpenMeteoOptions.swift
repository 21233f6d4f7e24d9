import IsobarCore

/// The options of an `open-meteo` entry: the weather models it asks for.
public struct OpenMeteoOptions: Sendable, Equatable {
    /// `models`: the weather models asked for in its one request, each a source of the consensus; empty for the best match.
    public var models: [String]
    /// `previous_runs_url`: where `isobar learn` asks for past forecasts; nil for Open-Meteo's Previous Runs API.
    public var previousRunsURL: RequestURL?

    /// Options asking for `models`.
    public init(models: [String], previousRunsURL: RequestURL? = nil) {
        self.models = models
        self.previousRunsURL = previousRunsURL
    }

    /// The keys an open-meteo entry has of its own.
    public static let keys = ["models", "previous_runs_url"]

    /// An https URL, or plain http to a loopback host (tests, a local mirror).
    static func endpoint(_ text: String) -> RequestURL? {
        guard let url = RequestURL(string: text) else { return nil }
        return url.scheme == "https" || (url.scheme == "http" && ["127.0.0.1", "localhost", "::1"].contains(url.host)) ? url : nil
    }

    /// `models`: a non-empty list of at most 16 distinct model names (lower-case letters, digits, `_`), when present.
    public static func read(_ source: OptionSource) throws(OptionError) -> ProviderOptions {
        try OptionError.reading {
            var previousRunsURL: RequestURL?
            if let text = try source.entry.optionalString("previous_runs_url") {
                guard let url = endpoint(text) else {
                    throw OptionError("\(source.entry.path).previous_runs_url must be an https URL (plain http only for loopback hosts)")
                }
                previousRunsURL = url
            }
            guard let value = try source.entry.nonNullMember("models") else {
                return previousRunsURL.map { ProviderOptions(OpenMeteoOptions(models: [], previousRunsURL: $0)) } ?? ProviderOptions()
            }
            let names = try value.elements().map { name throws(JSONError) in try name.string() }
            let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_")
            guard !names.isEmpty, names.count <= 16 else { throw OptionError("\(value.path) must list 1 to 16 models") }
            for name in names where name.isEmpty || !name.allSatisfy(allowed.contains) {
                throw OptionError("\(value.path) has '\(name)', not a model name (lower-case letters, digits and _)")
            }
            guard Set(names).count == names.count else { throw OptionError("\(value.path) lists a model twice") }
            return ProviderOptions(OpenMeteoOptions(models: names, previousRunsURL: previousRunsURL), members: names)
        }
    }
}
