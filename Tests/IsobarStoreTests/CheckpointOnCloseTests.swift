import Foundation
@testable import IsobarStore
import Testing

/// A connection that closes last checkpoints the file and deletes its WAL, unless told to leave checkpoints to SQLite's
/// auto-checkpoint (the cache); either way nothing written is lost.
@Suite struct CheckpointOnCloseTests {
    private let schema = Schema(label: "a test file", migrations: ["CREATE TABLE notes(text TEXT NOT NULL);"])

    private func write(_ path: String, checkpointOnClose: Bool) throws {
        let connection = try schema.connect(path, busyTimeoutMilliseconds: 1000, checkpointOnClose: checkpointOnClose)
        try connection.execute("INSERT INTO notes(text) VALUES ('kept')")
    }

    private func walSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int
    }

    @Test func aFileLeftToAutoCheckpointKeepsItsWALAtCloseAndLosesNothing() throws {
        let path = freshDirectory() + "/cache.sqlite"
        try write(path, checkpointOnClose: false)
        #expect((walSize(path) ?? 0) > 0)
        let reopened = try schema.connect(path, busyTimeoutMilliseconds: 1000, checkpointOnClose: false)
        #expect(try reopened.query("SELECT text FROM notes") == [[.text("kept")]])
        #expect(try reopened.query("PRAGMA wal_autocheckpoint").first?.first?.int == Schema.autoCheckpointPages)
    }

    @Test func aFileCheckpointedAtCloseHasNoWALLeft() throws {
        let path = freshDirectory() + "/data.sqlite"
        try write(path, checkpointOnClose: true)
        #expect(walSize(path) == nil)
        let reopened = try schema.connect(path, busyTimeoutMilliseconds: 1000)
        #expect(try reopened.query("SELECT text FROM notes") == [[.text("kept")]])
    }

    @Test func anInMemoryDatabaseIgnoresTheSetting() throws {
        let connection = try schema.connect(":memory:", busyTimeoutMilliseconds: 1000, checkpointOnClose: false)
        try connection.execute("INSERT INTO notes(text) VALUES ('kept')")
        #expect(try connection.query("SELECT count(*) FROM notes") == [[.integer(1)]])
    }
}

/// The cache leaves its checkpoints to SQLite's auto-checkpoint; the user's data is checkpointed when closed.
@Suite struct StoreCheckpointSettingTests {
    @Test func theCacheIsCheckpointedEveryFewHundredPagesRatherThanAtClose() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        #expect(try await scalar(store, "PRAGMA wal_autocheckpoint")?.int == Schema.autoCheckpointPages)
    }

    @Test func theUsersDataKeepsSQLitesDefaultCheckpoints() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        let pages = try await store.read { (connection) throws(StoreError) -> Int? in try connection.query("PRAGMA wal_autocheckpoint").first?.first?.int }
        #expect(pages == 1000)
    }
}
