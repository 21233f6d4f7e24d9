import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// A failure of the store; messages name the file, never data.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite's primary result code (e.g. 5 for busy, 11 for corrupt, 26 for not a database).
    public let code: Int32
    /// One line for people.
    public let message: String
    /// The cause alone, without the file: SQLite's own words, and the system's when the disk refused.
    public let cause: String
    /// The system's error number behind an I/O failure (`ENOSPC`, `EROFS`…), or 0.
    public let systemError: Int32
    /// Creates the error; `cause` defaults to the message.
    public init(code: Int32, _ message: String, cause: String? = nil, systemError: Int32 = 0) {
        self.code = code
        self.message = message
        self.cause = cause ?? message
        self.systemError = systemError
    }
    /// The message.
    public var description: String { message }
    /// True when the file is damaged or not a database.
    public var isCorruption: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
}

/// One SQLite connection, opened in SQLite's multi-thread mode: usable from any thread, but by one at a time.
///
/// Safety of `@unchecked Sendable`: a connection is used by one thread at a time — the thread of the `Executor` that owns
/// it, or, for an `InlineReader`'s connections, whichever thread holds that slot's lock; it is never used by two at once.
final class Connection: @unchecked Sendable {
    private let handle: OpaquePointer
    let path: String
    /// Statements `query` prepared, kept for the next run of the same SQL (a store runs a few dozen distinct statements,
    /// thousands of times in a batch); at most `maxKeptStatements`.
    private var kept: [String: Statement] = [:]
    /// The most statements kept prepared.
    static let maxKeptStatements = 64
    /// The text arguments of the statement running, read by SQLite in place.
    private let boundText = BoundText()

    /// Opens (creating if needed) the database at `path`, or an in-memory one for `:memory:`; `readOnly` neither creates nor writes.
    init(path: String, busyTimeoutMilliseconds: Int32, readOnly: Bool = false) throws(StoreError) {
        _ = Self.configured
        var opened: OpaquePointer?
        if !readOnly && path != ":memory:" { PrivateFiles.prepareDatabase(path) }
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let result = sqlite3_open_v2(path, &opened, flags, nil)
        guard result == SQLITE_OK, let opened else {
            let cause = opened.map { Self.cause(result, $0) } ?? "cannot open"
            if let opened { sqlite3_close_v2(opened) }
            throw StoreError(code: result & 0xff, "cannot open the store \(path): \(cause)", cause: cause,
                             systemError: opened.map(sqlite3_system_errno) ?? 0)
        }
        handle = opened
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    /// True when SQLite opened the file read-only although it was asked to write: the file, its folder or its file system
    /// refuses writes (SQLite then answers reads and fails every write).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// SQLite's process-wide settings, made before the first connection starts it: no memory statistics (nothing here
    /// reads them, and keeping them locks a mutex around every allocation), and cache pages allocated as they are needed
    /// rather than twenty at once (see `isobar_sqlite_allocate_cache_pages_on_demand`).
    private static let configured: Void = {
        _ = isobar_sqlite_keep_no_memory_statistics()
        _ = isobar_sqlite_allocate_cache_pages_on_demand()
    }()

    deinit {
        kept = [:]
        sqlite3_close_v2(handle)
    }

    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`; 0 fails at once.
    private(set) var busyTimeoutMilliseconds: Int32

    /// Sets `busyTimeoutMilliseconds`.
    func setBusyTimeout(milliseconds: Int32) {
        busyTimeoutMilliseconds = milliseconds
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Leaves checkpoints to SQLite's auto-checkpoint (run by the commit that fills the WAL to `wal_autocheckpoint` pages)
    /// and to `emptyWAL`: closing the last connection then neither checkpoints nor deletes the WAL, so a process that only
    /// read never waits for the disk at its exit.
    func leaveCheckpointsToAutoCheckpoint() throws(StoreError) {
        let result = isobar_sqlite_no_checkpoint_on_close(handle)
        guard result == SQLITE_OK else { throw error(result) }
    }

    /// Folds the WAL back into the file and truncates it to nothing (two to four syncs), so that the next process to open
    /// the file has no WAL to read back; left as it is, without waiting, while another connection reads or writes it.
    func emptyWAL() {
        sqlite3_busy_timeout(handle, 0)
        _ = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(StoreError) {
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw error(result) }
    }

    /// Prepares a statement.
    func prepare(_ sql: String) throws(StoreError) -> Statement {
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard result == SQLITE_OK, let statement else { throw error(result) }
        return Statement(statement, connection: self)
    }

    /// Runs one statement with arguments and returns every row.
    @discardableResult
    func query(_ sql: String, _ arguments: [SQLValue] = []) throws(StoreError) -> [[SQLValue]] {
        let statement = try reusable(sql)
        // Reset even when a step throws, so that a kept statement never holds a read open or a stale binding.
        defer { statement.reset() }
        try statement.bind(arguments, texts: boundText)
        var rows: [[SQLValue]] = []
        while try statement.step() { rows.append(statement.row()) }
        return rows
    }

    /// The kept statement for `sql`, prepared now when there is none.
    private func reusable(_ sql: String) throws(StoreError) -> Statement {
        if let statement = kept[sql] { return statement }
        let statement = try prepare(sql)
        if kept.count >= Self.maxKeptStatements { kept.removeAll() }
        kept[sql] = statement
        return statement
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The rowid of the last row inserted.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// True while a transaction is open; SQLite ends one by itself after some errors (busy, full, I/O).
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Rolls back the open transaction, if any. Its result is not needed: when it fails the transaction is already gone.
    func rollback() {
        guard isInTransaction else { return }
        _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }

    func error(_ result: Int32) -> StoreError {
        let cause = Self.cause(result, handle)
        let system = Self.isSystemFailure(result) ? sqlite3_system_errno(handle) : 0
        return StoreError(code: result & 0xff, "store \(path): \(cause)", cause: cause, systemError: system)
    }

    /// SQLite's message, with the system's when the disk or the file system refused.
    private static func cause(_ result: Int32, _ handle: OpaquePointer) -> String {
        let message = String(cString: sqlite3_errmsg(handle))
        let system = sqlite3_system_errno(handle)
        guard isSystemFailure(result), system != 0 else { return message }
        return "\(message): \(String(cString: strerror(system)))"
    }

    /// Failures where the operating system's error number says more than SQLite's.
    private static func isSystemFailure(_ result: Int32) -> Bool {
        [SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_FULL, SQLITE_READONLY].contains(result & 0xff)
    }
}

/// A value read from or bound to SQLite.
enum SQLValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    var double: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    var int: Int? {
        switch self {
        case .integer(let value): Int(value)
        case .real(let value): Int(exactly: value)
        default: nil
        }
    }

    var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}

/// A prepared statement; finalised when released.
final class Statement {
    private let handle: OpaquePointer
    // Unowned: a connection keeps its statements, and outlives them (it finalises them before it closes).
    private unowned let connection: Connection

    init(_ handle: OpaquePointer, connection: Connection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Makes the statement ready to run again, its bindings cleared.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values` in order; texts are copied into `texts`, which must stay untouched until `reset`.
    func bind(_ values: [SQLValue], texts: BoundText) throws(StoreError) {
        texts.reserve(for: values)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case .null: result = sqlite3_bind_null(handle, index)
            case .integer(let number): result = sqlite3_bind_int64(handle, index, number)
            case .real(let number): result = sqlite3_bind_double(handle, index, number)
            case .text(let text):
                // A nil destructor is SQLITE_STATIC: SQLite reads the bytes in place until the statement is reset.
                let (start, length) = texts.copy(text)
                result = sqlite3_bind_text(handle, index, start, length, nil)
            }
            guard result == SQLITE_OK else { throw connection.error(result) }
        }
    }

    /// Advances; true when a row is ready.
    func step() throws(StoreError) -> Bool {
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(result)
        }
    }

    func row() -> [SQLValue] {
        (0..<sqlite3_column_count(handle)).map { column in
            switch sqlite3_column_type(handle, column) {
            case SQLITE_INTEGER: .integer(sqlite3_column_int64(handle, column))
            case SQLITE_FLOAT: .real(sqlite3_column_double(handle, column))
            case SQLITE_TEXT, SQLITE_BLOB:
                sqlite3_column_text(handle, column).map { text in
                    .text(String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self))
                } ?? .null
            default: .null
            }
        }
    }
}
