import Foundation
import IsobarCore
import IsobarEngine
@testable import IsobarStore
import Testing

/// A command that wrote to the cache leaves no WAL for the next command to read back (`Store.finishWriting`); one that only
/// read leaves the file as it found it; another connection reading the file is never waited for.
@Suite struct EmptyWALTests {
    private func walSize(_ directory: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: directory + "/isobar.sqlite-wal"))?[.size] as? Int
    }

    /// A connection as another process has it: no checkpoint when it closes.
    private func otherConnection(_ directory: String) throws -> Connection {
        try Store.schema.connect(directory + "/isobar.sqlite", busyTimeoutMilliseconds: 1000, pragmas: Store.cachePragmas,
                                 checkpointOnClose: false)
    }

    @Test func aStoreThatWroteIsLeftWithAnEmptyWALAndLosesNothing() async throws {
        let directory = freshDirectory()
        let store = try await Store.open(directory: directory, warn: noWarnings)
        try await store.store(CacheEntry(fetchedAt: Date(), payload: "kept"), for: key("a"))
        #expect((walSize(directory) ?? 0) > 0)
        await store.finishWriting()
        #expect(walSize(directory) == 0)
        let other = try otherConnection(directory)
        #expect(try other.query("SELECT payload FROM cache") == [[.text("kept")]])
    }

    @Test func writesQueuedWithoutWaitingAreCommittedFirst() async throws {
        let directory = freshDirectory()
        let store = try await Store.open(directory: directory, warn: noWarnings)
        await store.storeSoon(CacheEntry(fetchedAt: Date(), payload: "queued"), for: key("a"), failed: { _ in })
        await store.finishWriting()
        #expect(walSize(directory) == 0)
        #expect(try await store.entry(for: key("a"))?.payload == "queued")
    }

    @Test func aStoreThatOnlyReadLeavesTheWALAsItFoundItAndStartsNoThread() async throws {
        let directory = freshDirectory()
        let writer = try await Store.open(directory: directory, warn: noWarnings)
        try await writer.store(CacheEntry(fetchedAt: Date(), payload: "kept"), for: key("a"))
        await writer.finishWriting()
        // A WAL left by a writer that could not empty it (killed, or another process was reading then).
        do {
            let other = try otherConnection(directory)
            try other.execute("INSERT INTO settings(key, value) VALUES ('left', 'in the WAL')")
        }
        let left = try #require(walSize(directory))
        #expect(left > 0)
        let store = try await Store.open(directory: directory, warn: noWarnings)
        #expect(try await store.entry(for: key("a"))?.payload == "kept")
        await store.finishWriting()
        #expect(store.threadsStarted == 0)
        #expect(walSize(directory) == left)
    }

    @Test func aReaderInAnotherConnectionIsNotWaitedForAndNothingIsLost() async throws {
        let directory = freshDirectory()
        let store = try await Store.open(directory: directory, warn: noWarnings)
        try await store.store(CacheEntry(fetchedAt: Date(), payload: "first"), for: key("a"))
        // A read transaction over the WAL the store wrote: no checkpoint may truncate that WAL under it.
        let reader = try otherConnection(directory)
        try reader.execute("BEGIN")
        #expect(try reader.query("SELECT count(*) FROM cache") == [[.integer(1)]])
        await store.finishWriting()
        #expect((walSize(directory) ?? 0) > 0, "left for a later command")
        try reader.execute("COMMIT")
        #expect(try await store.entry(for: key("a"))?.payload == "first")
        try await store.store(CacheEntry(fetchedAt: Date(), payload: "second"), for: key("b"))
        await store.finishWriting()
        #expect(walSize(directory) == 0)
        #expect(try reader.query("SELECT count(*) FROM cache") == [[.integer(2)]])
    }

    @Test func aCacheInMemoryHasNothingToEmpty() async throws {
        let store = try Store.inMemory()
        try await store.store(CacheEntry(fetchedAt: Date(), payload: "kept"), for: key("a"))
        await store.finishWriting()
        #expect(try await store.entry(for: key("a"))?.payload == "kept")
    }
}
