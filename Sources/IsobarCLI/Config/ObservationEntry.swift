import FoundationEssentials
import IsobarCore
import IsobarHTTP

/// The configuration's `observations` entry: the source of what actually happened (today METAR reports).
public struct ObservationEntry: Sendable, Equatable {
    /// The source's type: `metar`.
    public var type: String
    /// Base URL replacing the source's default.
    public var baseURL: RequestURL?
    /// How far from the place a station may be, in kilometres.
    public var maxDistanceKilometres: Double?

    /// The keys the entry may have.
    static let keys = ["type", "base_url", "max_distance_km"]

    /// Reads the entry, naming the file and path of anything wrong.
    init(_ entry: JSONValue, file: String) throws {
        for (key, _) in try entry.members() where !Self.keys.contains(key) {
            throw Configuration.unknownKey(key, among: Self.keys, at: entry.path.description, file: file)
        }
        type = try entry.string("type")
        guard type == "metar" else { throw ConfigurationError("\(file): \(entry.path).type must be metar, not '\(type)'") }
        if let text = try entry.optionalString("base_url") {
            guard let url = RequestURL(string: text), url.scheme == "https" || CurlTransport.isLoopback(url.host) else {
                throw ConfigurationError("\(file): \(entry.path).base_url must be an https URL (plain http only for loopback hosts)")
            }
            baseURL = url
        }
        maxDistanceKilometres = try entry.optionalDouble("max_distance_km")
        if let distance = maxDistanceKilometres, !(1...500).contains(distance) {
            throw ConfigurationError("\(file): \(entry.path).max_distance_km must be between 1 and 500")
        }
    }
}
