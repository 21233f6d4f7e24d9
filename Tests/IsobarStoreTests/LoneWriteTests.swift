import Foundation
import IsobarEngine
@testable import IsobarStore
import Testing

/// A write job alone in its transaction, which runs without a savepoint.
@Suite struct LoneWriteTests {
    @Test func aLoneWriteThatFailsLeavesNothingOfItselfAndTheNextOneGoesIn() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let before = store.writeTransactions
        await #expect(throws: StoreError.self) {
            try await store.write { connection throws(StoreError) in
                try connection.query("INSERT INTO cooldowns(provider, until, reason) VALUES ('a', 1, 'x')")
                try connection.query("INSERT INTO cooldowns(provider, until, reason) VALUES ('a', 2, 'duplicate')")
            }
        }
        #expect(store.writeTransactions == before, "a failed lone write commits nothing")
        try await store.write { connection throws(StoreError) in
            try connection.query("INSERT INTO cooldowns(provider, until, reason) VALUES ('b', 3, 'y')")
        }
        #expect(store.writeTransactions == before + 1)
        let rows = try await store.reading { connection throws(StoreError) in try connection.query("SELECT provider FROM cooldowns") }
        #expect(rows == [[.text("b")]])
    }

    @Test func aLoneWriteReturnsItsValueOnceCommitted() async throws {
        let directory = freshDirectory()
        let store = try await Store.open(directory: directory, warn: noWarnings)
        let changed = try await store.write { connection throws(StoreError) -> Int in
            try connection.query("INSERT INTO cooldowns(provider, until, reason) VALUES ('a', 1, 'x'), ('b', 2, 'y')")
            return connection.changes
        }
        #expect(changed == 2)
        let reopened = try await Store.open(directory: directory, warn: noWarnings)
        #expect(try await reopened.reading { connection throws(StoreError) in try connection.query("SELECT count(*) FROM cooldowns") } == [[.integer(2)]])
    }
}
