import FoundationEssentials
import IsobarCore
import Synchronization

/// A transport that answers from a cassette library instead of the network, remembering when what it served was recorded.
public final class ReplayTransport: Transport {
    /// The recordings it answers from.
    public let library: CassetteLibrary
    private let served = Mutex<Date?>(nil)

    /// A transport over `library`.
    public init(library: CassetteLibrary) { self.library = library }

    /// The recorded response matching the request.
    public func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        let interaction = try library.match(request)
        served.withLock { latest in latest = max(latest ?? interaction.recordedAt, interaction.recordedAt) }
        return interaction.response
    }

    /// The newest recording time among the responses served so far.
    public var latestRecordedAt: Date? { served.withLock { $0 } }
}

/// Any provider driven by recorded exchanges: the real adapter decodes, and the report says it is a replay and when it was recorded.
public struct FixtureReplayProvider: ReplayingProvider {
    /// The adapter whose requests are answered from the library.
    public let base: any WeatherProvider
    /// The recordings.
    public let library: CassetteLibrary

    /// Replays `library` through `base`.
    public init(base: any WeatherProvider, library: CassetteLibrary) {
        self.base = base
        self.library = library
    }

    /// The adapter replayed: `base`.
    public var replayed: any WeatherProvider { base }

    /// The adapter's id.
    public var id: String { base.id }
    /// The adapter's name.
    public var displayName: String { base.displayName }
    /// The adapter's capabilities.
    public var capabilities: ProviderCapabilities { base.capabilities }
    /// The adapter's sources (Open-Meteo's models).
    public var sources: [SourceIdentity] { base.sources }
    /// The adapter's coverage.
    public var coverage: Coverage { base.coverage }
    /// Whether the adapter covers the place.
    public func covers(_ place: Place) -> Bool { base.covers(place) }
    /// The adapter's key need.
    public var keyNeed: KeyNeed { base.keyNeed }
    /// The key the adapter was handed.
    public var grantedKey: String? { base.grantedKey }
    /// Why the adapter cannot be asked.
    public func unusableReason(for request: WeatherRequest?) -> ProviderError? { base.unusableReason(for: request) }
    /// Whether the adapter fetches its data itself.
    public var fetchesItself: Bool { base.fetchesItself }

    /// The adapter's cost of a request.
    public func callCost(of request: WeatherRequest) -> Double { base.callCost(of: request) }

    /// The adapter over the recordings, whatever the transport.
    public func adapter(over transport: any Transport) -> (provider: any WeatherProvider, transport: any Transport) {
        (base, ReplayTransport(library: library))
    }

    /// The station the adapter says a report was observed at.
    public func observationStation(of report: WeatherReport) -> String? { base.observationStation(of: report) }

    /// Runs the adapter against the recordings; the context's transport is not used.
    public func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        let replay = ReplayTransport(library: library)
        var replayContext = context
        replayContext.transport = replay
        var report = try await base.fetch(request, context: replayContext)
        let recordedAt = replay.latestRecordedAt ?? report.fetchedAt
        report.source = .replay(recordedAt: recordedAt)
        report.fetchedAt = recordedAt
        return report
    }
}
