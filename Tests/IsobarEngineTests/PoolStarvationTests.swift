import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Synchronization
import Testing

/// Makes every storage call take `seconds` of a manual clock: calls wait together, and the test moves the clock on (ending
/// every call waiting) once all the work in flight is waiting on storage.
final class StorageLatency: Sendable {
    let clock: ManualClock
    let seconds: Double
    private let state = Mutex<(waiting: [CheckedContinuation<Void, Never>], maxWaiting: Int)>(([], 0))

    init(clock: ManualClock, seconds: Double) {
        self.clock = clock
        self.seconds = seconds
    }

    /// Waits until the clock is next moved on.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            state.withLock { state in
                state.waiting.append(continuation)
                state.maxWaiting = max(state.maxWaiting, state.waiting.count)
            }
        }
    }

    /// Calls waiting now.
    var waiting: Int { state.withLock { $0.waiting.count } }
    /// The most calls ever waiting at once.
    var maxWaiting: Int { state.withLock { $0.maxWaiting } }

    /// Moves the clock on by `seconds` and ends every call waiting.
    func step() {
        let waiting = state.withLock { state in
            defer { state.waiting = [] }
            return state.waiting
        }
        clock.advance(by: seconds)
        for continuation in waiting { continuation.resume() }
    }
}

/// A task on the cooperative pool that counts ticks, one each time it gets a thread back after yielding it.
final class PoolProbe: Sendable {
    private let count = Mutex(0)
    private let task = Mutex<Task<Void, Never>?>(nil)

    func start() {
        let task = Task.detached { [self] in
            while !Task.isCancelled {
                self.count.withLock { $0 += 1 }
                await Task.yield()
            }
        }
        self.task.withLock { $0 = task }
    }

    func stop() { task.withLock { $0?.cancel() } }

    var ticks: Int { count.withLock { $0 } }
}

@Suite("Engine over slow storage")
struct PoolStarvationTests {
    /// Every storage call takes 200 ms. Twenty places are asked at once: their calls wait on storage together, so the run
    /// takes as long as one place's chain of storage calls, inside one deadline; and a probe on the cooperative pool ticks
    /// through every 200 ms.
    @Test func twentyPlacesOverSlowStorageFinishWithinOneDeadlineWhileThePoolKeepsTicking() async throws {
        let clock = ManualClock()
        let latency = StorageLatency(clock: clock, seconds: 0.2)
        let storage = InstrumentedStorage(pause: { _ in await latency.wait() })
        let diagnostics = DiagnosticLog()
        var options = EngineOptions()
        options.timeoutSeconds = 2.5
        options.maxConcurrentRequests = 20
        options.maxConcurrentCallsPerProvider = 20
        // Longer than the run, so that no lease is renewed and every storage call belongs to a place's own chain.
        options.leaseSeconds = 60
        let engine = Engine(consensus: Consensus(), bindings: [ProviderBinding(provider: FakeProvider.answering("a", temperature: 5), transport: UnusedTransport(),
                                                       policy: policy(currentTTL: 600))],
                            storage: EngineStorage(storage), options: options, time: clock, diagnostics: diagnostics)
        let probe = PoolProbe()
        probe.start()
        defer { probe.stop() }

        let start = clock.now()
        let done = Flag()
        let run = Task {
            var events: [EngineEvent<ConsensusResult>] = []
            for await event in engine.run(ManyPlaces.requests()) { events.append(event) }
            done.set()
            return (events: events, finishedAt: clock.now())
        }
        var steps = 0
        var inStep = true
        while !done.isSet, steps < 100 {
            // A place's call is done with storage once it has released its lease; every other one waits on storage.
            if inStep {
                inStep = await eventually("every place in flight waits on storage") {
                    done.isSet || (latency.waiting > 0 && latency.waiting == 20 - storage.completed(.releaseLease))
                }
            } else {
                await letOthersRun()
            }
            guard !done.isSet else { break }
            let ticks = probe.ticks
            await eventually("the probe ticks within 200 ms") { probe.ticks > ticks }
            latency.step()
            steps += 1
        }
        if !done.isSet { run.cancel() }
        let (events, finishedAt) = await run.value
        let elapsed = finishedAt.timeIntervalSince(start)

        #expect(elapsed < options.timeoutSeconds, "the run took \(elapsed) s")
        #expect(latency.maxWaiting == 20, "the places' storage calls did not overlap")
        #expect(events.count == 20 * 2)
        #expect(events.compactMap(\.outcome) == Array(repeating: .ok, count: 20))
        #expect(events.filter { $0.consensus != nil }.count == 20)
        #expect(storage.count(.storeEntry) == 20)
        #expect(diagnostics.diagnostics.isEmpty)
    }
}
