import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Synchronization
import Testing

/// A report from provider `p` for the fixture place, fetched at `at`, with a current temperature and one forecast step.
func sampleReport(_ temperature: Double, at instant: Date, provider: String = "p", place: Place = Fixture.place) -> WeatherReport {
    var sample = WeatherSample(time: instant, periodHours: 1)
    sample.temperatureC = temperature
    var step = WeatherSample(time: instant.addingTimeInterval(3600), periodHours: 1)
    step.temperatureC = temperature + 1
    return WeatherReport(providerID: provider, place: place, fetchedAt: instant, current: sample, hourly: [step])
}

/// A step below the one under test: records every call (with the clock's time) and answers as scripted.
final class ScriptedStep: PipelineStep {
    /// What one call does; `number` counts calls from 1.
    typealias Behaviour = @Sendable (_ call: ProviderCall, _ number: Int) async throws(ProviderError) -> WeatherReport

    private struct State {
        var calls: [ProviderCall] = []
        var times: [Date] = []
        var inFlight = 0
        var maxInFlight = 0
        var finished = 0
    }

    private let clock: any TimeSource
    private let behaviour: Behaviour
    private let state = Mutex(State())

    /// A step doing `behaviour` on each call.
    init(clock: any TimeSource, _ behaviour: @escaping Behaviour) {
        self.clock = clock
        self.behaviour = behaviour
    }

    /// A step answering with these outcomes in turn, the last one repeating: a temperature (an answer fetched at the
    /// time of the call) or an error.
    convenience init(clock: any TimeSource, script: [Result<Double, ProviderError>]) {
        self.init(clock: clock) { _, number throws(ProviderError) in
            guard let last = script.last else { throw ProviderError(.badResponse(path: "$"), "empty script") }
            switch number <= script.count ? script[number - 1] : last {
            case .success(let temperature): return sampleReport(temperature, at: clock.now())
            case .failure(let error): throw error
            }
        }
    }

    func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport {
        let number = state.withLock { state in
            state.calls.append(call)
            state.times.append(clock.now())
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            return state.calls.count
        }
        defer {
            state.withLock { state in
                state.inFlight -= 1
                state.finished += 1
            }
        }
        return try await behaviour(call, number)
    }

    /// Calls so far, in order.
    var calls: [ProviderCall] { state.withLock { $0.calls } }
    /// How many calls were made.
    var callCount: Int { state.withLock { $0.calls.count } }
    /// The clock's reading at each call.
    var times: [Date] { state.withLock { $0.times } }
    /// Calls under way now.
    var inFlight: Int { state.withLock { $0.inFlight } }
    /// The most calls ever under way at once.
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }
    /// Calls that have returned or thrown.
    var finished: Int { state.withLock { $0.finished } }
}

/// Parks callers until the test lets them go, one at a time or all at once.
final class ParkingLot: Sendable {
    private struct State {
        var waiting: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextID = 0
        var isOpen = false
    }

    private let state = Mutex(State())

    /// Waits until let go (true) or cancelled (false); returns at once when the lot is open.
    func park() async -> Bool {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let immediate = state.withLock { state -> Bool? in
                    if state.isOpen { return true }
                    if Task.isCancelled { return false }
                    state.waiting.append((id, continuation))
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
    }

    /// Callers parked now.
    var parked: Int { state.withLock { $0.waiting.count } }

    /// Lets the longest-parked caller go.
    func releaseOne() {
        let waiter = state.withLock { state in state.waiting.isEmpty ? nil : state.waiting.removeFirst().continuation }
        waiter?.resume(returning: true)
    }

    /// Lets every caller go, now and from now on.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting.map(\.continuation)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }
}

/// Yields until `condition` holds; records an issue (and returns false) when it never does.
@discardableResult
func eventually(_ what: String, maxYields: Int = 2_000_000, sourceLocation: SourceLocation = #_sourceLocation,
                _ condition: () async -> Bool) async -> Bool {
    for _ in 0..<maxYields {
        if await condition() { return true }
        await Task.yield()
    }
    if await condition() { return true }
    Issue.record("never happened: \(what)", sourceLocation: sourceLocation)
    return false
}

/// Yields a while so that anything runnable gets the chance to run (to check that something does *not* happen).
func letOthersRun(_ turns: Int = 2_000) async {
    for _ in 0..<turns { await Task.yield() }
}

/// Every storage protocol over a `MemoryStorage`, logging each operation; chosen operations fail with `StorageError`, and
/// each may first wait for `pause`, to stand in for a slow backend.
final class InstrumentedStorage: ResponseCache, CallLedger, CooldownStore, BreakerStore, FetchLock, HTTPValidatorStore {
    /// One storage operation.
    enum Operation: String, Sendable, CaseIterable {
        case readEntry, storeEntry, acquirePermits, settle, usage, readCooldown, setCooldown, readBreaker, recordOutcome
        case acquireLease, renewLease, releaseLease, clearCooldown, resetBreaker
        case removeEntry, readValidation, storeValidation, removeValidation

        /// Every lease operation.
        static let lease: Set<Operation> = [.acquireLease, .renewLease, .releaseLease]
    }

    /// The message of every failure.
    static let failureMessage = "test storage: disk I/O error"

    /// The storage behind, for checking what was kept.
    let base: MemoryStorage
    private let failing: Set<Operation>
    private let pause: (@Sendable (Operation) async -> Void)?
    private let state = Mutex<(log: [Operation], completed: [Operation], inFlight: Int, maxInFlight: Int)>(([], [], 0, 0))

    /// Storage failing `failing`, each operation first waiting for `pause` when given.
    init(base: MemoryStorage = MemoryStorage(), failing: Set<Operation> = [], pause: (@Sendable (Operation) async -> Void)? = nil) {
        self.base = base
        self.failing = failing
        self.pause = pause
    }

    /// Storage whose every operation fails.
    static func failingEverywhere() -> InstrumentedStorage { InstrumentedStorage(failing: Set(Operation.allCases)) }

    /// Every operation so far, in order.
    var log: [Operation] { state.withLock { $0.log } }
    /// How many times `operation` was asked for.
    func count(_ operation: Operation) -> Int { state.withLock { $0.log.filter { $0 == operation }.count } }
    /// How many times `operation` was done (or failed) and returned.
    func completed(_ operation: Operation) -> Int { state.withLock { $0.completed.filter { $0 == operation }.count } }
    /// The most operations ever under way at once.
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }

    private func perform<T>(_ operation: Operation, _ body: () async throws(StorageError) -> T) async throws(StorageError) -> T {
        state.withLock { state in
            state.log.append(operation)
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
        }
        defer {
            state.withLock { state in
                state.inFlight -= 1
                state.completed.append(operation)
            }
        }
        await pause?(operation)
        if failing.contains(operation) { throw StorageError(Self.failureMessage) }
        return try await body()
    }

    func entry(for key: CacheKey) async throws(StorageError) -> CacheEntry? {
        try await perform(.readEntry) { () async throws(StorageError) in try await base.entry(for: key) }
    }

    func store(_ entry: CacheEntry, for key: CacheKey) async throws(StorageError) {
        try await perform(.storeEntry) { () async throws(StorageError) in try await base.store(entry, for: key) }
    }

    func removeEntry(for key: CacheKey) async throws(StorageError) {
        try await perform(.removeEntry) { () async throws(StorageError) in try await base.removeEntry(for: key) }
    }

    func validation(for key: String) async throws(StorageError) -> HTTPValidation? {
        try await perform(.readValidation) { () async throws(StorageError) in try await base.validation(for: key) }
    }

    func storeValidation(_ validation: HTTPValidation, for key: String) async throws(StorageError) {
        try await perform(.storeValidation) { () async throws(StorageError) in try await base.storeValidation(validation, for: key) }
    }

    func removeValidation(for key: String) async throws(StorageError) {
        try await perform(.removeValidation) { () async throws(StorageError) in try await base.removeValidation(for: key) }
    }

    func acquire(_ requests: [PermitRequest], now: Date) async throws(StorageError) -> [PermitDecision] {
        try await perform(.acquirePermits) { () async throws(StorageError) in try await base.acquire(requests, now: now) }
    }

    func settle(_ call: CallID, at: Date) async throws(StorageError) {
        try await perform(.settle) { () async throws(StorageError) in try await base.settle(call, at: at) }
    }

    func usage(provider: String, windows: [RateLimit], now: Date) async throws(StorageError) -> [Double] {
        try await perform(.usage) { () async throws(StorageError) in try await base.usage(provider: provider, windows: windows, now: now) }
    }

    func cooldown(provider: String, now: Date) async throws(StorageError) -> Cooldown? {
        try await perform(.readCooldown) { () async throws(StorageError) in try await base.cooldown(provider: provider, now: now) }
    }

    func setCooldown(_ cooldown: Cooldown, provider: String) async throws(StorageError) {
        try await perform(.setCooldown) { () async throws(StorageError) in try await base.setCooldown(cooldown, provider: provider) }
    }

    func clearCooldown(provider: String) async throws(StorageError) {
        try await perform(.clearCooldown) { () async throws(StorageError) in try await base.clearCooldown(provider: provider) }
    }

    func resetBreaker(provider: String) async throws(StorageError) {
        try await perform(.resetBreaker) { () async throws(StorageError) in try await base.resetBreaker(provider: provider) }
    }

    func breaker(provider: String) async throws(StorageError) -> BreakerState {
        try await perform(.readBreaker) { () async throws(StorageError) in try await base.breaker(provider: provider) }
    }

    func recordOutcome(provider: String, succeeded: Bool, threshold: Int, now: Date, failure: String?) async throws(StorageError) -> BreakerState {
        try await perform(.recordOutcome) { () async throws(StorageError) in
            try await base.recordOutcome(provider: provider, succeeded: succeeded, threshold: threshold, now: now, failure: failure)
        }
    }

    func acquire(_ key: String, owner: LeaseOwner, seconds: Double, now: Date) async throws(StorageError) -> Bool {
        try await perform(.acquireLease) { () async throws(StorageError) in try await base.acquire(key, owner: owner, seconds: seconds, now: now) }
    }

    func renew(_ key: String, owner: LeaseOwner, seconds: Double, now: Date) async throws(StorageError) -> Bool {
        try await perform(.renewLease) { () async throws(StorageError) in try await base.renew(key, owner: owner, seconds: seconds, now: now) }
    }

    func release(_ key: String, owner: LeaseOwner) async throws(StorageError) {
        try await perform(.releaseLease) { () async throws(StorageError) in try await base.release(key, owner: owner) }
    }
}

extension DiagnosticLog {
    /// The messages reported for `component`, in order.
    func messages(_ component: Diagnostic.Component) -> [String] {
        diagnostics.filter { $0.component == component }.map(\.message)
    }
}

/// The cache of provider `p` (a `FakeProvider`) over `cache`.
func reportCache(_ cache: any ResponseCache, clock: ManualClock, diagnostics: any DiagnosticSink = DiagnosticLog(),
                 policy: ProviderPolicy = policy(), maxAgeSeconds: Double? = nil) -> ReportCache {
    ReportCache(provider: FakeProvider.answering("p", temperature: 0), cache: cache, policy: policy, maxAgeSeconds: maxAgeSeconds,
                time: clock, diagnostics: diagnostics)
}

/// A call for the fixture place, due `seconds` from now on `clock`.
func providerCall(_ kinds: Set<DataKind> = [.current], clock: ManualClock, within seconds: Double = 10) -> ProviderCall {
    ProviderCall(request: WeatherRequest(place: Fixture.place, kinds: kinds), deadline: clock.now().addingTimeInterval(seconds))
}

/// The cache key of provider `p`'s `slot` for the fixture place.
func cacheKey(_ slot: CacheSlot, provider: String = "p") -> CacheKey {
    CacheKey(provider: provider, slot: slot, placeKey: ReportCache.placeKey(Fixture.place.coordinate))
}

extension Result where Success == WeatherReport, Failure == ProviderError {
    /// Runs a step's answer, capturing its typed error.
    static func of(_ body: () async throws(ProviderError) -> WeatherReport) async -> Self {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
