import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Synchronization
import Testing

/// A cache over a dictionary that reads at once when told it can (as a store's connection on the caller's thread does),
/// counting the reads that go through `entry(for:)`.
final class AtOnceCache: ResponseCache {
    private let state = Mutex<(entries: [CacheKey: CacheEntry], readsAwaited: Int, readsAtOnce: Int)>(([:], 0, 0))
    /// False: every read at once would wait (another connection holds the one it would use).
    let answersAtOnce: Bool

    init(answersAtOnce: Bool = true) { self.answersAtOnce = answersAtOnce }

    /// Reads made through `entry(for:)`.
    var readsAwaited: Int { state.withLock { $0.readsAwaited } }
    /// Reads made at once.
    var readsAtOnce: Int { state.withLock { $0.readsAtOnce } }

    func entry(for key: CacheKey) async throws(StorageError) -> CacheEntry? {
        state.withLock { state in
            state.readsAwaited += 1
            return state.entries[key]
        }
    }

    func entryAtOnce(for key: CacheKey) -> AtOnce<CacheEntry?> {
        guard answersAtOnce else { return .wouldWait }
        return state.withLock { state in
            state.readsAtOnce += 1
            return .answered(state.entries[key])
        }
    }

    func store(_ entry: CacheEntry, for key: CacheKey) async throws(StorageError) { state.withLock { $0.entries[key] = entry } }

    func storeSoon(_ entry: CacheEntry, for key: CacheKey, failed: @escaping @Sendable (StorageError) -> Void) async {
        state.withLock { $0.entries[key] = entry }
    }

    func removeEntry(for key: CacheKey) async throws(StorageError) { state.withLock { $0.entries[key] = nil } }
}

/// A clock that counts the sleeps asked of it: a call raced against its deadline asks for one.
final class SleepCountingClock: TimeSource {
    let base = ManualClock()
    private let sleeps = Atomic<Int>(0)
    /// Sleeps asked so far.
    var sleepsAsked: Int { sleeps.load(ordering: .relaxed) }

    func now() -> Date { base.now() }

    func sleep(seconds: Double) async throws {
        sleeps.add(1, ordering: .relaxed)
        try await base.sleep(seconds: seconds)
    }
}

@Suite("A fresh answer the cache reads at once")
struct AnswerAtOnceTests {
    let clock = ManualClock()

    func step(_ cache: AtOnceCache, next: any PipelineStep, readCache: Bool = true, offline: Bool = false,
              misses: CacheMissStreak? = nil) -> CacheStep {
        CacheStep(next: next, cache: reportCache(cache, clock: clock, policy: policy(currentTTL: 600)), readCache: readCache,
                  offline: offline, misses: misses)
    }

    func cached(_ temperature: Double, in cache: AtOnceCache) async {
        await reportCache(cache, clock: clock).store(sampleReport(temperature, at: clock.now()))
    }

    @Test func isTheAnswerTheCacheStepGivesWithoutAskingTheNextStep() async throws {
        let cache = AtOnceCache()
        await cached(4, in: cache)
        clock.advance(by: 30)
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let atOnce = try #require(step(cache, next: next).answerAtOnce(providerCall(clock: clock)))
        let awaited = try await step(cache, next: next).answer(providerCall(clock: clock))
        #expect(atOnce.current?.temperatureC == 4)
        #expect(atOnce.freshness == .cached(ageSeconds: 30))
        #expect(atOnce.current == awaited.current && atOnce.freshness == awaited.freshness)
        #expect(next.callCount == 0)
    }

    @Test func isNoneWhenAnyPartIsMissingOrPastItsLifetime() async {
        let cache = AtOnceCache()
        let next = ScriptedStep(clock: clock, script: [])
        #expect(step(cache, next: next).answerAtOnce(providerCall(clock: clock)) == nil)
        var currentOnly = sampleReport(4, at: clock.now())
        currentOnly.hourly = []
        await reportCache(cache, clock: clock).store(currentOnly)
        #expect(step(cache, next: next).answerAtOnce(providerCall([.current], clock: clock)) != nil)
        #expect(step(cache, next: next).answerAtOnce(providerCall([.current, .hourly], clock: clock)) == nil)
        clock.advance(by: 601)
        #expect(step(cache, next: next).answerAtOnce(providerCall([.current], clock: clock)) == nil)
        #expect(next.callCount == 0)
    }

    @Test func isNoneUnderRefreshOfflineOrWhenTheReadWouldWait() async {
        let cache = AtOnceCache()
        await cached(4, in: cache)
        let next = ScriptedStep(clock: clock, script: [])
        #expect(step(cache, next: next, readCache: false).answerAtOnce(providerCall(clock: clock)) == nil)
        #expect(step(cache, next: next, offline: true).answerAtOnce(providerCall(clock: clock)) == nil)
        let waiting = AtOnceCache(answersAtOnce: false)
        await cached(4, in: waiting)
        #expect(step(waiting, next: next).answerAtOnce(providerCall(clock: clock)) == nil)
        #expect(cache.readsAtOnce == 0)
    }

    @Test func isNotLookedForAfterARunOfMissesAndEndsOneWhenFound() async {
        let cache = AtOnceCache()
        await cached(4, in: cache)
        let misses = CacheMissStreak()
        for _ in 0..<CacheMissStreak.threshold { misses.missed() }
        let next = ScriptedStep(clock: clock, script: [])
        #expect(step(cache, next: next, misses: misses).answerAtOnce(providerCall(clock: clock)) == nil)
        #expect(cache.readsAtOnce == 0)
        misses.found()
        misses.missed()
        #expect(step(cache, next: next, misses: misses).answerAtOnce(providerCall(clock: clock)) != nil)
        #expect(misses.worthReading)
        // Found: the streak starts again from none.
        for _ in 0..<(CacheMissStreak.threshold - 1) { misses.missed() }
        #expect(misses.worthReading)
    }

    @Test func passesThroughTheBudgetAndStaleIfErrorStepsAsTheAnswerWould() async throws {
        let cache = AtOnceCache()
        await cached(4, in: cache)
        let next = ScriptedStep(clock: clock, script: [])
        let cacheStep = step(cache, next: next)
        let stale = StaleIfErrorStep(next: cacheStep, cache: cacheStep.cache)
        let budget = BudgetStep(next: stale, budgetSeconds: 5, time: clock)
        #expect(try #require(budget.answerAtOnce(providerCall(clock: clock))).current?.temperatureC == 4)
        #expect(ScriptedStep(clock: clock, script: []).answerAtOnce(providerCall(clock: clock)) == nil)
    }

    /// The engine: a fresh answer read at once starts no race against the deadline (no sleep is asked of the clock) and
    /// asks nothing of the provider; the same answer that can only be read by waiting is raced as before. Both deliver it alike.
    @Test(arguments: [true, false]) func theEngineDeliversItWithoutARaceOnlyWhenReadAtOnce(_ atOnce: Bool) async throws {
        let time = SleepCountingClock()
        let cache = AtOnceCache(answersAtOnce: atOnce)
        let provider = FakeProvider("p", kinds: [.current]) { _, _ throws(ProviderError) in
            Issue.record("the provider was asked")
            throw ProviderError(.unavailable, "asked")
        }
        var report = sampleReport(4, at: time.now())
        report.hourly = []
        let key = CacheKey(provider: "p", slot: .current, placeKey: ReportCache.placeKey(Fixture.place.coordinate))
        try await cache.store(CacheEntry(fetchedAt: time.now(), payload: ReportCodec.encode(report)), for: key)
        let memory = MemoryStorage()
        let storage = EngineStorage(cache: cache, ledger: memory, cooldowns: memory, breakers: memory, locks: memory)
        let binding = ProviderBinding(provider: provider, transport: UnusedTransport(), policy: ProviderPolicy(declaredBy: provider))
        let engine = Engine(consensus: Consensus(), bindings: [binding], storage: storage, time: time)
        let events = await engine.collect(WeatherRequest(place: Fixture.place, kinds: [.current]))
        let results = events.compactMap { event -> ProviderResult? in
            if case .result(_, let result) = event { return result }
            return nil
        }
        #expect(results.count == 1)
        #expect(results.first?.report.current?.temperatureC == 4)
        #expect(results.first?.report.freshness == .cached(ageSeconds: 0))
        #expect(time.sleepsAsked == (atOnce ? 0 : 1))
        #expect(cache.readsAwaited == (atOnce ? 0 : 1))
    }

    /// Two providers: both fresh and read at once (no race, no provider asked), or only one of them (both are then asked
    /// the usual way, the fresh one answered from the cache, the other by its provider). Either way both results come.
    @Test(arguments: [true, false]) func twoProvidersEachGetTheirAnswerWhetherOrNotBothAreAtHand(_ bothCached: Bool) async throws {
        let time = SleepCountingClock()
        let cache = AtOnceCache()
        let asked = Atomic<Int>(0)
        let providers = ["a", "b"].map { id in
            FakeProvider(id, kinds: [.current]) { request, _ throws(ProviderError) in
                asked.add(1, ordering: .relaxed)
                var sample = WeatherSample(time: Fixture.midnightUTC, periodHours: 1)
                sample.temperatureC = 20
                return WeatherReport(providerID: id, place: request.place, fetchedAt: Fixture.midnightUTC, current: sample)
            }
        }
        for id in bothCached ? ["a", "b"] : ["a"] {
            var report = sampleReport(id == "a" ? 4 : 5, at: time.now(), provider: id)
            report.hourly = []
            let key = CacheKey(provider: id, slot: .current, placeKey: ReportCache.placeKey(Fixture.place.coordinate))
            try await cache.store(CacheEntry(fetchedAt: time.now(), payload: ReportCodec.encode(report)), for: key)
        }
        let memory = MemoryStorage()
        let storage = EngineStorage(cache: cache, ledger: memory, cooldowns: memory, breakers: memory, locks: memory)
        let bindings = providers.map { ProviderBinding(provider: $0, transport: UnusedTransport(), policy: ProviderPolicy(declaredBy: $0)) }
        let engine = Engine(consensus: Consensus(), bindings: bindings, storage: storage, time: time)
        let events = await engine.collect(WeatherRequest(place: Fixture.place, kinds: [.current]))
        var temperatures: [String: Double] = [:]
        for event in events {
            if case .result(_, let result) = event { temperatures[result.report.providerID] = result.report.current?.temperatureC }
        }
        #expect(temperatures == ["a": 4, "b": bothCached ? 5 : 20])
        #expect(asked.load(ordering: .relaxed) == (bothCached ? 0 : 1))
        // The provider asked races its deadline (its lease renewer sleeps too): only the answers at hand need no sleep.
        #expect(bothCached ? time.sleepsAsked == 0 : time.sleepsAsked >= 1)
        // Each provider's cache is read at once once: the one at hand is not read again when the other has to be asked.
        #expect(cache.readsAtOnce == 2)
        // Only the one asked is read the usual way (by the cache step, and again under its fetch lease).
        #expect(bothCached ? cache.readsAwaited == 0 : cache.readsAwaited >= 1)
        guard case .consensus = events.last else {
            Issue.record("the consensus did not come last")
            return
        }
    }
}
