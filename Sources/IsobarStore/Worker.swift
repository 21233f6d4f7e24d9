import CSQLite
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The loop of an executor's thread.
final class Worker: @unchecked Sendable {
    // Safety of `@unchecked Sendable`: handed to the thread once at its start and touched by that thread only afterwards;
    // the shared parts (`queue`, `counters`, `recovery`) are thread-safe themselves.
    private let queue: JobQueue
    private let counters: Counters
    private let delay: Duration?
    private let recovery: Recovery?
    private let connect: @Sendable () throws(StoreError) -> Connection
    private var connection: Connection?
    private var generation = 0
    /// True once a write waited its connection's whole busy timeout for a lock held elsewhere, until a write gets the lock:
    /// meanwhile writes wait only `contendedWaitMilliseconds`, so a command whose every step writes pays the wait once, not
    /// once a step, while another process holds the file.
    private var lockedElsewhere = false
    /// The connection's own busy timeout, restored once a write gets the lock again.
    private var lockWait: Int32 = 0

    /// Ends the message of a write that found the file still locked elsewhere and did not wait the whole busy timeout again.
    static let notWaitedAgain = " (still locked by another process: not waited for again)"

    /// How long a write waits for the lock while the file is known to be locked elsewhere.
    static let contendedWaitMilliseconds: Int32 = 50

    init(queue: JobQueue, counters: Counters, delay: Duration?, recovery: Recovery?,
         connect: @escaping @Sendable () throws(StoreError) -> Connection) {
        self.queue = queue
        self.counters = counters
        self.delay = delay
        self.recovery = recovery
        self.connect = connect
    }

    func run() {
        while let jobs = queue.takeAll() {
            counters.taken.add(jobs.count, ordering: .relaxed)
            var start = jobs.startIndex
            while start < jobs.endIndex {
                guard jobs[start].mode == .grouped else {
                    runAlone(jobs[start])
                    start += 1
                    continue
                }
                let end = jobs[start...].firstIndex { $0.mode != .grouped } ?? jobs.endIndex
                runGroup(jobs[start..<end])
                start = end
            }
        }
        connection = nil
    }

    /// The connection, opened (or reopened after another executor's recovery) when needed; a damaged file is moved aside.
    private func ready() throws(StoreError) -> Connection {
        if let recovery, recovery.generation != generation { connection = nil }
        if let connection { return connection }
        let seen = recovery?.generation ?? 0
        let opened: Connection
        do {
            opened = try connect()
        } catch where error.isCorruption && recovery != nil {
            recovery?.moveAside(seen: seen)
            opened = try connect()
        }
        generation = recovery?.generation ?? 0
        connection = opened
        lockWait = opened.busyTimeoutMilliseconds
        lockedElsewhere = false
        return opened
    }

    /// After damage: moves the file aside (once for all its executors) and drops the connection; false when not damage.
    private func recover(_ error: StoreError) -> Bool {
        guard error.isCorruption, let recovery else { return false }
        connection = nil
        recovery.moveAside(seen: generation)
        return true
    }

    /// The test aid `Store.Options.artificialDelayPerJob`: blocks this thread, never a pool thread.
    private func pause() {
        guard let delay else { return }
        let (seconds, attoseconds) = delay.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }

    private func runAlone(_ job: Job) {
        var recovered = false
        while true {
            do throws(StoreError) {
                let connection = try ready()
                pause()
                if job.mode == .snapshot { try connection.query("BEGIN") }
                try job.run(on: connection)
                if job.mode == .snapshot { try connection.query("COMMIT") }
                job.complete(nil)
                return
            } catch {
                connection?.rollback()
                if !recovered && recover(error) {
                    recovered = true
                    continue
                }
                job.complete(error)
                return
            }
        }
    }

    private enum Attempt {
        /// Committed; each job's own error, if it had one (its savepoint was rolled back, or the transaction of a job alone).
        case committed([StoreError?])
        /// Nothing was written: `BEGIN` or `COMMIT` failed, or the file is damaged.
        case failed(StoreError)
        /// SQLite ended the transaction when the job at `count - 1` failed: it and those before it are lost.
        case lost(count: Int, StoreError)
    }

    private func runGroup(_ jobs: ArraySlice<Job>) {
        var pending = jobs
        var recovered = false
        while !pending.isEmpty {
            switch transaction(pending) {
            case .committed(let errors):
                for (job, error) in zip(pending, errors) { job.complete(error) }
                return
            case .failed(let error):
                if !recovered && recover(error) {
                    recovered = true
                    continue
                }
                for job in pending { job.complete(error) }
                return
            case .lost(let count, let error):
                for job in pending.prefix(count) { job.complete(error) }
                pending = pending.dropFirst(count)
            }
        }
    }

    private func transaction(_ jobs: ArraySlice<Job>) -> Attempt {
        let connection: Connection
        do {
            connection = try ready()
            try begin(connection)
        } catch {
            self.connection?.rollback()
            return .failed(error)
        }
        // A job alone needs no savepoint: when it fails, the transaction is rolled back instead, which undoes the same.
        if jobs.count == 1, let job = jobs.first { return alone(job, in: connection) }
        var errors: [StoreError?] = []
        for job in jobs {
            pause()
            do throws(StoreError) {
                try connection.query("SAVEPOINT job")
                try job.run(on: connection)
                try connection.query("RELEASE job")
                errors.append(nil)
            } catch {
                if error.isCorruption {
                    connection.rollback()
                    return .failed(error)
                }
                guard connection.isInTransaction, undo(connection) else {
                    connection.rollback()
                    return .lost(count: errors.count + 1, error)
                }
                errors.append(error)
            }
        }
        return commit(connection, outcomes: errors)
    }

    /// Opens a write transaction, waiting for a lock held elsewhere for the connection's busy timeout, or only briefly while
    /// the file is known to be locked elsewhere (see `lockedElsewhere`).
    private func begin(_ connection: Connection) throws(StoreError) {
        let known = lockedElsewhere
        let wait = known ? min(Self.contendedWaitMilliseconds, lockWait) : lockWait
        if connection.busyTimeoutMilliseconds != wait { connection.setBusyTimeout(milliseconds: wait) }
        do {
            try connection.query("BEGIN IMMEDIATE")
            lockedElsewhere = false
        } catch {
            guard error.code == SQLITE_BUSY else { throw error }
            lockedElsewhere = true
            guard known else { throw error }
            throw StoreError(code: error.code, error.message + Self.notWaitedAgain, cause: error.cause, systemError: error.systemError)
        }
    }

    /// Runs the one job of a transaction `BEGIN` opened and commits it; when the job fails, rolls the transaction back.
    private func alone(_ job: Job, in connection: Connection) -> Attempt {
        pause()
        do throws(StoreError) {
            try job.run(on: connection)
        } catch {
            connection.rollback()
            return error.isCorruption ? .failed(error) : .committed([error])
        }
        return commit(connection, outcomes: [nil])
    }

    /// Commits the open transaction, its jobs' `outcomes` kept; when `COMMIT` fails, rolls back and fails them all.
    private func commit(_ connection: Connection, outcomes: [StoreError?]) -> Attempt {
        do {
            try connection.query("COMMIT")
        } catch {
            connection.rollback()
            return .failed(error)
        }
        counters.transactions.add(1, ordering: .relaxed)
        return .committed(outcomes)
    }

    /// Rolls back the current job's savepoint; false when that fails too.
    private func undo(_ connection: Connection) -> Bool {
        do {
            try connection.execute("ROLLBACK TO job; RELEASE job")
            return true
        } catch {
            return false
        }
    }
}
