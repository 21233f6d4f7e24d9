import IsobarCore

/// One SQLite file served by the store's own threads: a writer that commits the writes queued together, and a reader.
///
/// Shared by the cache (`Store`) and the user's data (`UserDataStore`): each brings its schema, its connection settings and
/// whether damage is repaired (`Recovery`) or reported. An in-memory database has one thread for both.
final class Database: Sendable {
    /// The file, or `:memory:`.
    let path: String
    private let writer: Executor
    private let reader: Executor
    /// Connections a caller reads on from its own thread when one is free and SQLite answers at once; nil to send every
    /// read to the reader's thread.
    private let inline: InlineReader?
    /// Opens a connection to the file (on a store thread: it may wait).
    private let connect: (@Sendable () throws(StoreError) -> Connection)?
    /// True for a disposable file, whose WAL no connection folds back when it closes (see `emptyWALIfWritten`).
    private let keepsWALAtClose: Bool

    private init(path: String, writer: Executor, reader: Executor, inline: InlineReader? = nil,
                 connect: (@Sendable () throws(StoreError) -> Connection)? = nil, keepsWALAtClose: Bool = false) {
        self.path = path
        self.keepsWALAtClose = keepsWALAtClose
        self.writer = writer
        self.reader = reader
        self.inline = inline
        self.connect = connect
    }

    /// A private database in memory; throws only when its thread cannot start.
    static func inMemory(schema: Schema, busyTimeoutMilliseconds: Int32, delay: Duration?) throws(StoreError) -> Database {
        let executor = Executor(path: ":memory:", delay: delay, recovery: nil) { () throws(StoreError) -> Connection in
            try schema.connect(":memory:", busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
        return Database(path: ":memory:", writer: executor, reader: executor)
    }

    /// Opens the file at `path`. With `inlineReads`, the caller's thread opens it first, never waiting for a lock: when that
    /// succeeds (an existing, current, undamaged file nobody migrates at that moment) the connection becomes the first inline
    /// reader, and the store's threads start only with the first write, or the first read it cannot answer at once: a
    /// command answered from the cache starts none. Otherwise the writer's thread opens it (moving a damaged file aside when
    /// `recovery` is given, waiting for a lock) and migrates it before the reader opens it. With `separateReader` false,
    /// reads queue on the writer's thread. With `inlineReads`, a read runs on its caller's thread when it can without waiting
    /// (see `InlineReader`).
    ///
    /// A disposable file (one that `recovery` rebuilds: the cache) is not checkpointed when a connection closes: its WAL is
    /// emptied by `emptyWALIfWritten` when a command that wrote ends, and SQLite's auto-checkpoint keeps it short meanwhile.
    /// The user's data keeps SQLite's checkpoint at close.
    static func open(path: String, schema: Schema, busyTimeoutMilliseconds: Int32, pragmas: String = "", delay: Duration?,
                     recovery: Recovery?, separateReader: Bool = true, inlineReads: Bool = false,
                     heldWakeups: HeldWakeups? = nil) async throws(StoreError) -> Database {
        let checkpointOnClose = recovery == nil
        let connect: @Sendable () throws(StoreError) -> Connection = { () throws(StoreError) -> Connection in
            try schema.connect(path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, pragmas: pragmas, checkpointOnClose: checkpointOnClose)
        }
        let writer = Executor(path: path, delay: delay, recovery: recovery, heldWakeups: heldWakeups, connect: connect)
        guard separateReader else {
            try await writer.submit(.bare) { _ in }
            return Database(path: path, writer: writer, reader: writer, keepsWALAtClose: !checkpointOnClose)
        }
        let reader = Executor(path: path, delay: delay, recovery: recovery, heldWakeups: heldWakeups, connect: connect)
        guard inlineReads else {
            try await writer.submit(.bare) { _ in }
            try await reader.submit(.bare) { _ in }
            return Database(path: path, writer: writer, reader: reader, connect: connect, keepsWALAtClose: !checkpointOnClose)
        }
        let inline = InlineReader(recovery: recovery)
        // Anything but an answer at once (a lock, damage, a migration due, no file yet) is left to the threads, as before.
        if let opened = try? schema.connect(path, busyTimeoutMilliseconds: 0, pragmas: pragmas, checkpointOnClose: checkpointOnClose) {
            inline.adopt(opened)
        } else {
            try await writer.submit(.bare) { _ in }
            try await reader.submit(.bare) { _ in }
        }
        return Database(path: path, writer: writer, reader: reader, inline: inline, connect: connect, keepsWALAtClose: !checkpointOnClose)
    }

    /// True when the file can only be read: asked of the inline connection opened with the store when there is one, else of
    /// the writer's.
    func isReadOnly() async throws(StoreError) -> Bool {
        if let answer = inline?.attempt(snapshot: false, { $0.isReadOnly }) { return answer }
        return try await bare { $0.isReadOnly }
    }

    /// Runs `body` with the writes queued at the same time, in one `BEGIN IMMEDIATE` transaction, in its own savepoint.
    func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws(StoreError) -> T) async throws(StoreError) -> T {
        try await writer.submit(.grouped, body)
    }

    /// Runs `body` on the reader, in a deferred transaction of its own.
    func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws(StoreError) -> T) async throws(StoreError) -> T {
        if let value = inline?.attempt(snapshot: true, body) { return value }
        refillInlineIfNeeded()
        return try await reader.submit(.snapshot, body)
    }

    /// Runs `body` on the reader's thread, in a deferred transaction of its own, never inline: for reads of a whole table
    /// (statistics, integrity checks), which would hold a pool thread and an inline connection for long.
    func scan<T: Sendable>(_ body: @escaping @Sendable (Connection) throws(StoreError) -> T) async throws(StoreError) -> T {
        try await reader.submit(.snapshot, body)
    }

    /// Runs `body`, which runs one statement, on the reader outside an explicit transaction: the statement's own implicit
    /// one is its snapshot, and two round trips through SQLite (`BEGIN`, `COMMIT`) are saved.
    func readOne<T: Sendable>(_ body: @escaping @Sendable (Connection) throws(StoreError) -> T) async throws(StoreError) -> T {
        if let value = inline?.attempt(snapshot: false, body) { return value }
        refillInlineIfNeeded()
        return try await reader.submit(.bare, body)
    }

    /// `readOne` when it is answered at once on the caller's thread (see `InlineReader`); nil when it would have to wait
    /// for the reader's thread, or the store has no inline readers.
    func readOneAtOnce<T: Sendable>(_ body: (Connection) throws(StoreError) -> T) -> T? {
        inline?.attempt(snapshot: false, body)
    }

    /// Opens the inline readers' connections on the reader's thread, ahead of the read that found them missing or stale.
    private func refillInlineIfNeeded() {
        guard let inline, let connect, inline.needsRefill() else { return }
        reader.post(.bare) { _ in inline.refill(connect) }
    }

    /// Runs `body` on the writer's connection outside any transaction (pragmas that cannot run inside one).
    func bare<T: Sendable>(_ body: @escaping @Sendable (Connection) throws(StoreError) -> T) async throws(StoreError) -> T {
        try await writer.submit(.bare, body)
    }

    /// Folds the WAL of a disposable file back into it and truncates it, once this process committed to it (see
    /// `Connection.emptyWAL`): the next process to open the file, most often a command answered from the cache, then has
    /// no WAL to read back. Nothing for a file only read, or checkpointed at close.
    func emptyWALIfWritten() async {
        guard keepsWALAtClose, writer.transactions > 0 else { return }
        _ = try? await writer.submit(.bare) { connection in connection.emptyWAL() }
    }

    /// Write transactions committed so far (tests).
    var transactions: Int { writer.transactions }

    /// True on the writer's or the reader's thread (tests).
    var isOwnThread: Bool { writer.isCurrent || reader.isCurrent }

    /// The store's threads started so far: none, one or two (tests).
    var threadsStarted: Int { (writer.hasThread ? 1 : 0) + (reader !== writer && reader.hasThread ? 1 : 0) }

    /// Jobs the writer's thread has taken to run so far (tests).
    var writerJobsTaken: Int { writer.taken }

    /// Jobs the writer accepted so far (tests).
    var writerJobs: Int { writer.jobs }

    /// Jobs the reader accepted so far (tests); the same as `writerJobs` in memory.
    var readerJobs: Int { reader.jobs }
}
