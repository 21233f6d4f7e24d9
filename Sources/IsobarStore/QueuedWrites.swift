import IsobarEngine
import Synchronization

/// The writes a store's callers did not wait for, in the order they were queued, until a write job takes them; and, until
/// they are committed, what they change that a read must see (an answer kept, a breaker closed).
final class QueuedWrites: Sendable {
    /// What a queued write changes that reads must see before it is committed.
    enum Overlay: Sendable {
        /// It keeps this answer under this key.
        case answer(CacheKey, CacheEntry)
        /// It records a success of this provider: its breaker reads as closed.
        case success(provider: String)
    }

    /// One queued write: its statements, where its failure goes, and what reads must see meanwhile.
    struct Entry: Sendable {
        let body: @Sendable (Connection) throws(StoreError) -> Void
        let failed: @Sendable (StorageError) -> Void
        var overlay: Overlay?
        /// True when `body` runs one statement: SQLite undoes a failed statement by itself, so it needs no savepoint.
        var isOneStatement = false
        var number = 0
    }

    private struct State {
        var entries: [Entry] = []
        var drainScheduled = false
        var answers: [CacheKey: (number: Int, entry: CacheEntry)] = [:]
        var successes: [String: Int] = [:]
        var nextNumber = 0
        /// Writes a job has taken and not yet committed (or failed).
        var inFlight = 0
    }

    private let state = Mutex(State())

    /// Queues `entry`; true when no drain is scheduled yet and the caller must schedule one.
    func append(_ entry: Entry) -> Bool {
        state.withLock { state in
            var entry = entry
            state.nextNumber += 1
            entry.number = state.nextNumber
            switch entry.overlay {
            case .answer(let key, let answer): state.answers[key] = (entry.number, answer)
            case .success(let provider): state.successes[provider] = entry.number
            case nil: break
            }
            state.entries.append(entry)
            guard !state.drainScheduled else { return false }
            state.drainScheduled = true
            return true
        }
    }

    /// Forgets what `entries` changed, now that they are committed (or failed): reads see the file again, unless a newer
    /// queued write changes the same thing.
    func settled(_ entries: [Entry]) {
        state.withLock { state in
            state.inFlight -= entries.count
            for entry in entries where entry.overlay != nil {
                switch entry.overlay {
                case .answer(let key, _): if state.answers[key]?.number == entry.number { state.answers[key] = nil }
                case .success(let provider): if state.successes[provider] == entry.number { state.successes[provider] = nil }
                case nil: break
                }
            }
        }
    }

    /// The answer a queued write keeps under `key`, if one does.
    func answer(for key: CacheKey) -> CacheEntry? {
        state.withLock { $0.answers.isEmpty ? nil : $0.answers[key]?.entry }
    }

    /// True when a queued write records a success of `provider` (its breaker then reads as closed).
    func hasSuccess(of provider: String) -> Bool {
        state.withLock { $0.successes[provider] != nil }
    }

    /// Every write queued now, leaving none.
    func takeAll() -> [Entry] {
        state.withLock { state in
            defer {
                state.inFlight += state.entries.count
                state.entries = []
            }
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

    /// True when nothing is queued and no job holds a queued write it has not committed yet.
    var isEmpty: Bool { state.withLock { $0.entries.isEmpty && $0.inFlight == 0 } }
}

/// The queued writes one write job took, kept for a rerun of the job (after a damaged file was rebuilt); touched only by the
/// store's writer thread, which runs the job.
final class TakenWrites: @unchecked Sendable {
    private var entries: [QueuedWrites.Entry]?

    /// Runs the writes `queue` holds (taken at the first run), each of several statements in its own savepoint: one that
    /// fails is rolled back alone (a single statement by SQLite itself) and told to its caller. Damage is thrown, so that the
    /// whole job is run again on the rebuilt file, and so is a failure that ended the transaction. False when there were none.
    func run(from queue: QueuedWrites, on connection: Connection) throws(StoreError) -> Bool {
        if entries == nil { entries = queue.takeAll() }
        guard let entries, !entries.isEmpty else { return false }
        for entry in entries {
            guard !entry.isOneStatement else {
                try Self.runOneStatement(entry, on: connection)
                continue
            }
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

    /// Runs a one-statement write without a savepoint: SQLite rolls back a statement that fails (or, after some errors, the
    /// whole transaction, which is then thrown as a savepoint's rollback would have failed).
    private static func runOneStatement(_ entry: QueuedWrites.Entry, on connection: Connection) throws(StoreError) {
        do throws(StoreError) {
            try entry.body(connection)
        } catch {
            if error.isCorruption || !connection.isInTransaction { throw error }
            entry.failed(StorageError(error.message))
        }
    }

    /// Tells every write taken that the job failed as a whole (nothing of it was committed).
    func fail(_ error: StoreError) {
        for entry in entries ?? [] { entry.failed(StorageError(error.message)) }
    }

    /// The writes taken, once the job is over.
    var taken: [QueuedWrites.Entry] { entries ?? [] }
}
