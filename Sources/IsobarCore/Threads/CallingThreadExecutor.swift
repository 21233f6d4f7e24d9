#if canImport(Glibc)
import Glibc
#endif

/// A task executor whose jobs run on the thread that calls `run`: a short command's async work stays on the main thread.
///
/// Without it, the program's first `await` starts the runtime's pool (on Linux, Dispatch's worker threads and the thread that
/// watches them), and every resumption hops between threads: a cache hit started six threads and woke them dozens of times
/// for a few milliseconds of work. Given as a task's executor preference, this executor takes the task's jobs and those of its
/// child tasks; jobs come from any thread (a store or HTTP thread resuming a continuation) and wait in a list until the
/// running thread takes them. Unstructured tasks (`Task {}`) and timers still use the pool, which then starts only when
/// something needs it.
public final class CallingThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Safety of `@unchecked Sendable`: `jobs` and `finished` are read and written only with `mutex` locked.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [UnownedJob] = []
    private var finished = false

    /// An executor with no jobs.
    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Queues a job for the running thread (called by the runtime, from any thread).
    public func enqueue(_ job: UnownedJob) {
        pthread_mutex_lock(mutex)
        jobs.append(job)
        pthread_mutex_unlock(mutex)
        pthread_cond_signal(condition)
    }

    /// Runs `operation` in a task that prefers this executor and runs its jobs on the calling thread until it ends; returns its
    /// result. Call it once, from a thread that has nothing else to do (the program's main thread).
    public func run<T: Sendable>(_ operation: sending @escaping () async -> T) -> T {
        let box = ResultBox<T>()
        Task.detached(executorPreference: self) { [self] in
            let value = await operation()
            box.value = value
            // The flag is set under the mutex, so the running thread sees it with the value before it sleeps again.
            pthread_mutex_lock(mutex)
            finished = true
            pthread_mutex_unlock(mutex)
            pthread_cond_signal(condition)
        }
        let unowned = asUnownedTaskExecutor()
        while true {
            pthread_mutex_lock(mutex)
            while jobs.isEmpty && !finished { pthread_cond_wait(condition, mutex) }
            let taken = jobs
            jobs.removeAll(keepingCapacity: true)
            let done = finished && taken.isEmpty
            pthread_mutex_unlock(mutex)
            if done { break }
            for job in taken { job.runSynchronously(on: unowned) }
        }
        // `finished` is set after `value`, under the mutex this thread took since.
        return box.value!
    }

    /// The operation's result, handed from the task to the running thread.
    private final class ResultBox<T>: @unchecked Sendable {
        // Safety: written once by the task before it sets `finished` under the mutex; read after the loop saw `finished`.
        var value: T?
    }
}
