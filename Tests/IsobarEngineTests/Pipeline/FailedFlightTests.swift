import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Synchronization
import Testing

/// Callers waiting on one fetch take its failure (a 5xx without Retry-After) instead of each asking again.
@Suite("Failed single flight")
struct FailedFlightTests {
    /// Twenty requests for one place at once; the one holding the lease is answered 503 once every other one waits.
    @Test func twentyWaitersTakeTheHoldersFailureAndAskOnce() async throws {
        let clock = ManualClock(start: Fixture.midnightUTC)
        let storage = InstrumentedStorage()
        let gate = TestGate()
        let calls = Atomic<Int>(0)
        let provider = FakeProvider("p", kinds: [.current]) { _, _ throws(ProviderError) in
            if calls.add(1, ordering: .relaxed).newValue == 1 { await gate.wait() }
            throw ProviderError(.unavailable, "P answered HTTP 503")
        }
        var options = EngineOptions()
        options.maxRetries = 0
        options.maxConcurrentRequests = 20
        options.timeoutSeconds = EngineOptions.noDeadlineSeconds
        let engine = Engine(consensus: Consensus(), bindings: [ProviderBinding(provider: provider, transport: UnusedTransport(), policy: ProviderPolicy(declaredBy: provider))],
                            storage: EngineStorage(storage), options: options, time: clock)
        let done = Atomic<Bool>(false)
        let run = Task {
            var events: [EngineEvent<ConsensusResult>] = []
            for await event in engine.run(Array(repeating: WeatherRequest(place: Fixture.place, kinds: [.current]), count: 20)) {
                events.append(event)
            }
            done.store(true, ordering: .releasing)
            return events
        }
        // The holder asks; the 19 others find its lease and wait for their turn (the holder's renewal sleeps too).
        #expect(await eventually { calls.load(ordering: .relaxed) == 1 && storage.count(.acquireLease) >= 20 && clock.sleeperCount >= 20 })
        gate.open()
        while !done.load(ordering: .acquiring) {
            clock.advance(by: 0.05)
            _ = await eventually(turns: 2_000) { done.load(ordering: .acquiring) }
        }
        let failures = await run.value.compactMap(\.error)

        #expect(calls.load(ordering: .relaxed) == 1, "the provider was asked \(calls.load(ordering: .relaxed)) times")
        #expect(failures.count == 20)
        #expect(failures.filter { $0.message == "P answered HTTP 503" }.count == 1)
        let shared = failures.filter { $0.message == "P failed just now for another caller asking the same; not asked again" }
        #expect(shared.count == 19)
        #expect(shared.allSatisfy { $0.code == .unavailable })
        // Only the call that asked counts against the breaker.
        #expect(try await storage.base.breaker(provider: "p").failures == 1)
    }

    /// A caller that did not wait (the lease was free) asks, even right after another call failed.
    @Test func aCallerThatDidNotWaitStillAsks() async throws {
        let clock = ManualClock(start: Fixture.midnightUTC)
        let storage = MemoryStorage()
        let calls = Atomic<Int>(0)
        let provider = FakeProvider("p", kinds: [.current]) { _, _ throws(ProviderError) in
            calls.add(1, ordering: .relaxed)
            throw ProviderError(.unavailable, "P answered HTTP 503")
        }
        var options = EngineOptions()
        options.maxRetries = 0
        options.timeoutSeconds = EngineOptions.noDeadlineSeconds
        let engine = Engine(consensus: Consensus(), bindings: [ProviderBinding(provider: provider, transport: UnusedTransport(), policy: ProviderPolicy(declaredBy: provider))],
                            storage: EngineStorage(storage), options: options, time: clock)
        for _ in 0..<2 {
            let events = await engine.collect(WeatherRequest(place: Fixture.place, kinds: [.current]))
            #expect(events.compactMap(\.error).map(\.message) == ["P answered HTTP 503"])
        }
        #expect(calls.load(ordering: .relaxed) == 2)
    }
}
