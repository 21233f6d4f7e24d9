import IsobarCore
import Synchronization

/// The offline list of cities, read from its file on the first search and kept in memory after that.
///
/// Creating one reads nothing, so a command that needs no place pays nothing; a missing or damaged
/// file is reported by the first search (or `load()`), never by a crash.
public final class Gazetteer: Sendable {
    /// The name of the bundled file inside `<data dir>/gazetteer/`.
    public static let fileName = "cities15000.tsv"

    /// The file this gazetteer reads.
    public let path: String
    /// The spatial index of the same cities (`cities15000.grid` beside the file), read in part by `nearest(to:withinKilometres:)`.
    public let indexPath: String
    private let state = Mutex<GazetteerData?>(nil)
    /// The spatial index once a lookup has opened it, with what lookups have read from it and from the gazetteer.
    let nearbyIndex = Mutex<NearbyIndex?>(nil)

    /// A gazetteer reading `path` when first needed, and its spatial index at `indexPath` (default: `.grid` for `.tsv`).
    public init(path: String, indexPath: String? = nil) {
        self.path = path
        self.indexPath = indexPath ?? (path.hasSuffix(".tsv") ? String(path.dropLast(4)) : path) + ".grid"
    }

    /// A gazetteer over bytes already in memory, parsed now; `name` stands for the file in messages.
    public init(bytes: [UInt8], name: String) throws(GazetteerError) {
        let parsed = try GazetteerFile.parse(bytes: bytes, file: name)
        self.path = name
        self.indexPath = name + ".grid"
        state.withLock { $0 = parsed }
    }

    /// A gazetteer reading `<dataDirectory>/gazetteer/cities15000.tsv` when first needed.
    public convenience init(dataDirectory: String) { self.init(path: dataDirectory + "/gazetteer/" + Self.fileName) }

    /// Whether the file has been read.
    public var isLoaded: Bool { state.withLock { $0 != nil } }

    /// Reads the file now if it has not been read yet.
    public func load() throws(GazetteerError) { _ = try data() }

    /// Number of cities in the file (reading it if needed).
    public func cityCount() throws(GazetteerError) -> Int { try data().cities.count }

    /// The country's name for people (`Belarus` for `BY`, any case), nil for a code the file does not list (reading it if
    /// needed).
    public func countryName(of code: String) throws(GazetteerError) -> String? {
        let wanted = code.uppercased()
        return try data().countries.first { $0.code == wanted }?.names.first
    }

    /// Cities matching `text` (a name, optionally `, qualifier`s), best first; at most `limit`.
    public func search(_ text: String, limit: Int = 10) throws(GazetteerError) -> [PlaceMatch] {
        try search(nameQuery(PlaceQuery.parse(text), text: text), limit: limit)
    }

    /// `search(_:limit:)` for raw bytes, refusing invalid UTF-8 with an `invalidQuery` error.
    public func search(bytes: [UInt8], limit: Int = 10) throws(GazetteerError) -> [PlaceMatch] {
        try search(nameQuery(PlaceQuery.parse(bytes: bytes), text: String(decoding: bytes, as: UTF8.self)), limit: limit)
    }

    /// Cities matching a parsed name query, best first; at most `limit`.
    public func search(_ query: NameQuery, limit: Int = 10) throws(GazetteerError) -> [PlaceMatch] {
        try data().search(query, limit: limit)
    }

    /// The place `text` means: for `lat,lon` the coordinates named after a city close by (`place(at:plainName:)`),
    /// else the best-matching city.
    public func resolve(_ text: String) throws(GazetteerError) -> Place {
        switch try PlaceQuery.parse(text) {
        case .coordinate(let coordinate):
            return try place(at: coordinate, plainName: "\(coordinate.latitude),\(coordinate.longitude)").place
        case .name(let query):
            guard let best = try search(query, limit: 1).first else {
                throw GazetteerError(.notFound, "no place matches '\(PlaceQuery.trimmed(Substring(text)))'")
            }
            return best.place
        }
    }

    private func nameQuery(_ query: PlaceQuery, text: String) throws(GazetteerError) -> NameQuery {
        guard case .name(let name) = query else {
            throw GazetteerError(.invalidQuery, "'\(PlaceQuery.trimmed(Substring(text)))' is a coordinate pair, not a place name")
        }
        return name
    }

    /// The loaded tables, reading the file on first use; a failed read is retried next time.
    private func data() throws(GazetteerError) -> GazetteerData {
        try state.withLock { (loaded: inout GazetteerData?) throws(GazetteerError) -> GazetteerData in
            if let loaded { return loaded }
            let fresh = try GazetteerFile.load(path: path)
            loaded = fresh
            return fresh
        }
    }
}
