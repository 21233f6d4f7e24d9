import CSQLite
import IsobarCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One SQLite connection and the one thread that uses it; callers wait for their jobs without holding a thread.
///
/// Why a thread of its own: SQLite calls block, for up to the busy timeout when another process holds the write lock.
/// Run on the cooperative pool (a handful of threads for the whole process), a few such calls would stall every task.
/// Here a caller queues a job (taking a mutex only to append to a list) and suspends in a continuation; the executor's
/// thread runs the job and resumes the caller with a `Result`. Nothing that waits for a lock runs on a pool thread:
/// the only SQLite work done there is an `InlineReader` read, with a busy timeout of 0, which SQLite answers at once or
/// declines (and the read comes here).
///
/// Group commit: the thread takes every job queued at that moment and runs the consecutive writes among them in one
/// `BEGIN IMMEDIATE … COMMIT`, each in its own `SAVEPOINT` (a job alone needs none), so a failing job rolls back only itself and gets its own error,
/// and callers are resumed only after the commit. While the thread waits for the lock or for the disk, new writes pile
/// up and go through together: hundreds of concurrent writes cost a few transactions. Reads run one at a time, each in
/// its own deferred transaction (one snapshot).
///
/// A damaged file found by any job is moved aside once (see `Recovery`), the connection reopened, and the batch run again.
final class Executor: Sendable {
    private let queue: JobQueue
    private let counters = Counters()
    /// The file, or `:memory:`, for messages.
    let path: String
    /// What runs on the executor's thread.
    private let worker: Worker
    /// The executor's thread, once the first job started it: a store a command only reads from inline starts none.
    private let thread = Mutex<pthread_t?>(nil)

    /// An executor whose thread starts with its first job; `connect` opens the connection on it, at the first job and again
    /// after a recovery. `delay` is a test aid: each job first blocks the thread that long. A job posted while its poster
    /// runs a burst of `heldWakeups` wakes the thread when the burst ends.
    init(path: String, delay: Duration?, recovery: Recovery?, heldWakeups: HeldWakeups? = nil,
         connect: @escaping @Sendable () throws(StoreError) -> Connection) {
        self.path = path
        queue = JobQueue(heldWakeups: heldWakeups)
        worker = Worker(queue: queue, counters: counters, delay: delay, recovery: recovery, connect: connect)
    }

    /// True on the executor's own thread (tests: blocking work runs there, never on the caller's).
    var isCurrent: Bool { thread.withLock { started in started.map { pthread_equal($0, pthread_self()) != 0 } ?? false } }

    /// True once a job started the executor's thread (tests).
    var hasThread: Bool { thread.withLock { $0 != nil } }

    deinit {
        queue.stop()
    }

    /// Queues `job`, starting the thread first if no job has yet; the error when no thread can start or the store is closed.
    private func enqueue(_ job: Job) -> StoreError? {
        let worker = worker
        let path = path
        let failure: StoreError? = thread.withLock { started in
            guard started == nil else { return nil }
            switch PlainThread.detach({ worker.run() }) {
            case .success(let handle):
                started = handle
                return nil
            case .failure(let error):
                return StoreError(code: SQLITE_ERROR, "store \(path): cannot start a store thread (error \(error.code))")
            }
        }
        if let failure { return failure }
        guard queue.push(job) else { return StoreError(code: SQLITE_MISUSE, "store \(path): the store is closed") }
        counters.jobs.add(1, ordering: .relaxed)
        return nil
    }

    /// Runs `body` on the executor's thread in the given mode and returns its result once committed.
    /// A cancelled caller still waits: the job is short, and whether it happened must be known.
    func submit<T: Sendable>(_ mode: Job.Mode, _ body: @escaping @Sendable (Connection) throws(StoreError) -> T) async throws(StoreError) -> T {
        let path = path
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, StoreError>, Never>) in
            let kept = Kept<T>()
            let job = Job(mode: mode, perform: { connection throws(StoreError) in
                kept.value = try body(connection)
            }, finish: { error in
                if let error {
                    continuation.resume(returning: .failure(error))
                } else if let value = kept.value {
                    continuation.resume(returning: .success(value))
                } else {
                    continuation.resume(returning: .failure(StoreError(code: SQLITE_MISUSE, "store \(path): a job ended without a result")))
                }
            })
            if let error = enqueue(job) { continuation.resume(returning: .failure(error)) }
        }
        return try result.get()
    }

    /// Queues `body` to run on the executor's thread in the given mode, without waiting for it; its failure is dropped.
    func post(_ mode: Job.Mode, _ body: @escaping @Sendable (Connection) throws(StoreError) -> Void) {
        _ = enqueue(Job(mode: mode, perform: body, finish: { _ in }))
    }

    /// Write transactions committed so far (tests).
    var transactions: Int { counters.transactions.load(ordering: .relaxed) }

    /// Jobs accepted so far (tests).
    var jobs: Int { counters.jobs.load(ordering: .relaxed) }

    /// Wake-ups sent to its thread so far (tests).
    var wakes: Int { queue.wakes.load(ordering: .relaxed) }

    /// Jobs its thread has taken to run so far (tests).
    var taken: Int { counters.taken.load(ordering: .relaxed) }
}

/// Counts shared between an executor and its thread.
final class Counters: Sendable {
    /// Write transactions committed.
    let transactions = Atomic<Int>(0)
    /// Jobs accepted.
    let jobs = Atomic<Int>(0)
    /// Jobs the thread has taken from the queue to run (a hook for tests: a write taken while the lock is held elsewhere is
    /// waiting for it).
    let taken = Atomic<Int>(0)
}

/// A job's result between its run and its completion; touched only by the executor's thread.
private final class Kept<T> {
    var value: T?
}
