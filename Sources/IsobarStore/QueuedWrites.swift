import IsobarEngine
import Synchronization

/// The writes a store's callers did not wait for, in the order they were queued, until a write job takes them.
final class QueuedWrites: Sendable {
    /// One queued write: its statements, and where its failure goes.
    struct Entry: Sendable {
        let body: @Sendable (Connection) throws(StoreError) -> Void
        let failed: @Sendable (StorageError) -> Void
    }

    private struct State {
        var entries: [Entry] = []
        var drainScheduled = false
    }

    private let state = Mutex(State())

    /// Queues `entry`; true when no drain is scheduled yet and the caller must schedule one.
    func append(_ entry: Entry) -> Bool {
        state.withLock { state in
            state.entries.append(entry)
            guard !state.drainScheduled else { return false }
            state.drainScheduled = true
            return true
        }
    }

    /// Every write queued now, leaving none.
    func takeAll() -> [Entry] {
        state.withLock { state in
            defer { state.entries = [] }
            return state.entries
        }
    }

    /// Called by a scheduled drain as it starts: the next write queued schedules another; false when nothing is queued.
    func startDrain() -> Bool {
        state.withLock { state in
            state.drainScheduled = false
            return !state.entries.isEmpty
        }
    }

    /// True when nothing is queued.
    var isEmpty: Bool { state.withLock { $0.entries.isEmpty } }
}

/// The queued writes one write job took, kept for a rerun of the job (after a damaged file was rebuilt); touched only by the
/// store's writer thread, which runs the job.
final class TakenWrites: @unchecked Sendable {
    private var entries: [QueuedWrites.Entry]?

    /// Runs the writes `queue` holds (taken at the first run), each in its own savepoint: one that fails is rolled back alone
    /// and told to its caller. Damage is thrown, so that the whole job is run again on the rebuilt file. False when there were none.
    func run(from queue: QueuedWrites, on connection: Connection) throws(StoreError) -> Bool {
        if entries == nil { entries = queue.takeAll() }
        guard let entries, !entries.isEmpty else { return false }
        for entry in entries {
            try connection.query("SAVEPOINT queued")
            do throws(StoreError) {
                try entry.body(connection)
                try connection.query("RELEASE queued")
            } catch {
                if error.isCorruption { throw error }
                try connection.execute("ROLLBACK TO queued; RELEASE queued")
                entry.failed(StorageError(error.message))
            }
        }
        return true
    }

    /// Tells every write taken that the job failed as a whole (nothing of it was committed).
    func fail(_ error: StoreError) {
        for entry in entries ?? [] { entry.failed(StorageError(error.message)) }
        entries = []
    }
}
