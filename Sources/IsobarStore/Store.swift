import FoundationEssentials
import IsobarCore
import IsobarEngine
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Isobar's cache, one disposable SQLite file: answers, rate-limit ledger, cooldowns, breakers, fetch leases, geocoding answers.
///
/// WAL mode and a busy timeout, so several processes share the file safely. Writes run on the store's own thread (see
/// `Executor` and `Database`), which commits the writes queued together in one transaction; a read runs on its caller's
/// thread when SQLite answers it at once (`InlineReader`), else on a reader thread, so a read is never queued behind a
/// write waiting for another process's lock. An in-memory store has one thread for both and no inline reads. The user's cities and home are not here but in `UserDataStore`.
public final class Store: QueuedWriting {
    /// Settings of a store.
    public struct Options: Sendable, Equatable {
        /// Test aid: each job sleeps this long on the store's thread before running (that thread blocks, the pool never does);
        /// every read then goes to the store's thread (none is answered on its caller's, see `InlineReader`).
        public var artificialDelayPerJob: Duration?
        /// How long a write waits for another process's lock before it fails as `locked` (and the engine goes on without the
        /// cache for that step); `Int32.max` waits as long as the lock is held (tests that order events by holding it).
        public var lockWaitMilliseconds: Int32
        /// True to use a file that can only be read (`isobar cache stats`): reads answer and every write fails. Otherwise
        /// such a file is not used, and the store is in memory.
        public var acceptsReadOnly: Bool
        /// The wake-ups the HTTP transport's I/O thread holds while it runs a burst of jobs (see `HeldWakeups`): the writes
        /// those jobs queue here are then taken in one go, in one transaction. Nil to wake the store's threads at once.
        public var heldWakeups: HeldWakeups?

        /// Options; the defaults are what a real store uses.
        public init(artificialDelayPerJob: Duration? = nil, lockWaitMilliseconds: Int32 = Store.lockWaitMilliseconds,
                    acceptsReadOnly: Bool = false, heldWakeups: HeldWakeups? = nil) {
            self.artificialDelayPerJob = artificialDelayPerJob
            self.lockWaitMilliseconds = lockWaitMilliseconds
            self.acceptsReadOnly = acceptsReadOnly
            self.heldWakeups = heldWakeups
        }

        /// Equal when every setting is, the wake-ups by identity.
        public static func == (left: Options, right: Options) -> Bool {
            left.artificialDelayPerJob == right.artificialDelayPerJob && left.lockWaitMilliseconds == right.lockWaitMilliseconds
                && left.acceptsReadOnly == right.acceptsReadOnly && left.heldWakeups === right.heldWakeups
        }
    }

    /// The current schema version; `migrations[n]` upgrades from version n to n + 1.
    public static let schemaVersion = migrations.count
    /// How long a writer of the user's data waits for another process's lock.
    public static let busyTimeoutMilliseconds: Int32 = 5000
    /// How long a write to the cache waits for another process's lock by default: the cache is disposable and every step
    /// goes on without it, so a command never spends its deadline waiting for a lock held elsewhere.
    public static let lockWaitMilliseconds: Int32 = 1000

    /// The file, or `:memory:`.
    public var path: String { database.path }
    private let database: Database
    /// Writes queued without their callers waiting (see `QueuedWriting`).
    let queued = QueuedWrites()
    /// Whether any HTTP validator is kept: unknown until the first lookup (which then looks), then `none` while this process
    /// keeps none, so that lookups that cannot find anything are not made (see `Store.validation(for:)`).
    let validatorsKept = Atomic<Int>(ValidatorsKept.unknown)

    private init(_ database: Database) {
        self.database = database
    }

    /// A private store in memory, for tests and for when no file can be used; cheap, and waits for nothing.
    /// Throws only when its thread cannot start.
    public static func inMemory(options: Options = Options()) throws(StoreError) -> Store {
        Store(try Database.inMemory(schema: schema, busyTimeoutMilliseconds: options.lockWaitMilliseconds, delay: options.artificialDelayPerJob))
    }

    /// Opens `isobar.sqlite` in `directory` (created if needed, mode 0700; the files 0600). A damaged file is moved aside and rebuilt;
    /// a directory or file that cannot be used, or written, falls back to memory (answers, ledger, leases and all). Both say
    /// why through `warn`.
    /// Throws only when not even an in-memory store can be made. Asynchronous because opening may run on the store's own
    /// threads: a file that does not open at once on the caller's thread (a migration may wait for another process's lock,
    /// a damaged file is moved aside and rebuilt) is opened there.
    public static func open(directory: String, options: Options = Options(),
                            warn: @escaping @Sendable (String) -> Void) async throws(StoreError) -> Store {
        if PrivateFiles.makeFolder(directory) != nil {
            warn("cannot create the cache directory \(directory); using a temporary in-memory cache")
            return try inMemory(options: options)
        }
        let path = directory + "/isobar.sqlite"
        let recovery = Recovery(path: path, warn: warn)
        do throws(StoreError) {
            // A file that answers at once opens on this thread; moving a damaged file aside and migrating happen on the
            // writer's thread, before any reader opens (see `Database.open`).
            let database = try await Database.open(path: path, schema: schema, busyTimeoutMilliseconds: options.lockWaitMilliseconds,
                                                   pragmas: Self.cachePragmas,
                                                   delay: options.artificialDelayPerJob, recovery: recovery,
                                                   inlineReads: options.artificialDelayPerJob == nil, heldWakeups: options.heldWakeups)
            // A file SQLite could open only for reading would answer old entries and refuse every lease, permit and answer
            // kept: rate limits would then hold in no process. Memory keeps them for this one.
            if !options.acceptsReadOnly, try await database.isReadOnly() { throw PrivateFiles.readOnly(path) }
            return Store(database)
        } catch {
            let what = recovery.generation > 0 ? "cannot rebuild the cache" : "cannot use the cache"
            warn("\(what) \(path) (\(error.message)); using a temporary in-memory cache")
            return try inMemory(options: options)
        }
    }

    /// Run on each connection to the cache file: Debian's SQLite overwrites deleted rows with zeros by default, which
    /// writes every freed page again; nothing in the cache is secret (keys are never stored), so deleted rows are simply
    /// freed. (The user's own file, `UserDataStore`, keeps the default.)
    static let cachePragmas = "PRAGMA secure_delete=OFF;"

    /// `path`, or `memory` for a store in memory.
    public var location: String { path == ":memory:" ? "memory" : path }

    /// Runs `body` with the writes queued at the same time, in one `BEGIN IMMEDIATE` transaction, in its own savepoint;
    /// the writes queued without waiting before it (see `writeSoon`) run first, in the same transaction.
    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws(StoreError) -> T) async throws(StoreError) -> T {
        let queued = queued
        let taken = TakenWrites()
        let outcome: Result<T, StoreError>
        do {
            outcome = try await database.write { connection throws(StoreError) -> Result<T, StoreError> in
                guard try taken.run(from: queued, on: connection) else { return .success(try body(connection)) }
                // The queued writes ahead of it are kept whatever becomes of `body`: it runs in a savepoint of its own.
                try connection.query("SAVEPOINT body")
                do throws(StoreError) {
                    let value = try body(connection)
                    try connection.query("RELEASE body")
                    return .success(value)
                } catch {
                    if error.isCorruption { throw error }
                    try connection.execute("ROLLBACK TO body; RELEASE body")
                    return .failure(error)
                }
            }
        } catch {
            taken.fail(error)
            queued.settled(taken.taken)
            throw error
        }
        queued.settled(taken.taken)
        return try outcome.get()
    }

    /// Queues `body` to run in order ahead of the next write, without waiting for it; its failure goes to `failed`.
    /// Queued writes ride in the transaction of the next write asked for; when none is asked for within
    /// `queuedWritesDelay`, a write of their own commits them.
    /// `overlay` is what reads see meanwhile. `isOneStatement` says that `body` runs a single statement (see `TakenWrites`).
    func writeSoon(_ body: @escaping @Sendable (Connection) throws(StoreError) -> Void, failed: @escaping @Sendable (StorageError) -> Void,
                   overlay: QueuedWrites.Overlay? = nil, isOneStatement: Bool = false) {
        guard queued.append(QueuedWrites.Entry(body: body, failed: failed, overlay: overlay, isOneStatement: isOneStatement)) else { return }
        Task { [self] in
            try? await Task.sleep(for: Self.queuedWritesDelay)
            guard queued.startDrain() else { return }
            _ = try? await write { _ in }
        }
    }

    /// The longest a queued write waits for another write to take it before it is committed on its own.
    static let queuedWritesDelay = Duration.milliseconds(20)

    /// Runs `body` on the reader, in a deferred transaction of its own.
    @discardableResult
    func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws(StoreError) -> T) async throws(StoreError) -> T {
        try await database.read(body)
    }

    /// Runs `body` on the writer's connection outside any transaction (pragmas that cannot run inside one).
    @discardableResult
    func bare<T: Sendable>(_ body: @escaping @Sendable (Connection) throws(StoreError) -> T) async throws(StoreError) -> T {
        try await database.bare(body)
    }

    /// `write`, its failure told as a `StorageError` naming the file and the cause.
    @discardableResult
    func writing<T: Sendable>(_ body: @escaping @Sendable (Connection) throws(StoreError) -> T) async throws(StorageError) -> T {
        do {
            return try await write(body)
        } catch {
            throw StorageError(error.message)
        }
    }

    /// `read`, its failure told as a `StorageError` naming the file and the cause.
    @discardableResult
    func reading<T: Sendable>(_ body: @escaping @Sendable (Connection) throws(StoreError) -> T) async throws(StorageError) -> T {
        do {
            return try await read(body)
        } catch {
            throw StorageError(error.message)
        }
    }

    /// `reading` on the reader's thread only, for reads of whole tables (see `Database.scan`).
    func scanning<T: Sendable>(_ body: @escaping @Sendable (Connection) throws(StoreError) -> T) async throws(StorageError) -> T {
        do {
            return try await database.scan(body)
        } catch {
            throw StorageError(error.message)
        }
    }

    /// `reading` for a body that runs a single statement: its implicit transaction is its snapshot (see `Database.readOne`).
    @discardableResult
    func readingOne<T: Sendable>(_ body: @escaping @Sendable (Connection) throws(StoreError) -> T) async throws(StorageError) -> T {
        do {
            return try await database.readOne(body)
        } catch {
            throw StorageError(error.message)
        }
    }

    /// `readingOne` when it is answered at once on the caller's thread; nil when it would wait (see `Database.readOneAtOnce`).
    func readingOneAtOnce<T: Sendable>(_ body: (Connection) throws(StoreError) -> T) -> T? {
        database.readOneAtOnce(body)
    }

    /// Returns once every write queued without waiting so far is committed (or has reported its failure).
    public func flushQueuedWrites() async {
        guard !queued.isEmpty else { return }
        _ = try? await write { _ in }
    }

    /// Commits the writes queued without waiting, then, when this process wrote to the file, folds its WAL back into it
    /// and truncates it: called as a command that used the cache ends, so that the next command reads no WAL back.
    public func finishWriting() async {
        await flushQueuedWrites()
        await database.emptyWALIfWritten()
    }

    /// Write transactions committed so far (tests).
    var writeTransactions: Int { database.transactions }

    /// True on one of the store's own threads (tests).
    var isOwnThread: Bool { database.isOwnThread }

    /// Jobs the writer's thread has taken to run so far (tests): a write taken while another process holds the lock is
    /// waiting for it.
    var writerJobsTaken: Int { database.writerJobsTaken }

    /// Jobs the writer accepted so far (tests).
    var writerJobs: Int { database.writerJobs }

    /// Jobs the reader accepted so far (tests): reads answered on their callers' threads are not among them.
    var readerJobs: Int { database.readerJobs }

    /// The store's threads started so far (tests): none until a write, or a read the caller's thread cannot answer at once.
    var threadsStarted: Int { database.threadsStarted }

    /// Bytes on disk: the database file with its write-ahead log and its index (0 in memory).
    public var fileSize: Int {
        guard path != ":memory:" else { return 0 }
        return [path, path + "-wal", path + "-shm"].reduce(0) { total, file in
            var info = stat()
            return total + (stat(file, &info) == 0 ? Int(info.st_size) : 0)
        }
    }

    /// SQLite's integrity check: `ok` when the file is sound.
    public func integrityCheck() async throws(StoreError) -> String {
        try await database.scan { connection throws(StoreError) in try connection.query("PRAGMA integrity_check").first?.first?.text ?? "" }
    }
}
