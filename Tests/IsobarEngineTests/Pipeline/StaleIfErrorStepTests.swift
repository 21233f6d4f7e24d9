import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Testing

@Suite("StaleIfErrorStep")
struct StaleIfErrorStepTests {
    let clock = ManualClock()
    let storage = InstrumentedStorage()
    let diagnostics = DiagnosticLog()
    static let outage = ProviderError(.unavailable, "P answered HTTP 503")

    func step(_ next: any PipelineStep, cache: (any ResponseCache)? = nil, maxStale: Double = 3600) -> StaleIfErrorStep {
        StaleIfErrorStep(next: next, cache: reportCache(cache ?? storage, clock: clock, diagnostics: diagnostics,
                                                        policy: policy(currentTTL: 600, maxStale: maxStale)))
    }

    func answer(_ step: StaleIfErrorStep) async -> Result<WeatherReport, ProviderError> {
        await Result.of { () async throws(ProviderError) in try await step.answer(providerCall(clock: clock)) }
    }

    @Test func anAnswerPassesThroughWithoutTouchingStorage() async throws {
        await reportCache(storage.base, clock: clock).store(sampleReport(4, at: clock.now()))
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let report = try await answer(step(next)).get()
        #expect(report.current?.temperatureC == 9)
        #expect(report.freshness == .fresh)
        #expect(storage.log.isEmpty)
    }

    @Test func aFailureIsCoveredByACachedAnswerWithinMaxStaleMarkedWithTheReason() async throws {
        await reportCache(storage.base, clock: clock).store(sampleReport(4, at: clock.now()))
        clock.advance(by: 3000)
        let next = ScriptedStep(clock: clock, script: [.failure(Self.outage)])
        let report = try await answer(step(next)).get()
        #expect(next.callCount == 1)
        #expect(report.current?.temperatureC == 4)
        #expect(report.freshness == .stale(ageSeconds: 3000, because: "P answered HTTP 503"))
        // It only reads: nothing is written, not even the stale answer's new age.
        #expect(storage.log.allSatisfy { $0 == .readEntry })
    }

    @Test func aCachedAnswerOlderThanMaxStaleLeavesTheFailure() async throws {
        await reportCache(storage.base, clock: clock).store(sampleReport(4, at: clock.now()))
        clock.advance(by: 3601)
        let next = ScriptedStep(clock: clock, script: [.failure(Self.outage)])
        let error = try #require(await answer(step(next)).error)
        #expect(error.code == .unavailable)
        #expect(error.message == "P answered HTTP 503")
    }

    @Test func withNothingCachedTheFailureStands() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(ProviderError(.timeout, "P timed out"))])
        let error = try #require(await answer(step(next)).error)
        #expect(error.code == .timeout)
        #expect(error.message == "P timed out")
    }

    @Test(arguments: [
        ProviderError(.unauthorized, "key refused"), ProviderError(.badRequest, "bad parameters"), ProviderError(.notFound, "no such place"),
        ProviderError(.notConfigured, "no key"), ProviderError(.unsupported, "cannot answer"),
        ProviderError(.cancelled, "cancelled", reason: .cancelled),
    ])
    func theCallersOwnFailuresAndCancellationAreNeverCoveredUp(_ failure: ProviderError) async throws {
        await reportCache(storage.base, clock: clock).store(sampleReport(4, at: clock.now()))
        clock.advance(by: 60)
        let next = ScriptedStep(clock: clock, script: [.failure(failure)])
        let error = try #require(await answer(step(next)).error)
        #expect(error.code == failure.code)
        #expect(error.message == failure.message)
    }

    @Test(arguments: [
        ProviderError(.rateLimited(retryAfterSeconds: 30), "P is rate limiting requests (HTTP 429)"),
        ProviderError(.unavailable, "P skipped", reason: .breakerOpen), ProviderError(.badResponse(path: "$.main"), "unreadable"),
        ProviderError(.timeout, "no answer within the deadline", reason: .deadline),
    ])
    func providerSideFailuresAndSkipsAreCovered(_ failure: ProviderError) async throws {
        await reportCache(storage.base, clock: clock).store(sampleReport(4, at: clock.now()))
        clock.advance(by: 60)
        let next = ScriptedStep(clock: clock, script: [.failure(failure)])
        let report = try await answer(step(next)).get()
        #expect(report.freshness == .stale(ageSeconds: 60, because: failure.message))
    }

    @Test func theEngineAsksForAStaleAnswerAtTheDeadline() async throws {
        await reportCache(storage.base, clock: clock).store(sampleReport(4, at: clock.now()))
        clock.advance(by: 700)
        let stale = step(ScriptedStep(clock: clock, script: [.success(9)]))
        let deadline = ProviderError(.timeout, "P: no answer within the 10 s deadline", reason: .deadline)
        let report = await stale.staleAnswer(WeatherRequest(place: Fixture.place, kinds: [.current]), because: deadline)
        #expect(report?.freshness == .stale(ageSeconds: 700, because: deadline.message))
        #expect(await stale.staleAnswer(WeatherRequest(place: Fixture.place, kinds: [.current]),
                                        because: ProviderError(.unauthorized, "key refused")) == nil)
    }

    @Test func aCacheThatCannotBeReadLeavesTheFailureAndIsReported() async throws {
        let failing = InstrumentedStorage.failingEverywhere()
        let next = ScriptedStep(clock: clock, script: [.failure(Self.outage)])
        let error = try #require(await answer(step(next, cache: failing)).error)
        #expect(error.message == "P answered HTTP 503")
        #expect(diagnostics.messages(.cache) == ["cannot read a cached answer of p: \(InstrumentedStorage.failureMessage)"])
    }

    @Test func aCacheThatCannotBeReadDoesNotStopAnAnswer() async throws {
        let failing = InstrumentedStorage.failingEverywhere()
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let report = try await answer(step(next, cache: failing)).get()
        #expect(report.current?.temperatureC == 9)
        #expect(failing.log.isEmpty)
        #expect(diagnostics.diagnostics.isEmpty)
    }
}
