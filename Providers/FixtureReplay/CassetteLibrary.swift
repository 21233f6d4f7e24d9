import FoundationEssentials
import IsobarCore

/// Every interaction of the cassettes in one directory, matched by method, path and query parameters.
///
/// Matching ignores the host, the order of parameters and secret parameters; numeric values match by value (`53.90` = `53.9`).
public struct CassetteLibrary: Sendable {
    /// Query parameter names that are never part of a match, whatever the request says.
    public static let secretNames: Set<String> = ["appid", "apikey", "api_key", "key", "token", "access_token"]

    /// The recorded interactions.
    public let interactions: [Interaction]
    /// Where they were read from, for messages.
    public let origin: String

    /// A library of the given interactions.
    public init(interactions: [Interaction], origin: String) {
        self.interactions = interactions
        self.origin = origin
    }

    /// Reads every `*.json` file in `directory` (not its subdirectories), in name order.
    public init(directory: String) throws(ProviderError) {
        let manager = FileManager.default
        let names: [String]
        do {
            names = try manager.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
        } catch {
            throw ProviderError(.notConfigured, "cannot read the cassette directory \(directory)")
        }
        var all: [Interaction] = []
        for name in names {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            guard let data = manager.contents(atPath: path) else {
                throw ProviderError(.notConfigured, "cannot read the cassette \(path)")
            }
            all += try Cassette.interactions(parsing: Array(data), file: path)
        }
        self.init(interactions: all, origin: directory)
    }

    /// The recorded interaction answering `request`, or an error naming the request and the nearest recording.
    public func match(_ request: HTTPRequest) throws(ProviderError) -> Interaction {
        let ignored = Self.secretNames.union(request.secretQueryNames)
        let wanted = Self.normalized(request.url.query, ignoring: ignored)
        let samePath = interactions.filter { $0.method == request.method && $0.url.path == request.url.path }
        if let hit = samePath.first(where: { Self.normalized($0.url.query, ignoring: ignored) == wanted }) {
            return hit
        }
        let shown = "\(request.method) \(request.url.removing(queryNames: ignored).string)"
        var message = "no recorded response for \(shown) in \(origin) (\(interactions.count) recorded)"
        if let nearest = samePath.min(by: { Self.distance($0, wanted, ignored) < Self.distance($1, wanted, ignored) }) {
            let differing = Self.differingNames(nearest, wanted, ignored)
            message += "; nearest is in \(nearest.file), differing in \(differing.joined(separator: ", "))"
        }
        throw ProviderError(.unavailable, message, reason: .notRecorded)
    }

    private static func normalized(_ query: [QueryItem], ignoring ignored: Set<String>) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for item in query where !ignored.contains(item.name) {
            result[item.name, default: []].append(canonical(item.value))
        }
        return result.mapValues { $0.sorted() }
    }

    /// Numbers in their shortest form, so `53.90` and `53.9` match; other text as it is.
    private static func canonical(_ value: String) -> String {
        guard let number = Double(value), number.isFinite, value.first != "+" else { return value }
        return JSONOutput.format(number)
    }

    private static func differingNames(_ interaction: Interaction, _ wanted: [String: [String]], _ ignored: Set<String>) -> [String] {
        let recorded = normalized(interaction.url.query, ignoring: ignored)
        return Set(recorded.keys).union(wanted.keys).filter { recorded[$0] != wanted[$0] }.sorted()
    }

    private static func distance(_ interaction: Interaction, _ wanted: [String: [String]], _ ignored: Set<String>) -> Int {
        differingNames(interaction, wanted, ignored).count
    }
}
