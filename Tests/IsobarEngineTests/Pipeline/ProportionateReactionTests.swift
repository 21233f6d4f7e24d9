import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Synchronization
import Testing

/// One bad signal never takes a provider out for long: capped cooldowns, one half-open probe, a total budget, a reset by hand.
@Suite("Proportionate reactions")
struct ProportionateReactionTests {
    let clock = ManualClock()
    let storage = InstrumentedStorage()
    let diagnostics = DiagnosticLog()
    static let outage = ProviderError(.unavailable, "P answered HTTP 503")

    func answer(_ step: any PipelineStep, within seconds: Double = 10) async -> Result<WeatherReport, ProviderError> {
        await Result.of { () async throws(ProviderError) in try await step.answer(providerCall(clock: clock, within: seconds)) }
    }

    @Test func aRetryAfterOfADayPausesTheProviderForAnHourAtMost() async throws {
        let asked = ProviderError(.rateLimited(retryAfterSeconds: 86_400), "P is rate limiting requests (HTTP 429)")
        let next = ScriptedStep(clock: clock, script: [.failure(asked), .success(9)])
        let step = CooldownStep(next: next, provider: FakeProvider.answering("p", temperature: 0), cooldowns: storage,
                                longestWaitSeconds: 3600, maxCooldownSeconds: 3600, time: clock, diagnostics: diagnostics)
        let start = clock.now()
        let error = try #require(await answer(step).error)
        #expect(error.code == .rateLimited(retryAfterSeconds: 3600))
        #expect(error.message.hasPrefix("P asked to wait 1 d (Retry-After); paused for 1 h, until "))
        // Every process reads the stored cooldown, and it is capped.
        let stored = try #require(try await storage.base.cooldown(provider: "p", now: start))
        #expect(stored.until == start.addingTimeInterval(3600))
        clock.advance(by: 3600)
        #expect(try await storage.base.cooldown(provider: "p", now: clock.now()) == nil)
        #expect(try await answer(step).get().current?.temperatureC == 9)
    }

    @Test func aLongCappedCooldownStillSkipsWithTheProvidersOwnFigure() async throws {
        let asked = ProviderError(.rateLimited(retryAfterSeconds: 86_400), "P is rate limiting requests (HTTP 429)")
        let next = ScriptedStep(clock: clock, script: [.failure(asked)])
        let step = CooldownStep(next: next, provider: FakeProvider.answering("p", temperature: 0), cooldowns: storage,
                                longestWaitSeconds: 60, maxCooldownSeconds: 600, time: clock, diagnostics: diagnostics)
        let error = try #require(await answer(step).error)
        #expect(error.reason == .cooldown)
        #expect(error.message.hasPrefix("P asked to wait 1 d (Retry-After); skipped until "))
        #expect(try await storage.base.cooldown(provider: "p", now: clock.now())?.until == clock.now().addingTimeInterval(600))
    }

    @Test func halfOpenAdmitsExactlyOneProbeAmongFourCallers() async throws {
        let lot = ParkingLot()
        let next = ScriptedStep(clock: clock) { _, number throws(ProviderError) in
            guard number > 3 else { throw Self.outage }
            _ = await lot.park()
            return sampleReport(9, at: clock.now())
        }
        let step = BreakerStep(next: next, provider: FakeProvider.answering("p", temperature: 0), breakers: storage, threshold: 3,
                               openSeconds: 60, time: clock, diagnostics: diagnostics, probes: storage)
        for _ in 1...3 { _ = await answer(step) }
        #expect(try await storage.base.breaker(provider: "p").openedAt != nil)
        clock.advance(by: 61)
        let skipped = Mutex(0)
        try await withThrowingTaskGroup(of: Result<WeatherReport, ProviderError>.self) { group in
            for _ in 1...4 { group.addTask { await answer(step) } }
            var results: [Result<WeatherReport, ProviderError>] = []
            for try await result in group {
                if let error = result.error {
                    #expect(error.reason == .breakerOpen)
                    #expect(error.message == "P: not asked while another run tries it again after failed attempts")
                    skipped.withLock { $0 += 1 }
                    if skipped.withLock({ $0 }) == 3 { lot.open() }
                }
                results.append(result)
            }
            #expect(results.count == 4)
        }
        #expect(skipped.withLock { $0 } == 3)
        #expect(next.callCount == 4)
        // The probe succeeded: the breaker is closed and the lease is free.
        #expect(try await storage.base.breaker(provider: "p") == BreakerState())
        #expect(try await storage.base.acquire("breaker|p", owner: LeaseOwner(token: "x"), seconds: 1, now: clock.now()))
    }

    @Test func aFailedProbeReopensTheBreakerForTheNextCallers() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(Self.outage)])
        let step = BreakerStep(next: next, provider: FakeProvider.answering("p", temperature: 0), breakers: storage, threshold: 3,
                               openSeconds: 60, time: clock, diagnostics: diagnostics, probes: storage)
        for _ in 1...3 { _ = await answer(step) }
        clock.advance(by: 61)
        #expect(try #require(await answer(step).error).message == "P answered HTTP 503")
        #expect(next.callCount == 4)
        let error = try #require(await answer(step).error)
        #expect(error.message.hasPrefix("P: not asked for the next ") && error.message.hasSuffix("after 4 failed attempts; the last: P answered HTTP 503"))
        #expect(next.callCount == 4)
    }

    @Test func resetClearsTheCooldownAndClosesTheBreaker() async throws {
        try await storage.setCooldown(Cooldown(until: clock.now().addingTimeInterval(600), reason: "HTTP 429"), provider: "p")
        for _ in 1...3 { _ = try await storage.recordOutcome(provider: "p", succeeded: false, threshold: 3, now: clock.now()) }
        try await storage.clearCooldown(provider: "p")
        try await storage.resetBreaker(provider: "p")
        #expect(try await storage.cooldown(provider: "p", now: clock.now()) == nil)
        #expect(try await storage.breaker(provider: "p") == BreakerState())
    }

    @Test func timeoutIsTheProvidersTotalBudgetRetriesIncluded() async throws {
        // The provider answers 503 after 1 s each time, or gives up at the call's deadline.
        let next = ScriptedStep(clock: clock) { call, _ throws(ProviderError) in
            let wait = min(1, call.deadline.timeIntervalSince(clock.now()))
            do { try await clock.sleep(seconds: max(0, wait)) } catch { throw ProviderError(.timeout, "cancelled") }
            throw wait < 1 ? ProviderError(.timeout, "P: no complete answer") : Self.outage
        }
        let retried = RetryStep(next: next, maxRetries: 2, baseDelaySeconds: 0.25, time: clock, random: { $0.lowerBound },
                                providerName: "P")
        let step = BudgetStep(next: retried, budgetSeconds: 1.5, time: clock)
        let start = clock.now()
        let done = Mutex(false)
        let task = Task {
            let result = await answer(step, within: 10)
            done.withLock { $0 = true }
            return result
        }
        while !done.withLock({ $0 }) {
            await letOthersRun(200)
            if clock.sleeperCount > 0 { clock.advance(by: 0.25) }
        }
        let error = try #require(await task.value.error)
        #expect(error.code == .timeout)
        #expect(clock.now().timeIntervalSince(start) <= 1.5 + 1e-6)
        #expect(next.callCount == 2)
        #expect(next.calls.allSatisfy { $0.deadline == start.addingTimeInterval(1.5) })
    }
}
