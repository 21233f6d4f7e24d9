import Glibc
import IsobarCore
@testable import IsobarHTTP
import IsobarTestKit
import Synchronization
import Testing

/// Tasks that prefer a transport's `LoopExecutor` run on its I/O thread, wake it from other threads, and still run once
/// the transport has stopped.
@Suite(.serialized, .tags(.realTime)) struct LoopExecutorTests {
    @Test func aTaskPreferringTheLoopRunsOnTheIOThreadBeforeAndAfterEachAwait() async throws {
        let transport = CurlTransport(userAgent: "isobar/test")
        let server = try LoopbackServer { _ in .init("{}", delaySeconds: 0.02) }
        let executor = try #require(transport.loopExecutor())
        let threads = try await Task(executorPreference: executor) { () async throws -> [UInt] in
            var seen = [pthread_self()]
            _ = try await transport.send(loopbackRequest(server))
            seen.append(pthread_self())
            // Resumed by a timer on another thread: the job is queued for the loop, which is woken for it.
            try await Task.sleep(for: .milliseconds(20))
            seen.append(pthread_self())
            return seen
        }.value
        let loop = try #require(transport.loopThread)
        #expect(threads == [loop, loop, loop])
        #expect(pthread_self() != loop)
    }

    @Test func aJobQueuedFromAnotherThreadWakesTheWaitingLoop() async throws {
        let transport = CurlTransport(userAgent: "isobar/test")
        let executor = try #require(transport.loopExecutor())
        // Idle, the loop waits up to a second on its sockets: without a wake-up each resumption would wait that long.
        // Each of the five resumptions comes from the timer's thread and is first in the loop's empty queue: it wakes the loop.
        let before = transport.loopWakes
        let onLoop = await Task(executorPreference: executor) { () async -> Int in
            var seen = 0
            for _ in 0..<5 {
                try? await Task.sleep(for: .milliseconds(10))
                if pthread_self() == transport.loopThread { seen += 1 }
            }
            return seen
        }.value
        #expect(onLoop == 5)
        #expect(transport.loopWakes - before >= 5)
    }

    @Test func wakeUpsAskedForByAJobOnTheLoopAreMadeWhenItsBurstOfJobsEnds() async throws {
        let wakeups = HeldWakeups()
        let transport = CurlTransport(userAgent: "isobar/test", heldWakeups: wakeups)
        let executor = try #require(transport.loopExecutor())
        let probe = WakeCount()
        let seen = await Task(executorPreference: executor) { () async -> [Int] in
            wakeups.wake(probe)
            let duringTheBurst = probe.value.load(ordering: .relaxed)
            // Queued again, the task runs in the loop's next burst: this one has ended.
            await Task.yield()
            return [duringTheBurst, probe.value.load(ordering: .relaxed)]
        }.value
        #expect(seen == [0, 1])
    }

    @Test func oneTransportHasOneLoopExecutor() throws {
        let transport = CurlTransport(userAgent: "isobar/test")
        let first = try #require(transport.loopExecutor())
        #expect(transport.loopExecutor() === first)
        #expect(CurlTransport(userAgent: "isobar/test").loopExecutor() !== first)
    }

    @Test func manyRequestsFromTasksOnTheLoopAllComeBack() async throws {
        let transport = CurlTransport(userAgent: "isobar/test", maxConnectionsPerHost: 4)
        let server = try LoopbackServer { request in .init("{\"path\": \"\(request.path)\"}", delaySeconds: 0.005) }
        let executor = try #require(transport.loopExecutor())
        let bodies = await withTaskGroup(of: String?.self) { group in
            for index in 0..<60 {
                group.addTask(executorPreference: executor) {
                    guard let response = try? await transport.send(loopbackRequest(server, "/p\(index)")) else { return nil }
                    return String(decoding: response.body, as: UTF8.self)
                }
            }
            var bodies: [String] = []
            for await body in group { if let body { bodies.append(body) } }
            return bodies
        }
        #expect(bodies.count == 60)
        #expect(Set(bodies) == Set((0..<60).map { "{\"path\": \"/p\($0)\"}" }))
        #expect(server.requests.count == 60)
    }

    @Test func cancellingATaskOnTheLoopEndsItsTransferAtOnce() async throws {
        let transport = CurlTransport(userAgent: "isobar/test")
        let server = try LoopbackServer { _ in .init("{}", delaySeconds: 10) }
        let executor = try #require(transport.loopExecutor())
        let task = Task(executorPreference: executor) { () async -> ProviderError? in
            await providerError { _ = try await transport.send(loopbackRequest(server)) }
        }
        #expect(await eventually { !server.requests.isEmpty })
        task.cancel()
        // The server answers only after 10 s: a transfer the cancellation did not end would then succeed.
        let error = await task.value
        #expect(error?.reason == .cancelled)
    }

    @Test func afterTheTransportStopsTasksPreferringTheLoopStillRun() async throws {
        let transport = CurlTransport(userAgent: "isobar/test")
        let executor = try #require(transport.loopExecutor())
        let gate = TestGate()
        let task = Task(executorPreference: executor) { () async -> Int in
            await gate.wait()
            // Resumed after the stop: the job goes to the global executor instead of a thread that has ended.
            try? await Task.sleep(for: .milliseconds(5))
            return 7
        }
        #expect(await eventually { gate.waiting == 1 })
        transport.stop()
        // The I/O thread ends soon after the stop; until it has, a job may still run there.
        #expect(await eventually { transport.loopExecutor() == nil })
        gate.open()
        // Polled, not awaited: were the job lost, the test fails instead of hanging.
        let result = Mutex<Int?>(nil)
        Task { let value = await task.value; result.withLock { $0 = value } }
        #expect(await eventually { result.withLock { $0 } != nil })
        #expect(result.withLock { $0 } == 7)
        let failure = await providerError { _ = try await transport.send(HTTPRequest(url: RequestURL(string: "http://127.0.0.1:9/x")!)) }
        #expect(failure?.reason == .cancelled)
    }
}

/// Counts its wake-ups.
private final class WakeCount: Wakeable {
    let value = Atomic<Int>(0)

    func wake() { value.add(1, ordering: .relaxed) }
}
