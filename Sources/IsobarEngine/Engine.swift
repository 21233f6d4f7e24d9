import FoundationEssentials
import IsobarCore

/// A provider together with the transport it is to use and the policy for caching and limiting it.
public struct ProviderBinding: Sendable {
    /// The provider.
    public let provider: any WeatherProvider
    /// The transport handed to it.
    public let transport: any Transport
    /// Cache lifetimes and rate limits; nil to ask it directly every time (replays).
    public let policy: ProviderPolicy?
    /// The key its answers, limits, cooldowns and breaker are stored under: its id, and a fingerprint of its endpoint
    /// (e.g. `open-meteo@3f2a…`), so that two configurations with the same id never share answers or a tripped breaker.
    public let storageKey: String

    /// Binds a provider to a transport; `endpoint` describes what it asks (type, base URL, options that change the answer).
    public init(provider: any WeatherProvider, transport: any Transport, policy: ProviderPolicy? = nil, endpoint: String? = nil) {
        self.provider = provider
        self.transport = transport
        self.policy = policy
        storageKey = endpoint.map { "\(provider.id)@\(Fingerprint.hex($0))" } ?? provider.id
    }
}

/// Asks every provider about each request at once and streams their answers, then each request's consensus.
///
/// Many requests may be in flight together: at most `maxConcurrentRequests` places, and at most
/// `maxConcurrentCallsPerProvider` calls to any one provider (fewer when the provider declares fewer). Every request shares
/// the run's deadline. Each provider's days and the merge come from `Strategy`, the consensus it is given.
public struct Engine<Strategy: ConsensusStrategy>: Sendable {
    /// The events of a run of this engine.
    public typealias Event = EngineEvent<Strategy.Merged>

    /// The providers asked, in display order.
    public var bindings: [ProviderBinding] { parts.bindings }
    /// How answers become days and a consensus.
    public var consensus: Strategy { parts.consensus }
    /// Cache, ledger, cooldowns, breakers and leases; nil to ask providers directly.
    public var storage: EngineStorage? { parts.storage }
    /// Deadline, cache use, retry and concurrency settings.
    public var options: EngineOptions { parts.options }
    /// The clock all waiting goes through.
    public var time: any TimeSource { parts.time }
    /// Where storage problems go.
    public var diagnostics: any DiagnosticSink { parts.diagnostics }
    /// Where a run's tasks prefer to run (the HTTP transport's I/O thread, say); nil for the global concurrent executor.
    public var taskExecutor: (any TaskExecutor)? { parts.taskExecutor }
    private var random: @Sendable (ClosedRange<Double>) -> Double { parts.random }
    private var sources: SourceTable { parts.sources }
    /// Everything above, in one object: each place's tasks capture the engine, and copying it is then one reference.
    private let parts: EngineParts<Strategy>

    /// An engine over the given providers, merging their answers with `consensus`. `racesOnTaskExecutor`: a call's race against
    /// its deadline runs on `taskExecutor` too (a short command's calling thread); otherwise on the runtime's pool, so that a
    /// deadline never waits for a busy executor's turn (a batch on the HTTP loop).
    public init(consensus: Strategy, bindings: [ProviderBinding], storage: EngineStorage? = nil, options: EngineOptions = EngineOptions(),
                time: any TimeSource = SystemTime(), diagnostics: any DiagnosticSink = DiagnosticLog(), taskExecutor: (any TaskExecutor)? = nil,
                racesOnTaskExecutor: Bool = false,
                random: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) }) {
        parts = EngineParts(consensus: consensus, bindings: bindings, storage: storage, options: options, time: time, diagnostics: diagnostics,
                            taskExecutor: taskExecutor, raceExecutor: racesOnTaskExecutor ? taskExecutor : nil, random: random,
                            sources: SourceTable(bindings.flatMap(\.provider.sources)))
    }

    /// Runs one request; total time is that of the slowest provider, never past the deadline.
    public func run(_ request: WeatherRequest) -> AsyncStream<Event> {
        run([request])
    }

    /// Runs every request, numbered from 0 in order, with bounded concurrency; events stream as they happen.
    public func run(_ requests: [WeatherRequest]) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: WeatherRequest.self)
        for request in requests { continuation.yield(request) }
        continuation.finish()
        return run(stream)
    }

    /// Runs requests as they arrive from `requests` (taken only when there is room, so a long input is never held at once).
    public func run(_ requests: AsyncStream<WeatherRequest>) -> AsyncStream<Event> {
        AsyncStream { continuation in
            let task = drive(requests, byPlace: false, emit: { events in for event in events { continuation.yield(event) } },
                             finished: { continuation.finish() })
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// `run(_:)` with each place's events handed over together once its consensus is made (its answers first, in the
    /// order they came): one hand-over a place instead of one an event, for a consumer that writes a place at a time.
    public func runByPlace(_ requests: AsyncStream<WeatherRequest>) -> AsyncStream<[Event]> {
        AsyncStream { continuation in
            let task = drive(requests, byPlace: true, emit: { continuation.yield($0) }, finished: { continuation.finish() })
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Answers the requests of `requests` with bounded concurrency, passing events to `emit` (a place's all at once when
    /// `byPlace`, else each alone), then calls `finished`.
    private func drive(_ requests: AsyncStream<WeatherRequest>, byPlace: Bool, emit: @escaping @Sendable ([Event]) -> Void,
                       finished: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        let engine = self
        return Task(executorPreference: engine.taskExecutor) {
            let deadline = engine.time.now().addingTimeInterval(engine.options.timeoutSeconds)
            let pipelines = engine.bindings.map { binding in
                Pipeline.compose(binding, storage: engine.storage, options: engine.options, time: engine.time, random: engine.random,
                                 diagnostics: engine.diagnostics, slots: AsyncSemaphore(engine.callSlots(binding)))
            }
            let places = AsyncSemaphore(engine.options.maxConcurrentRequests)
            // Discarding: a finished place's task is let go at once, so a long input never piles up finished tasks.
            await withDiscardingTaskGroup { group in
                var number = 0
                for await weather in requests {
                    guard await places.acquire() else { break }
                    let request = EngineRequest(id: RequestID(number), weather: weather)
                    number += 1
                    group.addTask {
                        defer { places.release() }
                        guard byPlace else {
                            return await engine.answer(request, pipelines: pipelines, deadline: deadline) { emit([$0]) }
                        }
                        var events: [Event] = []
                        events.reserveCapacity(engine.bindings.count + 1)
                        await engine.answer(request, pipelines: pipelines, deadline: deadline) { events.append($0) }
                        emit(events)
                    }
                }
            }
            // Writes nobody waited for (settles, answers kept, leases released) are committed before the run ends.
            await engine.storage?.flushQueuedWrites()
            finished()
        }
    }

    /// Calls in flight at once to one provider: the engine's bound, narrowed by the provider's own (its policy's, else its declaration's).
    public func callSlots(_ binding: ProviderBinding) -> Int {
        let own = binding.policy.map(\.maxConcurrentCalls) ?? binding.provider.capabilities.maxConcurrentCalls
        return max(1, min(options.maxConcurrentCallsPerProvider, own ?? .max))
    }

    /// Collects every event of a run of one request.
    public func collect(_ request: WeatherRequest) async -> [Event] {
        var events: [Event] = []
        for await event in run(request) { events.append(event) }
        return events
    }

    /// Asks every provider about one request, emitting each answer as it comes and the consensus last.
    private func answer(_ request: EngineRequest, pipelines: [(step: any PipelineStep, stale: StaleIfErrorStep?)], deadline: Date,
                        emit: (Event) -> Void) async {
        var reports: [WeatherReport] = []
        // The place's own zone decides every provider's days: its file is read once per run, not once per answer. Only a
        // zone that loaded stands for every answer; a fallback offset depends on each answer's own offset.
        let calendar = consensus.calendar(for: request.place)
        func deliver(_ events: [Event]) {
            for event in events {
                if case .result(_, let result) = event { reports.append(result.report) }
                emit(event)
            }
        }
        // A provider whose answer is fresh in the cache and read at once gets no task; only the others are asked, each in a
        // task of its own raced against the deadline (none is started when every answer is at hand).
        var asking: [(provider: any WeatherProvider, pipeline: (step: any PipelineStep, stale: StaleIfErrorStep?))] = []
        for (binding, pipeline) in zip(bindings, pipelines) {
            if let events = answeredAtOnce(request, by: binding.provider, pipeline.step, deadline: deadline, calendar: calendar) {
                deliver(events)
            } else {
                asking.append((binding.provider, pipeline))
            }
        }
        if !asking.isEmpty {
            await withTaskGroup(of: [Event].self) { group in
                for (provider, pipeline) in asking {
                    group.addTask { await self.ask(provider, pipeline, request, deadline: deadline, calendar: calendar) }
                }
                for await events in group { deliver(events) }
            }
        }
        let order = sources.order
        reports.sort { order[$0.providerID, default: 0] < order[$1.providerID, default: 0] }
        let reference = Self.referenceTime(reports, time.now())
        // A stale observation is shown, flagged, but never merged as "now" (judged as its note is: a replay by its recording time).
        let now = time.now()
        let merged = reports.map { report in
            guard let current = report.current,
                  Self.referenceTime([report], now).timeIntervalSince(current.time) > ResultNote.staleCurrentSeconds else { return report }
            var fresh = report
            fresh.current = nil
            return fresh
        }
        emit(.consensus(request, consensus.merge(merged, place: request.place, sources: sources.identities, now: reference)))
    }

    /// Seconds past the deadline a stale answer may still be looked for in the cache.
    public static var staleLookupGraceSeconds: Double { 0.25 }

    /// Lead times count from now; for answers that are all replayed, from their latest recording time.
    static func referenceTime(_ reports: [WeatherReport], _ now: Date) -> Date {
        let recorded = reports.compactMap { report -> Date? in
            if case .replay(let recordedAt) = report.source { return recordedAt }
            return nil
        }
        guard !reports.isEmpty, recorded.count == reports.count else { return now }
        return recorded.max() ?? now
    }

    /// Asks one provider, giving up at the deadline (with a cached answer, even a stale one, when there is one); an answer
    /// that carries several sources (`WeatherReport.sourceReports`) is one result per source.
    private func ask(_ provider: any WeatherProvider, _ pipeline: (step: any PipelineStep, stale: StaleIfErrorStep?), _ request: EngineRequest,
                     deadline: Date, calendar: Strategy.Calendar?) async -> [Event] {
        let event = await askOnce(provider, pipeline, request, deadline: deadline)
        guard case .success(let answer, let narrowed) = event else {
            if case .failure(let failure) = event { return [failure] }
            return []
        }
        return results(of: answer, asked: narrowed, for: request, calendar: calendar)
    }

    /// The result events of a provider's answer to `request` (asked of it as `narrowed`): one per source, each trimmed to
    /// the kinds asked, with its days and notes.
    func results(of answer: WeatherReport, asked narrowed: WeatherRequest, for request: EngineRequest,
                 calendar: Strategy.Calendar?) -> [Event] {
        Self.split(answer).map { answer in
            let report = Self.trimmed(answer, to: narrowed.kinds).completingDerivedQuantities()
            let reference = Self.referenceTime([report], time.now())
            let placed = consensus.placed(report, at: request.place, calendar: calendar, reference: reference,
                                          wantsDays: narrowed.kinds.contains(.daily))
            return .result(request, ProviderResult(report: report, days: placed.days,
                                                   notes: ResultNote.notes(for: report, reference: reference, forecastEnded: placed.forecastEnded)))
        }
    }

    /// A report per source: the report itself, or each of its source reports, with its freshness, source and notices.
    static func split(_ report: WeatherReport) -> [WeatherReport] {
        guard !report.sourceReports.isEmpty else { return [report] }
        return report.sourceReports.map { member in
            var member = member
            member.source = report.source
            member.fetchedAt = report.fetchedAt
            member.freshness = report.freshness
            member.caching = report.caching
            member.notices = report.notices
            member.warnings = report.warnings + member.warnings
            return member
        }
    }

    /// One provider's turn: its answer with the request as narrowed for it, or its failure event.
    private enum Turn {
        case success(WeatherReport, WeatherRequest)
        case failure(Event)
    }

    private func askOnce(_ provider: any WeatherProvider, _ pipeline: (step: any PipelineStep, stale: StaleIfErrorStep?), _ request: EngineRequest,
                         deadline: Date) async -> Turn {
        let narrowed = narrowed(request.weather, for: provider)
        guard !Task.isCancelled else {
            return .failure(.failure(request, providerID: provider.id, error: ProviderError(.cancelled, "\(provider.displayName): cancelled", reason: .cancelled)))
        }
        guard !narrowed.kinds.isEmpty else {
            return .failure(.failure(request, providerID: provider.id, error: ProviderError(.unsupported, "\(provider.displayName) cannot answer this request")))
        }
        // Not set up (a missing key): nothing can be sent, so nothing is counted against its rate limit or its breaker.
        if let unusable = provider.unusableReason(for: narrowed) {
            return .failure(.failure(request, providerID: provider.id, error: unusable))
        }
        let time = time
        let options = options
        let cancelled = ProviderError(.cancelled, "\(provider.displayName): cancelled", reason: .cancelled)
        let call = ProviderCall(request: narrowed, deadline: deadline, requestID: request.id)
        let asked = { @Sendable [call] () async -> Result<WeatherReport, ProviderError> in
            do throws(ProviderError) {
                return .success(try await pipeline.step.answer(call))
            } catch {
                return .failure(error)
            }
        }
        // No deadline (a batch without one): nothing to race, so the call runs in this task (cancelling it cancels the call).
        // A sleep until the deadline would stay queued in the runtime's timers for years after its cancellation, one per
        // call, so a long run's memory would grow with its input.
        guard options.timeoutSeconds < EngineOptions.noDeadlineSeconds else {
            return turn(of: await asked(), for: request, from: provider, narrowed: narrowed)
        }
        let executor = parts.raceExecutor
        let outcome = await FirstAnswer.of(on: executor, [
            asked,
            { @Sendable () async -> Result<WeatherReport, ProviderError> in
                guard (try? await time.sleep(seconds: deadline.timeIntervalSince(time.now()))) != nil else { return .failure(cancelled) }
                let text = SpokenDuration.seconds(options.timeoutSeconds)
                let error = ProviderError(.timeout, "\(provider.displayName): no answer within the \(text) s deadline", reason: .deadline)
                guard let stale = pipeline.stale else { return .failure(error) }
                // A cached answer, even a stale one, beats none; but looking for it must not overrun the deadline by much.
                return await FirstAnswer.of(on: executor, [
                    { @Sendable () async -> Result<WeatherReport, ProviderError> in
                        await stale.staleAnswer(narrowed, because: error).map { .success($0) } ?? .failure(error)
                    },
                    { @Sendable () async -> Result<WeatherReport, ProviderError> in
                        _ = try? await time.sleep(seconds: Self.staleLookupGraceSeconds)
                        return .failure(error)
                    },
                ], onCancel: { .failure(cancelled) })
            },
        ], onCancel: { .failure(cancelled) })
        return turn(of: outcome, for: request, from: provider, narrowed: narrowed)
    }

    /// One provider's turn from its outcome: its answer with the request as narrowed for it, or its failure event.
    private func turn(of outcome: Result<WeatherReport, ProviderError>, for request: EngineRequest, from provider: any WeatherProvider,
                      narrowed: WeatherRequest) -> Turn {
        switch outcome {
        case .success(let answer): .success(answer, narrowed)
        case .failure(let error): .failure(.failure(request, providerID: provider.id, error: error))
        }
    }

    /// The report without the steps and days nobody asked for (a provider may give more than asked: Open-Meteo answers
    /// every kind at once), so that neither the merge nor the caller carries them.
    static func trimmed(_ report: WeatherReport, to kinds: Set<DataKind>) -> WeatherReport {
        guard kinds.isDisjoint(with: [.hourly, .daily]) else { return report }
        var trimmed = report
        trimmed.hourly = []
        trimmed.daily = []
        return trimmed
    }

    /// The request with only the kinds the provider can answer (days come from steps when it has no days of its own).
    func narrowed(_ request: WeatherRequest, for provider: any WeatherProvider) -> WeatherRequest {
        let kinds = provider.capabilities.kinds
        var narrowed = request
        narrowed.kinds = request.kinds.intersection(kinds.union(kinds.contains(.hourly) ? [.daily] : []))
        return narrowed
    }
}

/// An engine's settings and parts, shared by its copies.
private final class EngineParts<Strategy: ConsensusStrategy>: Sendable {
    let consensus: Strategy
    let bindings: [ProviderBinding]
    let storage: EngineStorage?
    let options: EngineOptions
    let time: any TimeSource
    let diagnostics: any DiagnosticSink
    let taskExecutor: (any TaskExecutor)?
    let raceExecutor: (any TaskExecutor)?
    let random: @Sendable (ClosedRange<Double>) -> Double
    let sources: SourceTable

    init(consensus: Strategy, bindings: [ProviderBinding], storage: EngineStorage?, options: EngineOptions, time: any TimeSource, diagnostics: any DiagnosticSink,
         taskExecutor: (any TaskExecutor)?, raceExecutor: (any TaskExecutor)?, random: @escaping @Sendable (ClosedRange<Double>) -> Double,
         sources: SourceTable) {
        self.consensus = consensus
        self.bindings = bindings
        self.storage = storage
        self.options = options
        self.time = time
        self.diagnostics = diagnostics
        self.taskExecutor = taskExecutor
        self.raceExecutor = raceExecutor
        self.random = random
        self.sources = sources
    }
}

/// The sources of an engine's providers by id, built once per engine: the first of each id counts.
private final class SourceTable: Sendable {
    /// Each source's place in display order.
    let order: [String: Int]
    /// Each source's identity.
    let identities: [String: SourceIdentity]

    init(_ sources: [SourceIdentity]) {
        order = Dictionary(sources.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        identities = Dictionary(sources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
