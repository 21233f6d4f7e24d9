import IsobarCore
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The executor that keeps a command's async work on the thread that runs it.
@Suite("Calling-thread executor")
struct CallingThreadExecutorTests {
    /// Runs `executor.run(operation)` on a thread of its own (never on the test's pool) and returns its result and that
    /// thread's identity.
    private func onOwnThread<T: Sendable>(_ executor: CallingThreadExecutor = CallingThreadExecutor(),
                                          _ operation: @escaping @Sendable () async -> T) async -> (value: T, thread: pthread_t) {
        await withCheckedContinuation { continuation in
            let started = PlainThread.detach {
                let value = executor.run(operation)
                continuation.resume(returning: (value, pthread_self()))
            }
            if case .failure(let error) = started { Issue.record("no thread: \(error.code)") }
        }
    }

    @Test func theOperationAndItsChildTasksRunOnTheCallingThread() async {
        let (threads, caller) = await onOwnThread { () async -> [pthread_t] in
            var seen = [pthread_self()]
            await withTaskGroup(of: pthread_t.self) { group in
                for _ in 0..<8 { group.addTask { await Task.yield(); return pthread_self() } }
                for await thread in group { seen.append(thread) }
            }
            async let more = { () async -> pthread_t in pthread_self() }()
            seen.append(await more)
            seen.append(pthread_self())
            return seen
        }
        #expect(threads.count == 11)
        #expect(threads.allSatisfy { pthread_equal($0, caller) != 0 })
    }

    @Test func workResumedFromAnotherThreadComesBackToTheCallingThread() async {
        let (result, caller) = await onOwnThread { () async -> (resumer: pthread_t, after: pthread_t) in
            let resumer = await withCheckedContinuation { (continuation: CheckedContinuation<pthread_t, Never>) in
                _ = PlainThread.detach { continuation.resume(returning: pthread_self()) }
            }
            return (resumer, pthread_self())
        }
        #expect(pthread_equal(result.resumer, caller) == 0, "the continuation was resumed elsewhere")
        #expect(pthread_equal(result.after, caller) != 0)
    }

    @Test func workHandedToThePoolAndAwaitedReturnsItsResult() async {
        let (result, caller) = await onOwnThread { () async -> (value: Int, after: pthread_t) in
            // An unstructured task does not inherit the preference: it runs on the runtime's pool, and is awaited from here.
            let value = await Task.detached { 6 * 7 }.value
            return (value, pthread_self())
        }
        #expect(result.value == 42)
        #expect(pthread_equal(result.after, caller) != 0)
    }

    @Test func aSleepOnItsClockEndsOnTheCallingThread() async {
        let executor = CallingThreadExecutor()
        let time = executor.time
        let (after, caller) = await onOwnThread(executor) { () async -> pthread_t? in
            do {
                try await time.sleep(seconds: 0.001)
                return pthread_self()
            } catch {
                return nil
            }
        }
        #expect(after.map { pthread_equal($0, caller) != 0 } == true)
    }

    @Test func aCancelledSleepThrowsAtOnceAndTheRunEnds() async {
        let executor = CallingThreadExecutor()
        let time = executor.time
        let (outcome, _) = await onOwnThread(executor) { () async -> String in
            let sleeper = Task(executorPreference: executor) { () async -> String in
                do {
                    try await time.sleep(seconds: 3600)
                    return "slept an hour"
                } catch is CancellationError {
                    return "cancelled"
                } catch {
                    return "\(error)"
                }
            }
            sleeper.cancel()
            return await sleeper.value
        }
        #expect(outcome == "cancelled")
    }
}
