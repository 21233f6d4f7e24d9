import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Testing

@Suite("Batch waiting")
struct BatchWaitingTests {
    let clock = ManualClock()
    let storage = InstrumentedStorage()

    func answer(_ step: any PipelineStep, within seconds: Double = 600) async -> Result<WeatherReport, ProviderError> {
        await Result.of { () async throws(ProviderError) in try await step.answer(providerCall(clock: clock, within: seconds)) }
    }

    @Test func aBatchWaitsOutA429AndAsksAgain() async throws {
        let start = clock.now()
        let pause = ProviderPause()
        let next = ScriptedStep(clock: clock, script: [.failure(CooldownStepTests.tooManyRequests(30)), .success(9)])
        let step = CooldownStep(next: next, provider: FakeProvider.answering("p", temperature: 0), cooldowns: storage,
                                longestWaitSeconds: 3600, time: clock, diagnostics: DiagnosticLog(), waitsForRateLimits: true, pause: pause)
        let waiting = Task { await answer(step) }
        await eventually("the call waits out the pause") { clock.sleeperCount == 1 }
        #expect(pause.pausedUntil(now: clock.now()) == start.addingTimeInterval(30))
        clock.advance(by: 30)
        let report = try await waiting.value.get()
        #expect(report.current?.temperatureC == 9)
        #expect(next.callCount == 2)
        #expect(next.times.last == start.addingTimeInterval(30))
    }

    @Test func withoutBatchWaitingA429IsPassedOn() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(CooldownStepTests.tooManyRequests(30)), .success(9)])
        let step = CooldownStep(next: next, provider: FakeProvider.answering("p", temperature: 0), cooldowns: storage,
                                longestWaitSeconds: 3600, time: clock, diagnostics: DiagnosticLog(), pause: ProviderPause())
        #expect(await answer(step).error?.code == .rateLimited(retryAfterSeconds: 30))
        #expect(next.callCount == 1)
    }

    @Test func aBatchPauseBeyondTheDeadlineIsStillAFailure() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(CooldownStepTests.tooManyRequests(30)), .success(9)])
        let step = CooldownStep(next: next, provider: FakeProvider.answering("p", temperature: 0), cooldowns: storage,
                                longestWaitSeconds: 3600, time: clock, diagnostics: DiagnosticLog(), waitsForRateLimits: true)
        #expect(await answer(step, within: 10).error?.code == .rateLimited(retryAfterSeconds: 30))
        #expect(next.callCount == 1)
    }

    @Test func aQueuedCallWaitsOutAPauseSetWhileItQueued() async throws {
        let start = clock.now()
        let pause = ProviderPause()
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let step = ConcurrencyStep(next: next, slots: AsyncSemaphore(1), providerName: "P", pause: pause, time: clock)
        pause.pause(until: start.addingTimeInterval(5))
        let waiting = Task { await answer(step) }
        await eventually("the call waits out the pause") { clock.sleeperCount == 1 }
        #expect(next.callCount == 0)
        clock.advance(by: 5)
        #expect(try await waiting.value.get().current?.temperatureC == 9)
        #expect(next.times == [start.addingTimeInterval(5)])
    }

    @Test func aPauseBeyondTheDeadlineFailsTheQueuedCallWithoutAsking() async throws {
        let pause = ProviderPause()
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let step = ConcurrencyStep(next: next, slots: AsyncSemaphore(1), providerName: "P", pause: pause, time: clock)
        pause.pause(until: clock.now().addingTimeInterval(60))
        let error = try #require(await answer(step, within: 10).error)
        #expect(ProviderOutcome(error) == .rateLimited)
        #expect(error.reason == .cooldownWait)
        #expect(next.callCount == 0)
    }

    @Test func aLaterPauseWins() {
        let pause = ProviderPause()
        let now = clock.now()
        pause.pause(until: now.addingTimeInterval(10))
        pause.pause(until: now.addingTimeInterval(5))
        #expect(pause.pausedUntil(now: now) == now.addingTimeInterval(10))
        #expect(pause.pausedUntil(now: now.addingTimeInterval(10)) == nil)
    }

    @Test func aProviderDeclaringOneCallAtATimeGetsOneSlot() {
        let one = FakeProvider.answering("one", temperature: 0)
        var options = EngineOptions()
        options.maxConcurrentCallsPerProvider = 8
        let engine = Engine(consensus: Consensus(), bindings: [ProviderBinding(provider: one, transport: StubTransport(status: 200, body: "{}"))], options: options)
        #expect(engine.callSlots(engine.bindings[0]) == 8)
        var policy = ProviderPolicy(declaredBy: one)
        policy.maxConcurrentCalls = 1
        let limited = Engine(consensus: Consensus(), bindings: [ProviderBinding(provider: one, transport: StubTransport(status: 200, body: "{}"), policy: policy)], options: options)
        #expect(limited.callSlots(limited.bindings[0]) == 1)
        policy.maxConcurrentCalls = 50
        let generous = Engine(consensus: Consensus(), bindings: [ProviderBinding(provider: one, transport: StubTransport(status: 200, body: "{}"), policy: policy)], options: options)
        #expect(generous.callSlots(generous.bindings[0]) == 8)
    }
}
