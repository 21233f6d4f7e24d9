import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Synchronization
import Testing

/// When a success is written to the breaker: not when the call found it clear and nothing failed since.
@Suite("Breaker success writes")
struct BreakerSuccessWriteTests {
    let clock = ManualClock()
    let storage = InstrumentedStorage()
    let diagnostics = DiagnosticLog()

    func step(_ next: any PipelineStep) -> BreakerStep {
        BreakerStep(next: next, provider: FakeProvider.answering("p", temperature: 0), breakers: storage, threshold: 3,
                    openSeconds: 60, time: clock, diagnostics: diagnostics)
    }

    func call(breaker: BreakerState?) -> ProviderCall {
        var call = providerCall(clock: clock)
        call.breakerReadWithCooldown = breaker
        return call
    }

    @Test func aSuccessOfACallThatFoundTheBreakerClearIsNotWritten() async throws {
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let report = try await step(next).answer(call(breaker: BreakerState()))
        #expect(report.current?.temperatureC == 9)
        #expect(!storage.log.contains(.recordOutcome))
        #expect(!storage.log.contains(.readBreaker))
    }

    @Test func aSuccessOfACallThatFoundFailuresClearsThem() async throws {
        _ = try await storage.base.recordOutcome(provider: "p", succeeded: false, threshold: 3, now: clock.now())
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        _ = try await step(next).answer(call(breaker: BreakerState(failures: 1)))
        #expect(storage.log == [.recordOutcome])
        #expect(try await storage.base.breaker(provider: "p") == BreakerState())
    }

    @Test func aSuccessIsWrittenWhenTheBreakerWasNotReadWithTheCall() async throws {
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        _ = try await step(next).answer(call(breaker: nil))
        #expect(storage.log == [.readBreaker, .recordOutcome])
    }

    @Test func aSuccessIsWrittenWhenAFailureWasRecordedDuringTheCall() async throws {
        let outer = StepBox()
        let clock = clock
        let next = ScriptedStep(clock: clock) { call, number throws(ProviderError) in
            guard number == 1 else { throw ProviderError(.unavailable, "P answered HTTP 503") }
            // Another call through the same step fails while this one is in flight.
            guard let inner = outer.step.withLock({ $0 }) else { throw ProviderError(.badResponse(path: "$"), "no step to call") }
            let failed = await Result.of { () async throws(ProviderError) in try await inner.answer(call) }
            #expect(failed.error?.message == "P answered HTTP 503")
            return sampleReport(7, at: clock.now())
        }
        let guarded = step(next)
        outer.step.withLock { $0 = guarded }
        let report = try await guarded.answer(call(breaker: BreakerState()))
        #expect(report.current?.temperatureC == 7)
        #expect(storage.log.filter { $0 == .recordOutcome }.count == 2)
        #expect(try await storage.base.breaker(provider: "p") == BreakerState())
    }

    @Test func aFailureBetweenACallsReadAndItsAnswerIsClearedByItsSuccess() async throws {
        // The call read the breaker clear; then another call through the same step failed before this one even entered it.
        let guarded = step(ScriptedStep(clock: clock, script: [.failure(ProviderError(.unavailable, "P answered HTTP 503")), .success(9)]))
        let readClear = call(breaker: BreakerState())
        await #expect(throws: ProviderError.self) { try await guarded.answer(readClear) }
        #expect(try await storage.base.breaker(provider: "p").failures == 1)
        _ = try await guarded.answer(readClear)
        #expect(try await storage.base.breaker(provider: "p") == BreakerState())
    }
}

/// The step under test, for the step below it to call again.
private final class StepBox: Sendable {
    /// The step, once made.
    let step = Mutex<BreakerStep?>(nil)
}
