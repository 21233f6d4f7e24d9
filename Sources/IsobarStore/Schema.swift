import CSQLite

/// A SQLite file's layout: its migrations, in order, and what the file is called in messages.
struct Schema: Sendable {
    /// How messages name the file: `the cache`, `your places`.
    let label: String
    /// `migrations[n]` upgrades the schema from version n to n + 1; released ones are never edited.
    let migrations: [String]

    /// The version a file has once every migration ran.
    var version: Int { migrations.count }

    /// Pages the WAL of a file that is not checkpointed at close may hold before a commit checkpoints it (a command that
    /// wrote empties it as it ends, see `Store.finishWriting`): every process's first connection reads the whole WAL to
    /// rebuild its index (2–3 µs of CPU a page), and each checkpoint syncs twice.
    static let autoCheckpointPages = 256

    /// Opens the file at `path` (or `:memory:`), in WAL mode for a file, with `pragmas` run first, and brings it up to date.
    /// With `checkpointOnClose` false, checkpoints are left to the commits that fill the WAL to `autoCheckpointPages`.
    func connect(_ path: String, busyTimeoutMilliseconds: Int32, pragmas: String = "",
                 checkpointOnClose: Bool = true) throws(StoreError) -> Connection {
        let connection = try Connection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        if !pragmas.isEmpty { try connection.execute(pragmas) }
        // Statement journals (a statement's undo within a transaction of several) stay in memory: they are a page or
        // two, and on disk each would be a file created, written and deleted.
        try connection.execute("PRAGMA temp_store=MEMORY;")
        if path != ":memory:" { try connection.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;") }
        if path != ":memory:" && !checkpointOnClose {
            try connection.leaveCheckpointsToAutoCheckpoint()
            try connection.execute("PRAGMA wal_autocheckpoint=\(Self.autoCheckpointPages);")
        }
        try migrate(connection)
        return connection
    }

    private func tooNew(_ found: Int, _ connection: Connection) -> StoreError {
        let cause = "it has schema version \(found), newer than this build's \(version): a newer isobar wrote it"
        return StoreError(code: SQLITE_MISMATCH, "\(label) \(connection.path) has schema version \(found), newer than this build's \(version)",
                          cause: cause)
    }

    /// A version below zero was never written by isobar: the file is damaged.
    private func damaged(_ found: Int, _ connection: Connection) -> StoreError {
        StoreError(code: SQLITE_CORRUPT, "\(label) \(connection.path) has schema version \(found), which isobar never writes",
                   cause: "it is damaged (schema version \(found))")
    }

    private func migrate(_ connection: Connection) throws(StoreError) {
        let found = try connection.query("PRAGMA user_version").first?.first?.int ?? 0
        guard found >= 0 else { throw damaged(found, connection) }
        guard found < version else {
            guard found == version else { throw tooNew(found, connection) }
            // Touch the schema so a file that is not a database fails here, not later.
            _ = try connection.query("SELECT count(*) FROM sqlite_master")
            return
        }
        try connection.execute("BEGIN IMMEDIATE")
        do throws(StoreError) {
            // Another connection may have migrated while this one waited for the lock.
            let current = try connection.query("PRAGMA user_version").first?.first?.int ?? 0
            guard current <= version else { throw tooNew(current, connection) }
            guard current >= 0 else { throw damaged(current, connection) }
            for migration in migrations[current...] { try connection.execute(migration) }
            try connection.execute("PRAGMA user_version = \(version); COMMIT")
        } catch {
            connection.rollback()
            throw error
        }
    }
}
