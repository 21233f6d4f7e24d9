import CSQLite
import Foundation
@testable import IsobarStore
import Testing

/// The SQLite settings every store connection has.
@Suite struct SQLiteSettingsTests {
    @Test func storeConnectionsFreeDeletedRowsWithoutOverwritingThem() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let rows = try await store.reading { connection throws(StoreError) in try connection.query("PRAGMA secure_delete") }
        #expect(rows == [[.integer(0)]])
        let written = try await store.writing { connection throws(StoreError) in try connection.query("PRAGMA secure_delete") }
        #expect(written == [[.integer(0)]])
    }

    @Test func theUsersOwnFileKeepsOverwritingDeletedRows() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        let rows = try await store.read { connection throws(StoreError) in try connection.query("PRAGMA secure_delete") }
        let builtIn = try Connection(path: ":memory:", busyTimeoutMilliseconds: 0).query("PRAGMA secure_delete")
        #expect(rows == builtIn)
    }

    @Test func sqliteKeepsNoMemoryStatistics() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        try await store.writing { connection throws(StoreError) in
            try connection.query("INSERT INTO cooldowns(provider, until, reason) VALUES ('a', 1, 'x')")
        }
        // Counted, the memory in use would be well above zero with a connection open. (The setting is made before SQLite
        // starts, by the first `Connection`: a test calling SQLite directly before any store opens would keep the counting.)
        #expect(sqlite3_memory_used() == 0)
    }
}
