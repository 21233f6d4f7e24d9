import IsobarCore

/// A provider together with the transport it is to use.
public struct ProviderBinding: Sendable {
    /// The provider.
    public let provider: any WeatherProvider
    /// The transport handed to it.
    public let transport: any Transport

    /// Binds a provider to a transport.
    public init(provider: any WeatherProvider, transport: any Transport) {
        self.provider = provider
        self.transport = transport
    }
}

/// Something that happened while answering a request, in the order it happened.
public enum EngineEvent: Sendable {
    /// A provider answered.
    case result(WeatherReport)
    /// A provider failed.
    case failure(providerID: String, error: ProviderError)
    /// Every provider has finished; the merge of those that answered.
    case consensus(Consensus)
}

/// Asks every provider at once and streams their answers, then the consensus.
public struct Engine: Sendable {
    /// The providers asked, in display order.
    public let bindings: [ProviderBinding]

    /// An engine over the given providers.
    public init(bindings: [ProviderBinding]) { self.bindings = bindings }

    /// Runs the request against every provider concurrently; total time is that of the slowest provider.
    public func run(_ request: WeatherRequest) -> AsyncStream<EngineEvent> {
        let bindings = bindings
        return AsyncStream { continuation in
            let task = Task {
                var reports: [WeatherReport] = []
                await withTaskGroup(of: EngineEvent.self) { group in
                    for binding in bindings {
                        group.addTask { await Self.ask(binding, request) }
                    }
                    for await event in group {
                        if case .result(let report) = event { reports.append(report) }
                        continuation.yield(event)
                    }
                }
                let order = Dictionary(uniqueKeysWithValues: bindings.enumerated().map { ($1.provider.id, $0) })
                reports.sort { order[$0.providerID, default: 0] < order[$1.providerID, default: 0] }
                continuation.yield(.consensus(ConsensusV0.merge(reports, place: request.place)))
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Collects every event of a run.
    public func collect(_ request: WeatherRequest) async -> [EngineEvent] {
        var events: [EngineEvent] = []
        for await event in run(request) { events.append(event) }
        return events
    }

    private static func ask(_ binding: ProviderBinding, _ request: WeatherRequest) async -> EngineEvent {
        let provider = binding.provider
        guard !Task.isCancelled else {
            return .failure(providerID: provider.id, error: ProviderError(.cancelled, "\(provider.displayName): cancelled"))
        }
        let wanted = request.kinds.intersection(provider.capabilities.kinds.union(provider.capabilities.kinds.contains(.hourly) ? [.daily] : []))
        guard !wanted.isEmpty else {
            return .failure(providerID: provider.id, error: ProviderError(.unsupported, "\(provider.displayName) cannot answer this request"))
        }
        do {
            var narrowed = request
            narrowed.kinds = wanted
            return .result(try await provider.fetch(narrowed, transport: binding.transport))
        } catch {
            return .failure(providerID: provider.id, error: error)
        }
    }
}
