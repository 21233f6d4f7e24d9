import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Testing

@Suite("CooldownStep")
struct CooldownStepTests {
    let clock = ManualClock()
    let storage = InstrumentedStorage()
    let diagnostics = DiagnosticLog()

    func step(_ next: any PipelineStep, cooldowns: (any CooldownStore)? = nil) -> CooldownStep {
        CooldownStep(next: next, provider: FakeProvider.answering("p", temperature: 0), cooldowns: cooldowns ?? storage,
                     longestWaitSeconds: 3600, time: clock, diagnostics: diagnostics)
    }

    func answer(_ step: CooldownStep, within seconds: Double = 60) async -> Result<WeatherReport, ProviderError> {
        await Result.of { () async throws(ProviderError) in try await step.answer(providerCall(clock: clock, within: seconds)) }
    }

    static func tooManyRequests(_ retryAfter: Double?) -> ProviderError {
        ProviderError(.rateLimited(retryAfterSeconds: retryAfter), "P is rate limiting requests (HTTP 429)")
    }

    @Test func withoutACooldownTheCallGoesThroughAndNothingIsWritten() async throws {
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let report = try await answer(step(next)).get()
        #expect(report.current?.temperatureC == 9)
        #expect(next.callCount == 1)
        #expect(storage.log == [.readCooldown])
        #expect(diagnostics.diagnostics.isEmpty)
    }

    @Test func a429SetsTheCooldownItAsksForAndIsPassedOn() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(Self.tooManyRequests(30))])
        let error = try #require(await answer(step(next)).error)
        #expect(error.code == .rateLimited(retryAfterSeconds: 30))
        #expect(error.message == "P is rate limiting requests (HTTP 429)")
        #expect(ProviderOutcome(error) == .rateLimited)
        let cooldown = try await storage.base.cooldown(provider: "p", now: clock.now())
        #expect(cooldown == Cooldown(until: clock.now().addingTimeInterval(30), reason: "HTTP 429"))
    }

    @Test func a503WithRetryAfterSetsTheCooldownItAsksForSoTheNextCallAsksNothing() async throws {
        let unavailable = ProviderError(.unavailable, "P is unavailable (HTTP 503); retry in 30 s", retryAfterSeconds: 30)
        let next = ScriptedStep(clock: clock, script: [.failure(unavailable), .success(9)])
        let error = try #require(await answer(step(next), within: 10).error)
        #expect(error.code == .unavailable)
        #expect(error.message == "P is unavailable (HTTP 503); retry in 30 s")
        let cooldown = try await storage.base.cooldown(provider: "p", now: clock.now())
        #expect(cooldown == Cooldown(until: clock.now().addingTimeInterval(30), reason: "Retry-After on a failed answer"))
        // Another command within the pause: its 10 s deadline ends before the pause does, so it fails at once, asking nothing.
        let second = try #require(await answer(step(next), within: 10).error)
        #expect(second.reason == .cooldownWait)
        #expect(next.callCount == 1)
    }

    @Test func a503WithoutRetryAfterSetsNoCooldown() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(ProviderError(.unavailable, "P is unavailable (HTTP 503)"))])
        _ = await answer(step(next))
        #expect(try await storage.base.cooldown(provider: "p", now: clock.now()) == nil)
    }

    @Test func a429WithoutRetryAfterCoolsDownForTheDefault() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(Self.tooManyRequests(nil))])
        _ = await answer(step(next))
        let cooldown = try await storage.base.cooldown(provider: "p", now: clock.now())
        #expect(cooldown?.until == clock.now().addingTimeInterval(CooldownStep.defaultRetryAfterSeconds))
        #expect(CooldownStep.defaultRetryAfterSeconds == 60)
    }

    @Test func theNextCallWaitsOutAShortCooldown() async throws {
        let start = clock.now()
        let next = ScriptedStep(clock: clock, script: [.failure(Self.tooManyRequests(30)), .success(9)])
        _ = await answer(step(next))
        let waiting = Task { await answer(step(next)) }
        await eventually("the call waits") { clock.sleeperCount == 1 }
        clock.advance(by: 29)
        await letOthersRun()
        #expect(next.callCount == 1)
        clock.advance(by: 1)
        let report = try await waiting.value.get()
        #expect(report.current?.temperatureC == 9)
        #expect(next.times.last == start.addingTimeInterval(30))
    }

    @Test func aLongRetryAfterIsCappedAndSkipsThisCallAndTheNext() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(Self.tooManyRequests(86_400)), .success(9)])
        let step = CooldownStep(next: next, provider: FakeProvider.answering("p", temperature: 0), cooldowns: storage,
                                longestWaitSeconds: 600, time: clock, diagnostics: diagnostics)
        let first = try #require(await answer(step).error)
        #expect(first.code == .unavailable)
        #expect(first.reason == .cooldown)
        #expect(first.message == "P asked to wait 1 d (Retry-After); skipped until 2026-11-28 10:00 UTC")
        #expect(ProviderOutcome(first) == .skipped)
        clock.advance(by: 1800)
        let second = try #require(await answer(step).error)
        #expect(second.reason == .cooldown)
        #expect(second.message == "P asked to wait until 2026-11-28 10:00 UTC (HTTP 429); skipped")
        #expect(next.callCount == 1)
        // The default cap is an hour: after it the provider is asked again.
        clock.advance(by: 1800)
        #expect(try await answer(step).get().current?.temperatureC == 9)
        #expect(next.callCount == 2)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aCooldownEndingAfterTheDeadlineFailsAtOnceWithCooldownWait() async throws {
        try await storage.base.setCooldown(Cooldown(until: clock.now().addingTimeInterval(30), reason: "HTTP 429"), provider: "p")
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let error = try #require(await answer(step(next), within: 10).error)
        #expect(error.code == .rateLimited(retryAfterSeconds: 30))
        #expect(error.reason == .cooldownWait)
        #expect(error.message == "P asked for a pause until 2026-11-28 09:00 UTC (HTTP 429), past this command's deadline")
        #expect(ProviderOutcome(error) == .rateLimited)
        #expect(next.callCount == 0)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aCooldownSetElsewhereIsWaitedOut() async throws {
        try await storage.base.setCooldown(Cooldown(until: clock.now().addingTimeInterval(5), reason: "HTTP 429"), provider: "p")
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let waiting = Task { await answer(step(next), within: 10) }
        await eventually("the call waits") { clock.sleeperCount == 1 }
        #expect(next.callCount == 0)
        clock.advance(by: 5)
        #expect(try await waiting.value.get().current?.temperatureC == 9)
    }

    @Test(arguments: [
        ProviderError(.rateLimited(retryAfterSeconds: 30), "P: rate limit reached", reason: .localLimit),
        ProviderError(.unavailable, "P answered HTTP 503"), ProviderError(.badRequest, "P refused the parameters"),
    ])
    func otherFailuresSetNoCooldown(_ failure: ProviderError) async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(failure)])
        let error = try #require(await answer(step(next)).error)
        #expect(error.message == failure.message)
        #expect(try await storage.base.cooldown(provider: "p", now: clock.now()) == nil)
        #expect(!storage.log.contains(.setCooldown))
    }

    @Test func cancellingAWaitEndsTheCall() async throws {
        try await storage.base.setCooldown(Cooldown(until: clock.now().addingTimeInterval(5), reason: "HTTP 429"), provider: "p")
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let waiting = Task { await answer(step(next), within: 10) }
        await eventually("the call waits") { clock.sleeperCount == 1 }
        waiting.cancel()
        let error = try #require(await waiting.value.error)
        #expect(error.code == .cancelled)
        #expect(error.reason == .cancelled)
        #expect(next.callCount == 0)
    }

    @Test func cooldownsThatCannotBeReadOrWrittenDoNotStopTheCallAndAreReported() async throws {
        let failing = InstrumentedStorage.failingEverywhere()
        let next = ScriptedStep(clock: clock, script: [.success(9), .failure(Self.tooManyRequests(30))])
        #expect(try await answer(step(next, cooldowns: failing)).get().current?.temperatureC == 9)
        let error = try #require(await answer(step(next, cooldowns: failing)).error)
        #expect(error.code == .rateLimited(retryAfterSeconds: 30))
        let reason = InstrumentedStorage.failureMessage
        #expect(diagnostics.messages(.health) == [
            "cannot read the cooldown of p: \(reason)", "cannot read the cooldown of p: \(reason)", "cannot record the cooldown of p: \(reason)",
        ])
    }
}
