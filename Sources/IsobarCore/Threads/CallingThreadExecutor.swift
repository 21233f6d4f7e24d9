/// A task executor whose jobs run on the thread that calls `run`: a short command's async work stays on the main thread.
///
/// Without it, the program's first `await` starts the runtime's pool (on Linux, Dispatch's worker threads and the thread that
/// watches them), and every resumption hops between threads: a cache hit started six threads and woke them dozens of times
/// for a few milliseconds of work. Given as a task's executor preference, this executor takes the task's jobs and those of its
/// child tasks; jobs come from any thread (a store or HTTP thread resuming a continuation) and wait in a list until the
/// running thread takes them. Unstructured tasks (`Task {}`) and timers still use the pool, which then starts only when
/// something needs it.
public final class CallingThreadExecutor: TaskExecutor, Sendable {
    /// The jobs waiting for the running thread, and whether the operation has ended.
    private struct Queue: Sendable {
        var jobs: [UnownedJob] = []
        var finished = false
    }

    private let queue = ConditionLock(Queue())

    /// An executor with no jobs.
    public init() {}

    /// Queues a job for the running thread (called by the runtime, from any thread).
    public func enqueue(_ job: UnownedJob) {
        queue.withLock { $0.jobs.append(job) }
        queue.signal()
    }

    /// Runs `operation` in a task that prefers this executor and runs its jobs on the calling thread until it ends; returns its
    /// result. Call it once, from a thread that has nothing else to do (the program's main thread).
    public func run<T: Sendable>(_ operation: sending @escaping () async -> T) -> T {
        let box = ResultBox<T>()
        Task.detached(executorPreference: self) { [self] in
            let value = await operation()
            box.value = value
            // The flag is set under the lock, so the running thread sees it with the value before it sleeps again.
            queue.withLock { $0.finished = true }
            queue.signal()
        }
        let unowned = asUnownedTaskExecutor()
        while true {
            let (taken, done) = queue.withLock(when: { !$0.jobs.isEmpty || $0.finished }) { queue in
                let taken = queue.jobs
                queue.jobs.removeAll(keepingCapacity: true)
                return (taken, queue.finished && taken.isEmpty)
            }
            if done { break }
            for job in taken { job.runSynchronously(on: unowned) }
        }
        // `finished` is set after `value`, under the lock this thread took since.
        return box.value!
    }

    /// The operation's result, handed from the task to the running thread.
    private final class ResultBox<T>: @unchecked Sendable {
        // Safety: written once by the task before it sets `finished` under the lock; read after the loop saw `finished`.
        var value: T?
    }
}
