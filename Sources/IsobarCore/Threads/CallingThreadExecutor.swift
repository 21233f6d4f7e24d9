import FoundationEssentials

/// A task executor whose jobs run on the thread that calls `run`, with timers of its own: a short command's async work stays
/// on the main thread.
///
/// Without it, the program's first `await` starts the runtime's pool (on Linux, Dispatch's worker threads and the thread that
/// watches them), a deadline's `Task.sleep` starts Dispatch's timer thread, and every resumption hops between threads: a cache
/// hit started six threads and woke them dozens of times for a few milliseconds of work. Given as a task's executor
/// preference, this executor takes the task's jobs and those of its child tasks; jobs come from any thread (a store or HTTP
/// thread resuming a continuation) and wait in a list until the running thread takes them. Sleeps on its clock (`time`) are
/// kept here too: the running thread waits for its next job or its next timer, whichever comes first. Unstructured tasks
/// (`Task {}`) still use the pool, which then starts only when something needs it.
public final class CallingThreadExecutor: TaskExecutor {
    /// The jobs waiting, the sleepers, and whether the operation has ended.
    private struct Loop: Sendable {
        var jobs: [UnownedJob] = []
        var timers: [Timer] = []
        var nextTimer = 0
        var finished = false

        /// True when the running thread has something to do at `now`.
        func isReady(at now: Double) -> Bool { !jobs.isEmpty || finished || timers.contains { $0.wakeAt <= now } }
    }

    /// A sleeper waiting for its instant on the monotonic clock.
    private struct Timer: Sendable {
        let id: Int
        let wakeAt: Double
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let loop = ConditionLock(Loop())

    /// An executor with no jobs.
    public init() {}

    /// The wall clock, with sleeps kept by this executor (no timer thread).
    public var time: any TimeSource { ExecutorTime(executor: self) }

    /// Queues a job for the running thread (called by the runtime, from any thread).
    public func enqueue(_ job: UnownedJob) {
        loop.withLock { $0.jobs.append(job) }
        loop.signal()
    }

    /// Suspends the calling task for `seconds` on the monotonic clock, woken by the running thread; throws when cancelled.
    func sleep(seconds: Double) async throws {
        guard seconds > 0 else { return }
        let wakeAt = ConditionLock<Loop>.monotonicSeconds() + seconds
        let id = loop.withLock { state -> Int in
            state.nextTimer += 1
            return state.nextTimer
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = loop.withLock { state -> Bool in
                    guard !Task.isCancelled else { return true }
                    state.timers.append(Timer(id: id, wakeAt: wakeAt, continuation: continuation))
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) } else { loop.signal() }
            }
        } onCancel: {
            let timer = loop.withLock { state -> Timer? in
                state.timers.firstIndex { $0.id == id }.map { state.timers.remove(at: $0) }
            }
            timer?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Runs `operation` in a task that prefers this executor and runs its jobs and timers on the calling thread until it ends;
    /// returns its result. Call it once, from a thread that has nothing else to do (the program's main thread). With
    /// `preferred` false the task runs on the runtime's pool, as any task would, and the calling thread only waits for it (and
    /// keeps this executor's timers): for long runs that use every core.
    public func run<T: Sendable>(preferred: Bool = true, _ operation: sending @escaping () async -> T) -> T {
        let box = ResultBox<T>()
        Task.detached(executorPreference: preferred ? self : nil) { [loop] in
            box.value = await operation()
            // Set under the lock after `value`: the running thread sees the value once it sees the flag.
            loop.withLock { $0.finished = true }
            loop.signal()
        }
        let unowned = asUnownedTaskExecutor()
        while true {
            let (taken, due, done) = loop.withLock(when: { $0.isReady(at: ConditionLock<Loop>.monotonicSeconds()) },
                                                   wakingAt: { $0.timers.map(\.wakeAt).min() }) { state in
                let now = ConditionLock<Loop>.monotonicSeconds()
                let due = state.timers.filter { $0.wakeAt <= now }
                state.timers.removeAll { $0.wakeAt <= now }
                let taken = state.jobs
                state.jobs.removeAll(keepingCapacity: true)
                return (taken, due, state.finished && taken.isEmpty)
            }
            for timer in due { timer.continuation.resume() }
            if done { break }
            for job in taken { job.runSynchronously(on: unowned) }
        }
        return box.value!
    }

    /// The operation's result, handed from the task to the running thread.
    private final class ResultBox<T>: @unchecked Sendable {
        // Safety: written once by the task before it sets `finished` under the lock; read after the loop saw `finished`.
        var value: T?
    }
}

/// The wall clock whose sleeps a `CallingThreadExecutor` keeps.
struct ExecutorTime: TimeSource {
    /// The executor whose running thread wakes the sleepers.
    let executor: CallingThreadExecutor

    /// `Date()`.
    func now() -> Date { Date() }

    /// Sleeps on the executor's timers.
    func sleep(seconds: Double) async throws { try await executor.sleep(seconds: seconds) }
}
