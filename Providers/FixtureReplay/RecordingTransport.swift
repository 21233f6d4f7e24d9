import FoundationEssentials
import IsobarCore
import Synchronization

/// Sends through another transport and keeps every exchange, secrets scrubbed, to save as a cassette.
public final class RecordingTransport: Transport {
    /// The transport that really sends.
    public let base: any Transport
    private let recorded = Mutex<[Interaction]>([])
    private let clock: @Sendable () -> Date

    /// Records what `base` answers; `clock` dates each exchange.
    public init(base: any Transport, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.base = base
        self.clock = clock
    }

    /// Headers that would let the server answer `304 Not Modified` with no body; a recording needs the full answer.
    static let conditionalHeaders: Set<String> = ["if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "if-range"]

    /// Sends unconditionally and records the answer (failures are not recorded: there is nothing to replay).
    public func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        var request = request
        request.headers.removeAll { Self.conditionalHeaders.contains($0.name.lowercased()) }
        let response = try await base.send(request)
        let interaction = Cassette.scrubbed(request, response, recordedAt: clock())
        recorded.withLock { $0.append(interaction) }
        return response
    }

    /// The exchanges recorded so far.
    public var interactions: [Interaction] { recorded.withLock { $0 } }

    /// Writes the exchanges as a new cassette file in `directory` (created if needed); returns its path, or nil when there is nothing to write.
    public func save(to directory: String) throws(ProviderError) -> String? {
        let interactions = self.interactions
        guard let first = interactions.first else { return nil }
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ProviderError(.notConfigured, "cannot create the cassette directory \(directory)")
        }
        let stamp = CivilTime.iso(first.recordedAt, utcOffsetSeconds: 0).filter { $0.isNumber }.prefix(14)
        var path = "\(directory)/\(stamp).json"
        var counter = 1
        while manager.fileExists(atPath: path) {
            counter += 1
            path = "\(directory)/\(stamp)-\(counter).json"
        }
        let text = Cassette.encode(interactions, recordedAt: first.recordedAt)
        guard manager.createFile(atPath: path, contents: Data(text.utf8)) else {
            throw ProviderError(.notConfigured, "cannot write the cassette \(path)")
        }
        return path
    }
}
