import IsobarCore
import Synchronization

/// A task executor that runs its jobs on a `CurlTransport`'s I/O thread, between polls.
///
/// A task that mostly waits for HTTP answers (a batch of places, say) is resumed on the thread where each answer arrives,
/// without waking another thread for it and putting the I/O thread back to sleep: one thread does what would otherwise take
/// two or three hand-overs per request. Its jobs must not block for long (no blocking network or lock waits): while a
/// job runs, no transfer progresses. Once the transport stops, jobs run on the global concurrent executor.
public final class LoopExecutor: TaskExecutor {
    private let core: CurlTransport.Core

    init(core: CurlTransport.Core) { self.core = core }

    /// Queues `job` for the I/O thread, waking it when it may be waiting.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        switch core.jobs.append(job, for: asUnownedTaskExecutor()) {
        case .closed: globalConcurrentExecutor.enqueue(ExecutorJob(job))
        case .first: if !core.isLoopThread { core.wake() }
        case .behindOthers: break
        }
    }
}

/// The jobs waiting for the I/O thread; once closed (the thread ended), none is taken.
final class LoopJobs: Sendable {
    /// Where an appended job went.
    enum Appended {
        /// First in an empty queue: the thread may be waiting, and needs a wake-up.
        case first
        /// Behind jobs that already woke the thread (or that it queued itself and will run before it waits).
        case behindOthers
        /// Refused: the thread has ended; the caller runs the job elsewhere.
        case closed
    }

    private struct State {
        var queue: [(job: UnownedJob, executor: UnownedTaskExecutor)] = []
        var closed = false
    }

    private let state = Mutex(State())
    /// Held while a burst of jobs runs, so the work they queue for other threads is taken there in one go.
    private let heldWakeups: HeldWakeups?

    /// An empty queue; bursts hold `heldWakeups` when given.
    init(heldWakeups: HeldWakeups?) { self.heldWakeups = heldWakeups }

    /// Queues `job` to run on `executor`'s behalf.
    func append(_ job: UnownedJob, for executor: UnownedTaskExecutor) -> Appended {
        state.withLock { state in
            guard !state.closed else { return .closed }
            state.queue.append((job, executor))
            return state.queue.count == 1 ? .first : .behindOthers
        }
    }

    /// True when no job waits.
    var isEmpty: Bool { state.withLock { $0.queue.isEmpty } }

    /// Runs the jobs waiting now, in order (those they queue wait for the next call): on the I/O thread only.
    func runWaiting() {
        let waiting = state.withLock { state in
            defer { state.queue.removeAll(keepingCapacity: true) }
            return state.queue
        }
        guard !waiting.isEmpty else { return }
        // The store work these jobs queue starts once they are all run, in one transaction where it can.
        let run = { for (job, executor) in waiting { job.runSynchronously(on: executor) } }
        if let heldWakeups { heldWakeups.holding(run) } else { run() }
    }

    /// Refuses further jobs and hands those still waiting to the global concurrent executor: when the I/O thread ends.
    func close() {
        let left = state.withLock { state in
            state.closed = true
            defer { state.queue.removeAll() }
            return state.queue
        }
        for (job, _) in left { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }
}
