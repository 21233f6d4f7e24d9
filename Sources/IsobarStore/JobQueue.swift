import Synchronization
import IsobarCore

/// One piece of work for an `Executor`'s thread: runs against its connection, then hands its result to the waiting task.
final class Job: @unchecked Sendable {
    /// How a job meets transactions.
    enum Mode: Equatable {
        /// A write: run with the other writes queued at the same moment in one `BEGIN IMMEDIATE … COMMIT`, in its own savepoint.
        case grouped
        /// A read: run alone in a deferred transaction, so it sees one snapshot.
        case snapshot
        /// Run alone outside any transaction (pragmas such as `wal_checkpoint` that cannot run inside one).
        case bare
    }

    let mode: Mode
    // Safety of `@unchecked Sendable`: `perform` and `finish` are called only by the executor's thread, after it takes the
    // job from the queue (the queue's mutex orders that after the job's creation); `finish` exactly once.
    private let perform: (Connection) throws(StoreError) -> Void
    private let finish: (StoreError?) -> Void

    /// A job; `perform` may run more than once (a batch rerun after recovery), `finish` runs once, after any commit.
    init(mode: Mode, perform: @escaping (Connection) throws(StoreError) -> Void, finish: @escaping (StoreError?) -> Void) {
        self.mode = mode
        self.perform = perform
        self.finish = finish
    }

    /// Does the work; its result is kept until `complete`.
    func run(on connection: Connection) throws(StoreError) { try perform(connection) }

    /// Resumes the waiting task with the kept result, or with `error`.
    func complete(_ error: StoreError?) { finish(error) }
}

/// The jobs waiting for an executor's thread: a list behind a `ConditionLock`, which the thread sleeps on.
///
/// Callers hold the lock only to append; the thread holds it only to take the whole list. Nothing blocks while holding it.
final class JobQueue: Wakeable, Sendable {
    private struct Queued: Sendable {
        var jobs: [Job] = []
        var stopping = false
    }

    private let queued = ConditionLock(Queued())
    /// Wake-ups sent to the thread so far (tests: a burst holds them, see `HeldWakeups`).
    let wakes = Atomic<Int>(0)
    /// Where a push asks for its wake-up: held while the pushing thread runs a burst; nil to wake at once.
    private let heldWakeups: HeldWakeups?

    /// An empty queue; its wake-ups go through `heldWakeups` when given.
    init(heldWakeups: HeldWakeups? = nil) { self.heldWakeups = heldWakeups }

    /// Adds a job and wakes the thread (at the end of the burst the calling thread runs, if it runs one: see
    /// `HeldWakeups`); false once the queue is stopped.
    func push(_ job: Job) -> Bool {
        let accepted = queued.withLock { queued in
            guard !queued.stopping else { return false }
            queued.jobs.append(job)
            return true
        }
        // Signalled after unlocking: the thread either saw the job under the mutex or sleeps until this signal.
        if accepted { heldWakeups.wake(self) }
        return accepted
    }

    /// Wakes the thread if it sleeps.
    func wake() {
        wakes.add(1, ordering: .relaxed)
        queued.signal()
    }

    /// Every job queued now, waiting for one if there is none; nil once stopped with nothing left.
    func takeAll() -> [Job]? {
        queued.withLock(when: { !$0.jobs.isEmpty || $0.stopping }) { queued in
            guard !queued.jobs.isEmpty else { return nil }
            defer { queued.jobs.removeAll() }
            return queued.jobs
        }
    }

    /// Refuses new jobs; the thread finishes those queued, then ends.
    func stop() {
        queued.withLock { $0.stopping = true }
        queued.signal()
    }
}
