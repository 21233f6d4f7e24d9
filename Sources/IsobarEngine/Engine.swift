import FoundationEssentials
import IsobarCore
import IsobarStore

/// A provider together with the transport it is to use and the policy for caching and limiting it.
public struct ProviderBinding: Sendable {
    /// The provider.
    public let provider: any WeatherProvider
    /// The transport handed to it.
    public let transport: any Transport
    /// Cache lifetimes and rate limits; nil to ask it directly every time (replays).
    public let policy: ProviderPolicy?

    /// Binds a provider to a transport.
    public init(provider: any WeatherProvider, transport: any Transport, policy: ProviderPolicy? = nil) {
        self.provider = provider
        self.transport = transport
        self.policy = policy
    }
}

/// Something that happened while answering a request, in the order it happened.
public enum EngineEvent: Sendable {
    /// A provider answered.
    case result(WeatherReport)
    /// A provider failed.
    case failure(providerID: String, error: ProviderError)
    /// Every provider has finished; the merge of those that answered.
    case consensus(ConsensusResult)
}

/// Asks every provider at once and streams their answers, then the consensus.
public struct Engine: Sendable {
    /// The providers asked, in display order.
    public let bindings: [ProviderBinding]
    /// Cache, ledger and breakers shared with other processes; nil to ask providers directly.
    public let store: Store?
    /// Deadline, cache use and retry settings.
    public let options: EngineOptions
    /// The clock all waiting goes through.
    public let time: any TimeSource
    private let random: @Sendable (ClosedRange<Double>) -> Double

    /// An engine over the given providers.
    public init(bindings: [ProviderBinding], store: Store? = nil, options: EngineOptions = EngineOptions(),
                time: any TimeSource = SystemTime(), random: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) }) {
        self.bindings = bindings
        self.store = store
        self.options = options
        self.time = time
        self.random = random
    }

    /// Runs the request against every provider concurrently; total time is that of the slowest provider, never past the deadline.
    public func run(_ request: WeatherRequest) -> AsyncStream<EngineEvent> {
        let engine = self
        return AsyncStream { continuation in
            let task = Task {
                let bindings = engine.bindings
                let deadline = engine.time.now().addingTimeInterval(engine.options.timeoutSeconds)
                var reports: [WeatherReport] = []
                await withTaskGroup(of: EngineEvent.self) { group in
                    for binding in bindings {
                        group.addTask { await engine.askBefore(deadline, binding, request) }
                    }
                    for await event in group {
                        if case .result(let report) = event { reports.append(report) }
                        continuation.yield(event)
                    }
                }
                let order = Dictionary(uniqueKeysWithValues: bindings.enumerated().map { ($1.provider.id, $0) })
                reports.sort { order[$0.providerID, default: 0] < order[$1.providerID, default: 0] }
                continuation.yield(.consensus(ConsensusV1.merge(
                    reports, place: request.place, weights: engine.options.weights, now: Self.referenceTime(reports, engine.time.now()))))
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Lead times count from now; for answers that are all replayed, from their latest recording time.
    static func referenceTime(_ reports: [WeatherReport], _ now: Date) -> Date {
        let recorded = reports.compactMap { report -> Date? in
            if case .replay(let recordedAt) = report.source { return recordedAt }
            return nil
        }
        guard !reports.isEmpty, recorded.count == reports.count else { return now }
        return recorded.max() ?? now
    }

    /// Collects every event of a run.
    public func collect(_ request: WeatherRequest) async -> [EngineEvent] {
        var events: [EngineEvent] = []
        for await event in run(request) { events.append(event) }
        return events
    }

    /// Asks one provider, giving up at the deadline.
    private func askBefore(_ deadline: Date, _ binding: ProviderBinding, _ request: WeatherRequest) async -> EngineEvent {
        let time = time
        let seconds = deadline.timeIntervalSince(time.now())
        return await withTaskGroup(of: EngineEvent?.self) { group in
            group.addTask { await self.ask(binding, request, deadline: deadline) }
            group.addTask {
                do {
                    try await time.sleep(seconds: seconds)
                } catch {
                    return nil
                }
                let text = JSONOutput.format(options.timeoutSeconds)
                let error = ProviderError(.timeout, "\(binding.provider.displayName): no answer within the \(text) s deadline", reason: "deadline")
                // A cached answer, even a stale one, beats none.
                if let stale = self.pipeline(binding, deadline: deadline)?.staleAnswer(self.narrowed(request, for: binding.provider), because: error) {
                    return .result(stale)
                }
                return .failure(providerID: binding.provider.id, error: error)
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(providerID: binding.provider.id, error: ProviderError(.cancelled, "\(binding.provider.displayName): cancelled"))
        }
    }

    private func ask(_ binding: ProviderBinding, _ request: WeatherRequest, deadline: Date) async -> EngineEvent {
        let provider = binding.provider
        guard !Task.isCancelled else {
            return .failure(providerID: provider.id, error: ProviderError(.cancelled, "\(provider.displayName): cancelled"))
        }
        let narrowed = narrowed(request, for: provider)
        guard !narrowed.kinds.isEmpty else {
            return .failure(providerID: provider.id, error: ProviderError(.unsupported, "\(provider.displayName) cannot answer this request"))
        }
        do {
            guard let pipeline = pipeline(binding, deadline: deadline) else {
                return .result(try await provider.fetch(narrowed, transport: binding.transport))
            }
            return .result(try await pipeline.run(narrowed))
        } catch {
            return .failure(providerID: provider.id, error: error)
        }
    }

    /// The request with only the kinds the provider can answer (days come from steps when it has no days of its own).
    private func narrowed(_ request: WeatherRequest, for provider: any WeatherProvider) -> WeatherRequest {
        let kinds = provider.capabilities.kinds
        var narrowed = request
        narrowed.kinds = request.kinds.intersection(kinds.union(kinds.contains(.hourly) ? [.daily] : []))
        return narrowed
    }

    /// The cache-and-limits pipeline for a provider, when it has a policy and there is a store.
    private func pipeline(_ binding: ProviderBinding, deadline: Date) -> ProviderPipeline? {
        guard let policy = binding.policy, let store else { return nil }
        return ProviderPipeline(binding: binding, policy: policy, store: store, options: options, time: time, deadline: deadline, random: random)
    }

}
