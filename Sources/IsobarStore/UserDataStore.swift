import CSQLite
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The user's own data — cities and home — in a SQLite file of its own, never disposable, kept apart from the cache.
///
/// Runs on the same machinery as the cache (`Database`: its own thread, group commit, WAL and a busy timeout, so several
/// processes change it safely) but fails differently: nothing falls back to memory and nothing damaged is moved aside or
/// rebuilt. Every failure is a `UserDataError` naming the file and the cause, so a change the user asked for either
/// lasts or is refused loudly.
public final class UserDataStore: Sendable {
    /// Settings of a user data store.
    public struct Options: Sendable, Equatable {
        /// How long a write waits for another process's lock before failing.
        public var busyTimeoutMilliseconds: Int32
        /// Test aid: the file may not grow beyond this many pages (SQLite's `max_page_count`), as on a full disk.
        public var maxPageCount: Int?

        /// Options; the defaults are what a real store uses.
        public init(busyTimeoutMilliseconds: Int32 = Store.busyTimeoutMilliseconds, maxPageCount: Int? = nil) {
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.maxPageCount = maxPageCount
        }
    }

    /// The file's name in its folder.
    public static let fileName = "places.sqlite"
    /// The current schema version.
    public static var schemaVersion: Int { schema.version }

    /// The file.
    public let path: String
    private let database: Database
    private let busyTimeoutMilliseconds: Int32

    private init(path: String, database: Database, busyTimeoutMilliseconds: Int32) {
        self.path = path
        self.database = database
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }

    /// Opens `places.sqlite` in `directory`, making the folder (mode 0700) and the file when needed.
    /// A folder or file that cannot be used, a damaged file or a newer schema is an error; nothing is moved, reset or replaced.
    public static func open(directory: String, options: Options = Options()) async throws(UserDataError) -> UserDataStore {
        try makeFolder(directory)
        let path = directory + "/" + fileName
        let pragmas = options.maxPageCount.map { "PRAGMA max_page_count = \($0);" } ?? ""
        do {
            // One thread: the user's data is small, and its reads and writes are few.
            let database = try await Database.open(path: path, schema: schema, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds,
                                                   pragmas: pragmas, delay: nil, recovery: nil, separateReader: false)
            return UserDataStore(path: path, database: database, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
        } catch {
            throw UserDataError(explained(error, directory: directory), .open, path: path, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
        }
    }

    /// SQLite says only "unable to open database file" when its folder is read-only (it cannot make the `-wal` and `-shm`
    /// files beside it); the folder's own answer names the cause.
    private static func explained(_ error: StoreError, directory: String) -> StoreError {
        guard error.code == SQLITE_CANTOPEN || error.code == SQLITE_READONLY, access(directory, W_OK) != 0 else { return error }
        let number = errno
        return StoreError(code: SQLITE_READONLY, error.message, cause: String(cString: strerror(number)), systemError: number)
    }

    /// Runs `body` in a write transaction (grouped with other writes queued at the same moment); a failure is a save error.
    func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws(StoreError) -> T) async throws(UserDataError) -> T {
        do {
            return try await database.write(body)
        } catch {
            throw UserDataError(error, .save, path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
    }

    /// Runs `body` in a read transaction of its own; a failure is a read error.
    func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws(StoreError) -> T) async throws(UserDataError) -> T {
        do {
            return try await database.read(body)
        } catch {
            throw UserDataError(error, .read, path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
    }

    /// SQLite's integrity check: `ok` when the file is sound.
    public func integrityCheck() async throws(UserDataError) -> String {
        try await read { connection throws(StoreError) in try connection.query("PRAGMA integrity_check").first?.first?.text ?? "" }
    }

    /// `mkdir -p` with mode 0700 for the folders it makes, failing with the system's reason.
    private static func makeFolder(_ directory: String) throws(UserDataError) {
        if let failure = PrivateFiles.makeFolder(directory) { throw UserDataError.folder(failure.folder, errorNumber: failure.errorNumber) }
    }
}
