import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Testing

@Suite("CacheStep")
struct CacheStepTests {
    let clock = ManualClock()
    let storage = InstrumentedStorage()
    let diagnostics = DiagnosticLog()

    func step(_ next: any PipelineStep, readCache: Bool = true, offline: Bool = false, maxAgeSeconds: Double? = nil,
              cache: (any ResponseCache)? = nil, misses: CacheMissStreak? = nil) -> CacheStep {
        CacheStep(next: next, cache: reportCache(cache ?? storage, clock: clock, diagnostics: diagnostics,
                                                 policy: policy(currentTTL: 600), maxAgeSeconds: maxAgeSeconds),
                  readCache: readCache, offline: offline, misses: misses)
    }

    /// Stores an answer with temperature `temperature` fetched now, as the pipeline below would have.
    func cacheAnswer(_ temperature: Double) async {
        await reportCache(storage, clock: clock).store(sampleReport(temperature, at: clock.now()))
    }

    @Test func aFreshCachedAnswerEndsTheCallWithoutAskingTheNextStep() async throws {
        await cacheAnswer(4)
        clock.advance(by: 30)
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let report = try await step(next).answer(providerCall(clock: clock))
        #expect(next.callCount == 0)
        #expect(report.current?.temperatureC == 4)
        #expect(report.freshness == .cached(ageSeconds: 30))
    }

    @Test func anAnswerPastItsTimeToLiveIsAskedForAndTheStepStoresNothing() async throws {
        await cacheAnswer(4)
        let cachedAt = clock.now()
        clock.advance(by: 601)
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let before = storage.log.count
        let report = try await step(next).answer(providerCall(clock: clock))
        #expect(next.callCount == 1)
        #expect(report.current?.temperatureC == 9)
        #expect(report.freshness == .fresh)
        // Storing is the single-flight step's part; the cache step only reads.
        #expect(storage.log.dropFirst(before).allSatisfy { $0 == .readEntry })
        #expect(try await storage.base.entry(for: cacheKey(.current))?.fetchedAt == cachedAt)
    }

    @Test func everyWantedSlotMustBeCached() async throws {
        var currentOnly = sampleReport(4, at: clock.now())
        currentOnly.hourly = []
        await reportCache(storage, clock: clock).store(currentOnly)
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let asked = try await step(next).answer(providerCall([.current, .hourly], clock: clock))
        #expect(next.callCount == 1)
        #expect(asked.freshness == .fresh)

        await cacheAnswer(5)
        let served = try await step(next).answer(providerCall([.current, .hourly], clock: clock))
        #expect(next.callCount == 1)
        #expect(served.freshness == .cached(ageSeconds: 0))
        #expect(served.current?.temperatureC == 5)
        #expect(served.hourly.first?.temperatureC == 6)
    }

    @Test func afterARunOfMissesTheReadIsLeftToTheStepBelowUntilAnAnswerIsFoundCached() async throws {
        let misses = CacheMissStreak()
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let cacheStep = step(next, misses: misses)
        let start = storage.count(.readEntry)
        for number in 1...CacheMissStreak.threshold {
            _ = try await cacheStep.answer(providerCall(clock: clock))
            #expect(storage.count(.readEntry) == start + number)
        }
        #expect(!misses.worthReading)
        // Past the run: asked without a read, even though an answer is cached now (the lease's holder would find it).
        await cacheAnswer(4)
        let unread = try await cacheStep.answer(providerCall(clock: clock))
        #expect(storage.count(.readEntry) == start + CacheMissStreak.threshold)
        #expect(unread.freshness == .fresh)
        #expect(next.callCount == CacheMissStreak.threshold + 1)
        // The step below found an answer cached: reads resume, and the cached answer ends the call.
        misses.found()
        let served = try await cacheStep.answer(providerCall(clock: clock))
        #expect(storage.count(.readEntry) == start + CacheMissStreak.threshold + 1)
        #expect(served.freshness == .cached(ageSeconds: 0))
        #expect(next.callCount == CacheMissStreak.threshold + 1)
    }

    @Test func anAnswerFoundCachedEndsARunOfMissesBeforeItIsLong() async throws {
        let misses = CacheMissStreak()
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let cacheStep = step(next, misses: misses)
        for _ in 1..<CacheMissStreak.threshold { _ = try await cacheStep.answer(providerCall(clock: clock)) }
        await cacheAnswer(4)
        #expect(try await cacheStep.answer(providerCall(clock: clock)).current?.temperatureC == 4)
        // Past the lifetime: misses again, counted from none.
        clock.advance(by: 601)
        let start = storage.count(.readEntry)
        for _ in 1..<CacheMissStreak.threshold { _ = try await cacheStep.answer(providerCall(clock: clock)) }
        #expect(misses.worthReading)
        #expect(storage.count(.readEntry) == start + CacheMissStreak.threshold - 1)
    }

    @Test func withoutAStreakEveryCallReads() async throws {
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let cacheStep = step(next)
        let start = storage.count(.readEntry)
        for _ in 0..<(2 * CacheMissStreak.threshold) { _ = try await cacheStep.answer(providerCall(clock: clock)) }
        #expect(storage.count(.readEntry) == start + 2 * CacheMissStreak.threshold)
    }

    @Test func refreshSkipsReadingTheCache() async throws {
        await cacheAnswer(4)
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let before = storage.count(.readEntry)
        let report = try await step(next, readCache: false).answer(providerCall(clock: clock))
        #expect(next.callCount == 1)
        #expect(report.current?.temperatureC == 9)
        #expect(storage.count(.readEntry) == before)
    }

    @Test func maxAgeOverridesTheTimeToLive() async throws {
        await cacheAnswer(4)
        clock.advance(by: 120)
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        _ = try await step(next, maxAgeSeconds: 60).answer(providerCall(clock: clock))
        #expect(next.callCount == 1)
        let withinMaxAge = try await step(next, maxAgeSeconds: 180).answer(providerCall(clock: clock))
        #expect(next.callCount == 1)
        #expect(withinMaxAge.freshness == .cached(ageSeconds: 120))
    }

    @Test func anUnreadableEntryIsAMiss() async throws {
        try await storage.base.store(CacheEntry(fetchedAt: clock.now(), payload: "{not json"), for: cacheKey(.current))
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let report = try await step(next).answer(providerCall(clock: clock))
        #expect(next.callCount == 1)
        #expect(report.current?.temperatureC == 9)
    }

    @Test func offlineServesAnyCachedAnswerAndNeverAsks() async throws {
        await cacheAnswer(4)
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        clock.advance(by: 100)
        let fresh = try await step(next, offline: true).answer(providerCall(clock: clock))
        #expect(fresh.freshness == .cached(ageSeconds: 100))
        clock.advance(by: 7100)
        let old = try await step(next, offline: true).answer(providerCall(clock: clock))
        #expect(old.freshness == .stale(ageSeconds: 7200, because: "offline"))
        #expect(old.current?.temperatureC == 4)
        #expect(next.callCount == 0)
    }

    @Test func offlineWithNothingCachedIsSkipped() async throws {
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let result = await Result.of { () async throws(ProviderError) in try await step(next, offline: true).answer(providerCall(clock: clock)) }
        let error = try #require(result.error)
        #expect(error.code == .unavailable)
        #expect(error.reason == .offline)
        #expect(ProviderOutcome(error) == .skipped)
        #expect(error.message == "P: offline, and nothing is cached for this place")
        #expect(next.callCount == 0)
    }

    @Test func aCacheThatCannotBeReadIsAMissReportedToTheDiagnostics() async throws {
        let failing = InstrumentedStorage.failingEverywhere()
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let report = try await step(next, cache: failing).answer(providerCall(clock: clock))
        #expect(next.callCount == 1)
        #expect(report.current?.temperatureC == 9)
        #expect(diagnostics.messages(.cache) == ["cannot read a cached answer of p: \(InstrumentedStorage.failureMessage)"])
        #expect(diagnostics.diagnostics.count == 1)
    }

    @Test func offlineOverACacheThatCannotBeReadIsSkippedAndReported() async throws {
        let failing = InstrumentedStorage.failingEverywhere()
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let result = await Result.of { () async throws(ProviderError) in
            try await step(next, offline: true, cache: failing).answer(providerCall(clock: clock))
        }
        #expect(result.error?.reason == .offline)
        #expect(next.callCount == 0)
        #expect(diagnostics.counts == [.cache: 1])
    }
}
