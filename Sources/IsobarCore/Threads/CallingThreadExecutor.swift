import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

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
public final class CallingThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Safety of `@unchecked Sendable`: `jobs`, `timers`, `nextTimer` and `finished` are read and written only with `mutex`
    // locked.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [UnownedJob] = []
    private var timers: [Timer] = []
    private var nextTimer = 0
    private var finished = false

    /// A sleeper waiting for its instant on the monotonic clock.
    private struct Timer {
        let id: Int
        let wakeAt: Double
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// An executor with no jobs.
    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// The wall clock, with sleeps kept by this executor (no timer thread).
    public var time: any TimeSource { ExecutorTime(executor: self) }

    /// Queues a job for the running thread (called by the runtime, from any thread).
    public func enqueue(_ job: UnownedJob) {
        pthread_mutex_lock(mutex)
        jobs.append(job)
        pthread_mutex_unlock(mutex)
        pthread_cond_signal(condition)
    }

    /// Suspends the calling task for `seconds` on the monotonic clock, woken by the running thread; throws when cancelled.
    func sleep(seconds: Double) async throws {
        guard seconds > 0 else { return }
        let wakeAt = Self.monotonicSeconds() + seconds
        pthread_mutex_lock(mutex)
        nextTimer += 1
        let id = nextTimer
        pthread_mutex_unlock(mutex)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                pthread_mutex_lock(mutex)
                let cancelled = Task.isCancelled
                if !cancelled { timers.append(Timer(id: id, wakeAt: wakeAt, continuation: continuation)) }
                pthread_mutex_unlock(mutex)
                if cancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    pthread_cond_signal(condition)
                }
            }
        } onCancel: {
            pthread_mutex_lock(mutex)
            let index = timers.firstIndex { $0.id == id }
            let timer = index.map { timers.remove(at: $0) }
            pthread_mutex_unlock(mutex)
            timer?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Runs `operation` in a task that prefers this executor and runs its jobs and timers on the calling thread until it ends;
    /// returns its result. Call it once, from a thread that has nothing else to do (the program's main thread). With
    /// `preferred` false the task runs on the runtime's pool, as any task would, and the calling thread only waits for it (and
    /// keeps this executor's timers): for long runs that use every core.
    public func run<T: Sendable>(preferred: Bool = true, _ operation: sending @escaping () async -> T) -> T {
        let box = ResultBox<T>()
        Task.detached(executorPreference: preferred ? self : nil) { [self] in
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
            var due = dueTimers()
            while jobs.isEmpty && due.isEmpty && !finished {
                if let earliest = timers.map(\.wakeAt).min() {
                    var until = Self.timespec(earliest)
                    pthread_cond_timedwait(condition, mutex, &until)
                } else {
                    pthread_cond_wait(condition, mutex)
                }
                due = dueTimers()
            }
            let taken = jobs
            jobs.removeAll(keepingCapacity: true)
            let done = finished && taken.isEmpty
            pthread_mutex_unlock(mutex)
            for timer in due { timer.continuation.resume() }
            if done { break }
            for job in taken { job.runSynchronously(on: unowned) }
        }
        // `finished` is set after `value`, under the mutex this thread took since.
        return box.value!
    }

    /// The timers whose instant has come, taken from the list; called with `mutex` locked.
    private func dueTimers() -> [Timer] {
        guard !timers.isEmpty else { return [] }
        let now = Self.monotonicSeconds()
        let due = timers.filter { $0.wakeAt <= now }
        if !due.isEmpty { timers.removeAll { $0.wakeAt <= now } }
        return due
    }

    /// Seconds of the monotonic clock.
    private static func monotonicSeconds() -> Double {
        var now = Glibc.timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// An instant of the monotonic clock as `pthread_cond_timedwait` takes it.
    private static func timespec(_ seconds: Double) -> Glibc.timespec {
        let whole = seconds.rounded(.down)
        return Glibc.timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
    }

    /// The operation's result, handed from the task to the running thread.
    private final class ResultBox<T>: @unchecked Sendable {
        // Safety: written once by the task before it sets `finished` under the mutex; read after the loop saw `finished`.
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
