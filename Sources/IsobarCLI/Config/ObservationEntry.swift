import FoundationEssentials
import IsobarCore
import IsobarHTTP

/// The configuration's `observations` entry: the source of what actually happened (today METAR reports).
public struct ObservationEntry: Sendable {
    /// The source's type, as declared by its factory: `metar`.
    public var type: String
    /// Base URL replacing the source's default.
    public var baseURL: RequestURL?
    /// The options of its type (`max_distance_km`…), read by its type's factory.
    public var options = ProviderOptions()
    /// Cassette directory (absolute) whose recordings answer its archive requests (`learn`) instead of the network.
    public var replay: String?

    /// The keys every observations entry may have; its type's factory declares the others.
    static let keys = ["type", "base_url", "replay"]

    /// Reads the entry, its own options by its type's factory in `registry`, naming the file and path of anything wrong;
    /// a relative `replay` path is taken from `directory`.
    init(_ entry: JSONValue, file: String, directory: String, registry: ProviderRegistry) throws {
        type = try entry.string("type")
        let factory = registry.observationFactory(for: type)
        let own = factory?.optionKeys ?? []
        for (key, _) in try entry.members() where !Self.keys.contains(key) && !own.contains(key) {
            throw Configuration.unknownKey(key, among: Self.keys + own, at: entry.path.description, file: file)
        }
        guard let factory else {
            let types = registry.observationFactories.map(\.type).joined(separator: " or ")
            throw ConfigurationError("\(file): \(entry.path).type must be \(types), not '\(type)'")
        }
        if let text = try entry.optionalString("base_url") {
            guard let url = RequestURL(string: text), url.scheme == "https" || CurlTransport.isLoopback(url.host) else {
                throw ConfigurationError("\(file): \(entry.path).base_url must be an https URL (plain http only for loopback hosts)")
            }
            baseURL = url
        }
        if let path = try entry.optionalString("replay") { replay = path.hasPrefix("/") ? path : directory + "/" + path }
        do {
            options = try factory.readOptions(OptionSource(entry: entry, directory: "."))
        } catch {
            throw ConfigurationError("\(file): \(error.message)")
        }
    }
}
