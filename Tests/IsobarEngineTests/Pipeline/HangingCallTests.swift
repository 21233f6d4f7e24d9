import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Synchronization
import Testing

/// A provider that hangs until its deadline (a plug-in that never answers) is treated as one that times out: counted once
/// by its breaker, whichever deadline stopped it, and not started again within the call.
@Suite("A call that hangs")
struct HangingCallTests {
    let clock = ManualClock()
    let storage = MemoryStorage()
    static let hung = ProviderError(.timeout, "hang: the program did not answer before the deadline (30 s) and was stopped", reason: .deadline)

    func breakerStep(_ next: any PipelineStep) -> BreakerStep {
        BreakerStep(next: next, provider: FakeProvider.answering("p", temperature: 0), breakers: storage, threshold: 3, openSeconds: 60,
                    time: clock, diagnostics: DiagnosticLog())
    }

    @Test func aCallThatRanIntoItsDeadlineIsNotStartedAgain() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(Self.hung), .success(5)])
        let retried = RetryStep(next: next, maxRetries: 2, baseDelaySeconds: 0.25, time: clock, random: { $0.lowerBound }, providerName: "P")
        let result = await Result.of { () async throws(ProviderError) in try await retried.answer(providerCall(clock: clock, within: 600)) }
        #expect(result.error?.message == Self.hung.message)
        #expect(next.callCount == 1)
    }

    @Test func aTimeoutOfTheTransportIsStillRetried() async throws {
        let timedOut = ProviderError(.timeout, "P: no complete answer within 10 s", reason: .totalTimeout)
        let next = ScriptedStep(clock: clock, script: [.failure(timedOut), .success(5)])
        let retried = RetryStep(next: next, maxRetries: 2, baseDelaySeconds: 0, time: clock, random: { $0.lowerBound }, providerName: "P")
        let report = try await Result.of { () async throws(ProviderError) in try await retried.answer(providerCall(clock: clock, within: 600)) }.get()
        #expect(report.current?.temperatureC == 5)
        #expect(next.callCount == 2)
    }

    /// The breaker over the provider's fetch, as composed.
    func breakerOverFetch(_ provider: FakeProvider) -> BreakerStep {
        breakerStep(FetchStep(provider: provider, transport: UnusedTransport(), time: clock))
    }

    @Test func aFetchStoppedByItsDeadlineCountsAgainstTheBreaker() async throws {
        let asked = Counter()
        // The command's deadline passes while the fetch hangs, and the engine cancels it.
        let hanging = FakeProvider("p") { [clock] _, _ throws(ProviderError) in
            asked.add()
            clock.advance(by: 11)
            throw ProviderError(.cancelled, "P: cancelled", reason: .cancelled)
        }
        let step = breakerOverFetch(hanging)
        for _ in 1...3 {
            let result = await Result.of { () async throws(ProviderError) in try await step.answer(providerCall(clock: clock, within: 10)) }
            #expect(result.error?.code == .timeout)
            #expect(result.error?.reason == .deadline)
        }
        #expect(try await storage.breaker(provider: "p").failures == 3)
        #expect(try await storage.breaker(provider: "p").openedAt != nil)
        let skipped = await Result.of { () async throws(ProviderError) in try await step.answer(providerCall(clock: clock, within: 10)) }
        #expect(skipped.error?.reason == .breakerOpen)
        #expect(asked.value == 3)
    }

    @Test func aCallCancelledBeforeItsDeadlineDoesNotCount() async throws {
        let cancelled = FakeProvider("p") { _, _ throws(ProviderError) in throw ProviderError(.cancelled, "P: cancelled", reason: .cancelled) }
        let result = await Result.of { () async throws(ProviderError) in
            try await breakerOverFetch(cancelled).answer(providerCall(clock: clock, within: 10))
        }
        #expect(result.error?.reason == .cancelled)
        #expect(try await storage.breaker(provider: "p").failures == 0)
    }

    /// A call stopped by its deadline before the provider was asked (waiting for the store, a slot or a permit) says nothing
    /// about the provider.
    @Test func aCallCutOffBeforeTheFetchDoesNotCount() async throws {
        let next = ScriptedStep(clock: clock) { [clock] _, _ throws(ProviderError) in
            clock.advance(by: 11)
            throw ProviderError(.cancelled, "P: cancelled", reason: .cancelled)
        }
        _ = await Result.of { () async throws(ProviderError) in try await breakerStep(next).answer(providerCall(clock: clock, within: 10)) }
        #expect(try await storage.breaker(provider: "p").failures == 0)
    }
}

/// Counts calls.
private final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
