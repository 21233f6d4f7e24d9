import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Testing

@Suite("BreakerStep")
struct BreakerStepTests {
    let clock = ManualClock()
    let storage = InstrumentedStorage()
    let diagnostics = DiagnosticLog()
    static let outage = ProviderError(.unavailable, "P answered HTTP 503")

    func step(_ next: any PipelineStep, breakers: (any BreakerStore)? = nil) -> BreakerStep {
        BreakerStep(next: next, provider: FakeProvider.answering("p", temperature: 0), breakers: breakers ?? storage, threshold: 3,
                    openSeconds: 60, time: clock, diagnostics: diagnostics)
    }

    func answer(_ step: BreakerStep) async -> Result<WeatherReport, ProviderError> {
        await Result.of { () async throws(ProviderError) in try await step.answer(providerCall(clock: clock)) }
    }

    func breaker() async throws -> BreakerState { try await storage.base.breaker(provider: "p") }

    @Test func aSuccessPassesThroughAndLeavesTheBreakerClosed() async throws {
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        #expect(try await answer(step(next)).get().current?.temperatureC == 9)
        #expect(try await breaker() == BreakerState())
        #expect(storage.log == [.readBreaker, .recordOutcome])
    }

    @Test func opensAtTheThresholdOfFailedCalls() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(Self.outage)])
        for call in 1...3 {
            let error = try #require(await answer(step(next)).error)
            #expect(error.message == "P answered HTTP 503")
            #expect(try await breaker().failures == call)
            #expect(try await breaker().openedAt == (call == 3 ? clock.now() : nil))
            clock.advance(by: 1)
        }
        #expect(next.callCount == 3)
    }

    @Test func theSkipNamesTheLastFailureWithoutTheProvidersNameTwice() async throws {
        let timeout = ProviderError(.timeout, "P: no answer within 10 s", reason: .totalTimeout)
        let dns = ProviderError(.unavailable, "P: cannot resolve api.example.test (DNS failure or no network)", reason: .dnsFailure)
        let next = ScriptedStep(clock: clock, script: [.failure(timeout), .failure(timeout), .failure(dns)])
        for _ in 1...3 { _ = await answer(step(next)) }
        #expect(try await breaker().lastFailure == "cannot resolve api.example.test (DNS failure or no network)")
        let skipped = try #require(await answer(step(next)).error)
        #expect(skipped.reason == .breakerOpen)
        #expect(skipped.message.hasSuffix("after 3 failed attempts; the last: cannot resolve api.example.test (DNS failure or no network)"))
    }

    @Test func aFailureThatSaysNothingKeepsTheCauseBefore() async throws {
        _ = try await storage.base.recordOutcome(provider: "p", succeeded: false, threshold: 3, now: clock.now(), failure: "refused")
        _ = try await storage.base.recordOutcome(provider: "p", succeeded: false, threshold: 3, now: clock.now())
        #expect(try await breaker() == BreakerState(failures: 2, lastFailure: "refused"))
        // A long or many-line message is kept as one bounded line.
        let long = String(repeating: "x", count: 500) + "\nsecond line"
        let state = try await storage.base.recordOutcome(provider: "p", succeeded: false, threshold: 9, now: clock.now(), failure: long)
        #expect(state.lastFailure?.count == BreakerState.failureTextLimit)
        #expect(state.lastFailure?.contains("\n") == false)
        // A success forgets it with the count.
        _ = try await storage.base.recordOutcome(provider: "p", succeeded: true, threshold: 3, now: clock.now())
        #expect(try await breaker() == BreakerState())
    }

    @Test func skipsWithBreakerOpenWhileOpen() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(Self.outage)])
        for _ in 1...3 { _ = await answer(step(next)) }
        for (wait, left) in [(0.0, "60 s"), (30, "30 s"), (29.5, "1 s")] {
            clock.advance(by: wait)
            let error = try #require(await answer(step(next)).error)
            #expect(error.code == .unavailable)
            #expect(error.reason == .breakerOpen)
            // Said in plain words: how long it is left alone, after how many failed attempts, and what the last one said.
            #expect(error.message == "P: not asked for the next \(left) (until 2026-11-28 09:01 UTC), after 3 failed attempts; "
                + "the last: P answered HTTP 503")
            #expect(ProviderOutcome(error) == .skipped)
        }
        #expect(next.callCount == 3)
        // Skips are not failures of the provider.
        #expect(try await breaker().failures == 3)
    }

    @Test func afterOpenSecondsACallGoesThroughAndASuccessCloses() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(Self.outage), .failure(Self.outage), .failure(Self.outage), .success(9)])
        for _ in 1...3 { _ = await answer(step(next)) }
        clock.advance(by: 60)
        #expect(try await answer(step(next)).get().current?.temperatureC == 9)
        #expect(next.callCount == 4)
        #expect(try await breaker() == BreakerState())
        #expect(try await answer(step(next)).get().current?.temperatureC == 9)
    }

    @Test func aFailedTrialCallOpensItAgain() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(Self.outage)])
        for _ in 1...3 { _ = await answer(step(next)) }
        clock.advance(by: 60)
        let trial = try #require(await answer(step(next)).error)
        #expect(trial.reason == nil)
        #expect(next.callCount == 4)
        #expect(try await breaker().openedAt == clock.now())
        clock.advance(by: 59)
        #expect(await answer(step(next)).error?.reason == .breakerOpen)
        #expect(next.callCount == 4)
    }

    @Test func aSuccessResetsTheCount() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(Self.outage), .failure(Self.outage), .success(9), .failure(Self.outage)])
        for _ in 1...5 { _ = await answer(step(next)) }
        // Two failures, a success, then two more: never three in a row.
        #expect(try await breaker() == BreakerState(failures: 2, lastFailure: "P answered HTTP 503"))
        #expect(next.callCount == 5)
    }

    @Test(arguments: [
        ProviderError(.unavailable, "P answered HTTP 503"), ProviderError(.timeout, "P timed out"),
        ProviderError(.badResponse(path: "$.main.temp"), "P sent a response Isobar cannot read"),
    ])
    func failuresOfTheProviderCount(_ failure: ProviderError) async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(failure)])
        _ = await answer(step(next))
        #expect(try await breaker().failures == 1)
        #expect(BreakerStep.countsAgainst(failure))
    }

    @Test(arguments: [
        ProviderError(.unavailable, "P skipped", reason: .cooldown), ProviderError(.unavailable, "offline", reason: .offline),
        ProviderError(.unavailable, "P skipped", reason: .breakerOpen), ProviderError(.cancelled, "P: cancelled", reason: .cancelled),
        ProviderError(.timeout, "P: cancelled", reason: .cancelled),
        ProviderError(.rateLimited(retryAfterSeconds: 30), "P is rate limiting requests (HTTP 429)"),
        ProviderError(.rateLimited(retryAfterSeconds: 30), "P: rate limit reached", reason: .localLimit),
        ProviderError(.badRequest, "bad parameters"), ProviderError(.notFound, "no such place"), ProviderError(.unauthorized, "key refused"),
    ])
    func skipsCancellationsAndTheCallersFailuresDoNotCount(_ failure: ProviderError) async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(failure)])
        for _ in 1...4 {
            let error = try #require(await answer(step(next)).error)
            #expect(error.message == failure.message)
        }
        #expect(next.callCount == 4)
        #expect(try await breaker().failures == 0)
        #expect(!BreakerStep.countsAgainst(failure))
    }

    @Test func breakersThatCannotBeReadOrWrittenDoNotStopTheCallAndAreReported() async throws {
        let failing = InstrumentedStorage.failingEverywhere()
        let next = ScriptedStep(clock: clock, script: [.success(9), .failure(Self.outage)])
        #expect(try await answer(step(next, breakers: failing)).get().current?.temperatureC == 9)
        #expect(await answer(step(next, breakers: failing)).error?.message == "P answered HTTP 503")
        let reason = InstrumentedStorage.failureMessage
        #expect(diagnostics.messages(.health) == [
            "cannot read the breaker of p: \(reason)", "cannot record the breaker of p: \(reason)",
            "cannot read the breaker of p: \(reason)", "cannot record the breaker of p: \(reason)",
        ])
    }
}
