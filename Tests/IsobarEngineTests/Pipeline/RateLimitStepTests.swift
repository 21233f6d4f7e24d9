import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Testing

@Suite("RateLimitStep")
struct RateLimitStepTests {
    let clock = ManualClock()
    let storage = InstrumentedStorage()
    let diagnostics = DiagnosticLog()
    static let window = RateLimit(limit: 2, perSeconds: 10)

    func step(_ next: any PipelineStep, windows: [RateLimit] = [window], cost: Double = 1,
              ledger: (any CallLedger)? = nil) -> RateLimitStep {
        RateLimitStep(next: next, provider: FakeProvider("p", cost: cost) { _, _ throws(ProviderError) in
            throw ProviderError(.unavailable, "never asked")
        }, windows: windows, ledger: ledger ?? storage, time: clock, diagnostics: diagnostics)
    }

    func answer(_ step: RateLimitStep, within seconds: Double = 60) async -> Result<WeatherReport, ProviderError> {
        await Result.of { () async throws(ProviderError) in try await step.answer(providerCall(clock: clock, within: seconds)) }
    }

    /// Calls counted in the window ending now.
    func usage(_ window: RateLimit = window) async throws -> Double {
        try await storage.base.usage(provider: "p", windows: [window], now: clock.now())[0]
    }

    @Test func withoutWindowsTheLedgerIsNotAsked() async throws {
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        #expect(try await answer(step(next, windows: [])).get().current?.temperatureC == 9)
        #expect(storage.log.isEmpty)
    }

    @Test func aPermitIsTakenBeforeTheCallAndSettledWhenTheAnswerComesBack() async throws {
        let next = ScriptedStep(clock: clock) { [clock] _, _ throws(ProviderError) in
            // The call is counted while in flight.
            do { try await clock.sleep(seconds: 3) } catch { throw ProviderError(.cancelled, "cancelled") }
            return sampleReport(9, at: clock.now())
        }
        let task = Task { await answer(step(next)) }
        await eventually("the call is under way") { clock.sleeperCount == 1 }
        #expect(storage.log == [.acquirePermits])
        #expect(try await usage() == 1)
        clock.advance(by: 3)
        #expect(try await task.value.get().current?.temperatureC == 9)
        #expect(storage.log == [.acquirePermits, .settle])
        // Settled at the answer (3 s in): it counts for a window's length from then.
        clock.advance(by: 9.5)
        #expect(try await usage() == 1)
        clock.advance(by: 0.5)
        #expect(try await usage() == 0)
    }

    @Test func aFailedCallCountsTheLateArrivalMarginLonger() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(ProviderError(.timeout, "P timed out"))])
        #expect(await answer(step(next)).error?.message == "P timed out")
        #expect(RateLimitStep.lateArrivalMargin == 1)
        clock.advance(by: 10.5)
        #expect(try await usage() == 1)
        clock.advance(by: 0.5)
        #expect(try await usage() == 0)
    }

    @Test func callsAreGrantedUpToTheLimit() async throws {
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        for _ in 1...2 { #expect(try await answer(step(next)).get().current?.temperatureC == 9) }
        #expect(try await usage() == 2)
        #expect(next.callCount == 2)
    }

    /// Answers through `step` in a task while the clock moves on a quarter second at a time (the step checks again at
    /// least that often, as calls elsewhere may settle), checking that `next` is not asked meanwhile.
    func answerWaiting(_ step: RateLimitStep, next: ScriptedStep, within seconds: Double) async -> Result<WeatherReport, ProviderError> {
        let calls = next.callCount
        let done = Flag()
        let task = Task {
            defer { done.set() }
            return await answer(step, within: seconds)
        }
        while !done.isSet {
            await eventually("the call waits or ends") { done.isSet || clock.sleeperCount == 1 }
            if !done.isSet {
                #expect(next.callCount == calls)
                clock.advance(by: 0.25)
            }
        }
        return await task.value
    }

    @Test func aCallWaitsForRoomWithinTheDeadline() async throws {
        let start = clock.now()
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        for _ in 1...2 { _ = await answer(step(next)) }
        clock.advance(by: 2)
        #expect(try await answerWaiting(step(next), next: next, within: 30).get().current?.temperatureC == 9)
        // Room comes when the first call (settled at the start) has counted for the window's 10 s.
        #expect(next.times.last == start.addingTimeInterval(10))
        #expect(diagnostics.diagnostics.isEmpty)
    }

    /// A call granted but never settled (whoever made it stopped) counts until its deadline, then for a window's length;
    /// a new call whose deadline comes later waits for that instead of being refused.
    @Test func aCallNeverSettledFreesItsRoomAWindowAfterItsDeadline() async throws {
        let start = clock.now()
        let window = RateLimit(limit: 1, perSeconds: 30)
        let abandoned = PermitRequest(provider: "p", windows: [window], cost: 1, deadline: start.addingTimeInterval(5))
        guard case .granted = try await storage.base.acquire(abandoned, now: start) else {
            Issue.record("the first call was not granted")
            return
        }
        clock.advance(by: 20)
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        // Room comes 35 s in (its deadline, 5 s, plus the window's 30 s), before this call's deadline 40 s in.
        #expect(try await answerWaiting(step(next, windows: [window]), next: next, within: 20).get().current?.temperatureC == 9)
        #expect(next.times.first == start.addingTimeInterval(35))
    }

    @Test func aCallIsRefusedWithLocalLimitWhenRoomComesOnlyAfterTheDeadline() async throws {
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        for _ in 1...2 { _ = await answer(step(next)) }
        let error = try #require(await answer(step(next), within: 5).error)
        #expect(error.code == .rateLimited(retryAfterSeconds: 10))
        #expect(error.reason == .localLimit)
        #expect(error.message == "P: rate limit reached; a call frees up at 2026-11-28 09:00 UTC")
        #expect(ProviderOutcome(error) == .rateLimited)
        #expect(next.callCount == 2)
        #expect(try await usage() == 2)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aCallCostingMoreThanTheWindowIsRefusedWithoutARetryTime() async throws {
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let error = try #require(await answer(step(next, cost: 3)).error)
        guard case .rateLimited(let retryAfter) = error.code else {
            Issue.record("expected rate_limited, got \(error.codeName)")
            return
        }
        #expect(retryAfter == nil)
        #expect(error.message == "P: rate limit reached; a call frees up at a window larger than the limit")
        #expect(next.callCount == 0)
    }

    @Test func everyWindowMustHaveRoom() async throws {
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let windows = [RateLimit(limit: 5, perSeconds: 1), RateLimit(limit: 1, perSeconds: 60)]
        _ = await answer(step(next, windows: windows))
        clock.advance(by: 2)
        #expect(await answer(step(next, windows: windows), within: 30).error?.reason == .localLimit)
        #expect(next.callCount == 1)
    }

    @Test func cancellingAWaitForRoomEndsTheCall() async throws {
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        for _ in 1...2 { _ = await answer(step(next)) }
        let waiting = Task { await answer(step(next), within: 30) }
        await eventually("the call waits") { clock.sleeperCount == 1 }
        waiting.cancel()
        #expect(await waiting.value.error?.code == .cancelled)
        #expect(next.callCount == 2)
        #expect(try await usage() == 2)
    }

    @Test func aLedgerThatCannotBeUsedDoesNotStopTheCallAndIsReported() async throws {
        let failing = InstrumentedStorage.failingEverywhere()
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        for _ in 1...3 { #expect(try await answer(step(next, ledger: failing)).get().current?.temperatureC == 9) }
        #expect(next.callCount == 3)
        #expect(diagnostics.messages(.ledger) == Array(repeating: "cannot count a call of p: \(InstrumentedStorage.failureMessage)", count: 3))
        // Nothing was granted, so there is nothing to settle.
        #expect(!failing.log.contains(.settle))
    }

    @Test func aCallThatCannotBeSettledIsReported() async throws {
        let ledger = InstrumentedStorage(base: storage.base, failing: [.settle])
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        #expect(try await answer(step(next, ledger: ledger)).get().current?.temperatureC == 9)
        #expect(diagnostics.messages(.ledger) == ["cannot settle a call of p: \(InstrumentedStorage.failureMessage)"])
    }
}
