import CSQLite
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Isobar's one SQLite file: response cache, rate-limit ledger, cooldowns, breakers and fetch locks.
///
/// WAL mode, a busy timeout, and every write in a short `BEGIN IMMEDIATE` transaction, so several processes share it safely.
public final class Store: @unchecked Sendable {
    /// The current schema version; `migrations[n]` upgrades from version n to n + 1.
    public static let schemaVersion = migrations.count
    /// How long a writer waits for another process's lock.
    public static let busyTimeoutMilliseconds: Int32 = 5000

    private static let migrations = [
        """
        CREATE TABLE cache(provider TEXT NOT NULL, kind TEXT NOT NULL, place_key TEXT NOT NULL,
                           fetched_at REAL NOT NULL, payload TEXT NOT NULL, PRIMARY KEY(provider, kind, place_key));
        CREATE TABLE rate_events(provider TEXT NOT NULL, at REAL NOT NULL, cost REAL NOT NULL);
        CREATE INDEX rate_events_by_provider ON rate_events(provider, at);
        CREATE TABLE cooldowns(provider TEXT PRIMARY KEY, until REAL NOT NULL, reason TEXT NOT NULL);
        CREATE TABLE breakers(provider TEXT PRIMARY KEY, failures INTEGER NOT NULL, opened_at REAL);
        CREATE TABLE fetch_locks(lock_key TEXT PRIMARY KEY, holder_pid INTEGER NOT NULL, acquired_at REAL NOT NULL);
        """,
        // A call counts until it is settled (its answer came back), or until its command's deadline if it never is.
        """
        ALTER TABLE rate_events ADD COLUMN deadline REAL;
        ALTER TABLE rate_events ADD COLUMN settled_at REAL;
        """,
        """
        CREATE TABLE favourites(position INTEGER PRIMARY KEY, name TEXT NOT NULL, admin_area TEXT, country_code TEXT,
                                latitude REAL NOT NULL, longitude REAL NOT NULL, timezone TEXT, added_at REAL NOT NULL);
        CREATE UNIQUE INDEX favourites_by_coordinates ON favourites(round(latitude, 3), round(longitude, 3));
        CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE geocoding(provider TEXT NOT NULL, query TEXT NOT NULL, fetched_at REAL NOT NULL, payload TEXT NOT NULL,
                               PRIMARY KEY(provider, query));
        """,
    ]

    // Safety: `connection` is read and replaced only while holding `lock`.
    private var connection: Connection
    private let lock = Mutex(())
    private let warn: @Sendable (String) -> Void
    /// The file, or `:memory:`.
    public let path: String

    private init(connection: Connection, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        path = connection.path
        self.connection = connection
        self.warn = warn
    }

    /// A private store in memory, for tests and for when no file can be used.
    public static func inMemory() throws(StoreError) -> Store {
        let connection = try Connection(path: ":memory:", busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try migrate(connection)
        return Store(connection: connection)
    }

    /// Opens `isobar.sqlite` in `directory` (created if needed). A damaged file is moved aside and rebuilt;
    /// a directory or file that cannot be used falls back to memory. Both say why through `warn`.
    /// Throws only when not even an in-memory store can be made.
    public static func open(directory: String, warn: @escaping @Sendable (String) -> Void) throws(StoreError) -> Store {
        let manager = FileManager.default
        let path = directory + "/isobar.sqlite"
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            warn("cannot create the cache directory \(directory); using a temporary in-memory cache")
            return try inMemory()
        }
        do {
            return try openFile(path, warn: warn)
        } catch where error.isCorruption {
            moveAside(path, warn: warn)
            do {
                return try openFile(path, warn: warn)
            } catch {
                warn("cannot rebuild the cache \(path) (\(error.message)); using a temporary in-memory cache")
                return try inMemory()
            }
        } catch {
            warn("cannot use the cache \(path) (\(error.message)); using a temporary in-memory cache")
            return try inMemory()
        }
    }

    private static func openFile(_ path: String, warn: @escaping @Sendable (String) -> Void) throws(StoreError) -> Store {
        Store(connection: try connect(path), warn: warn)
    }

    private static func connect(_ path: String) throws(StoreError) -> Connection {
        let connection = try Connection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try connection.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
        try migrate(connection)
        return connection
    }

    private static func moveAside(_ path: String, warn: (String) -> Void) {
        let manager = FileManager.default
        let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
        for suffix in ["", "-wal", "-shm"] where manager.fileExists(atPath: path + suffix) {
            try? manager.moveItem(atPath: path + suffix, toPath: aside + suffix)
        }
        warn("the cache \(path) was damaged; moved it to \(aside) and started a new one")
    }

    /// Damage found after opening: move the file aside, start a new one, and run `body` again on it.
    private func recovering<T>(_ body: (Connection) throws(StoreError) -> T) throws(StoreError) -> T {
        do {
            return try body(connection)
        } catch where error.isCorruption && path != ":memory:" {
            Self.moveAside(path, warn: warn)
            connection = try Self.connect(path)
            return try body(connection)
        }
    }

    private static func migrate(_ connection: Connection) throws(StoreError) {
        let version = try connection.query("PRAGMA user_version").first?.first?.int ?? 0
        guard version < schemaVersion else {
            guard version == schemaVersion else {
                throw StoreError(code: SQLITE_MISMATCH, "the cache \(connection.path) has schema version \(version), newer than this build's \(schemaVersion)")
            }
            // Touch the schema so a file that is not a database fails here, not later.
            _ = try connection.query("SELECT count(*) FROM sqlite_master")
            return
        }
        try connection.execute("BEGIN IMMEDIATE")
        do throws(StoreError) {
            let current = try connection.query("PRAGMA user_version").first?.first?.int ?? 0
            for migration in migrations[current...] { try connection.execute(migration) }
            try connection.execute("PRAGMA user_version = \(schemaVersion); COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction, committing on success and rolling back on error.
    @discardableResult
    func write<T: Sendable>(_ body: (Connection) throws(StoreError) -> T) throws(StoreError) -> T {
        try lock.withLock { _ throws(StoreError) -> T in
            try recovering { (connection) throws(StoreError) -> T in
                try connection.execute("BEGIN IMMEDIATE")
                do throws(StoreError) {
                    let result = try body(connection)
                    try connection.execute("COMMIT")
                    return result
                } catch {
                    try? connection.execute("ROLLBACK")
                    throw error
                }
            }
        }
    }

    /// Runs `body` on the connection without a write transaction.
    func read<T: Sendable>(_ body: (Connection) throws(StoreError) -> T) throws(StoreError) -> T {
        try lock.withLock { _ throws(StoreError) -> T in try recovering(body) }
    }

    /// Size of the database file in bytes (0 in memory).
    public var fileSize: Int {
        var info = stat()
        guard path != ":memory:", stat(path, &info) == 0 else { return 0 }
        return Int(info.st_size)
    }

    /// SQLite's integrity check: `ok` when the file is sound.
    public func integrityCheck() throws(StoreError) -> String {
        try read { connection throws(StoreError) in try connection.query("PRAGMA integrity_check").first?.first?.text ?? "" }
    }
}
