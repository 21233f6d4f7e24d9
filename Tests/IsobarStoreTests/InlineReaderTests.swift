import CSQLite
import Foundation
import IsobarCore
import IsobarEngine
@testable import IsobarStore
import Testing

/// Reads until one is answered on the caller's thread (the inline connections open on the reader's thread once a few reads
/// went there); false when none is within a few seconds.
private func readsInline(_ store: Store, _ key: CacheKey) async throws -> Bool {
    for _ in 0..<500 {
        let before = store.readerJobs
        _ = try await store.entry(for: key)
        if store.readerJobs == before { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return false
}

@Suite struct InlineReaderTests {
    let now = Date(timeIntervalSince1970: 1_795_856_400)

    @Test func readsAreAnsweredOnTheCallersThreadAndSeeEveryCommittedWrite() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        try await store.store(CacheEntry(fetchedAt: now, payload: "first"), for: key("k"))
        #expect(try await readsInline(store, key("k")))
        let before = store.readerJobs
        for index in 0..<20 {
            try await store.store(CacheEntry(fetchedAt: now, payload: "v\(index)"), for: key("k"))
            #expect(try await store.entry(for: key("k"))?.payload == "v\(index)")
            _ = try await store.recordOutcome(provider: "p", succeeded: false, threshold: 100, now: now)
            #expect(try await store.health(provider: "p", now: now).breaker.failures == index + 1)
        }
        #expect(store.readerJobs == before, "\(store.readerJobs - before) reads went to the reader's thread")
        // A read of whole tables never holds an inline connection: it goes to the reader's thread.
        #expect(try await store.statistics().groups.first?.count == 1)
        #expect(store.readerJobs == before + 1)
    }

    @Test func aReadTheInlineConnectionCannotAnswerAtOnceGoesToTheReaderThread() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        try await store.store(CacheEntry(fetchedAt: now, payload: "x"), for: key("k"))
        #expect(try await readsInline(store, key("k")))
        let before = store.readerJobs
        // The inline connections never wait for a lock: there, SQLite would say busy, as here.
        let waited = try await store.read { (connection) throws(StoreError) -> Int32 in
            guard connection.busyTimeoutMilliseconds > 0 else { throw StoreError(code: SQLITE_BUSY, "database is locked") }
            return connection.busyTimeoutMilliseconds
        }
        #expect(waited == Store.lockWaitMilliseconds)
        #expect(store.readerJobs == before + 1)
        let alone = try await store.readingOne { (connection) throws(StoreError) -> Int32 in
            guard connection.busyTimeoutMilliseconds > 0 else { throw StoreError(code: SQLITE_BUSY, "database is locked") }
            return connection.busyTimeoutMilliseconds
        }
        #expect(alone == Store.lockWaitMilliseconds)
        #expect(store.readerJobs == before + 2)
        // An error the reader's thread also meets is reported from there, as before.
        let error = await #expect(throws: StoreError.self) {
            try await store.read { (connection) throws(StoreError) in try connection.query("SELECT * FROM no_such_table") }
        }
        #expect(error?.message.contains("no such table") == true)
        #expect(store.readerJobs == before + 3)
    }

    @Test func anotherProcesssWriteLockLeavesReadsInline() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        try await store.store(CacheEntry(fetchedAt: now, payload: "committed"), for: key("k"))
        #expect(try await readsInline(store, key("k")))
        let holder = try holdWriteLock(of: store)
        try holder.query("INSERT OR REPLACE INTO cache(provider, kind, place_key, fetched_at, payload) VALUES ('p', 'current', 'k', 1, 'uncommitted')")
        let before = store.readerJobs
        #expect(try await store.entry(for: key("k"))?.payload == "committed")
        #expect(try await store.health(provider: "p", now: now).cooldown == nil)
        #expect(store.readerJobs == before)
        try holder.execute("COMMIT")
        #expect(try await store.entry(for: key("k"))?.payload == "uncommitted")
    }

    @Test func aStoreOnlyReadFromStartsNoThreadAndOpensOneConnection() async throws {
        let directory = freshDirectory()
        do {
            let first = try await Store.open(directory: directory, warn: noWarnings)
            try await first.store(CacheEntry(fetchedAt: now, payload: "kept"), for: key("k"))
        }
        let store = try await Store.open(directory: directory, warn: noWarnings)
        // Opened on this thread: the reads of a cache hit are answered here, and no thread of the store has started.
        #expect(try await store.entry(for: key("k"))?.payload == "kept")
        #expect(try await store.health(provider: "p", now: now).cooldown == nil)
        #expect(store.readerJobs == 0)
        #expect(store.threadsStarted == 0)
        // A write starts the writer's thread alone; the reads stay here and see it.
        try await store.store(CacheEntry(fetchedAt: now, payload: "new"), for: key("k"))
        #expect(store.threadsStarted == 1)
        #expect(try await store.entry(for: key("k"))?.payload == "new")
        #expect(store.readerJobs == 0)
        // A read this thread cannot answer at once starts the reader's.
        let waited = try await store.read { (connection) throws(StoreError) -> Int32 in
            guard connection.busyTimeoutMilliseconds > 0 else { throw StoreError(code: SQLITE_BUSY, "database is locked") }
            return connection.busyTimeoutMilliseconds
        }
        #expect(waited == Store.lockWaitMilliseconds)
        #expect(store.readerJobs == 1)
        #expect(store.threadsStarted == 2)
    }

    @Test func theOtherInlineConnectionsOpenOnceReadsGoToTheThreadOften() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let declined: @Sendable (Connection) throws(StoreError) -> Int32 = { connection throws(StoreError) in
            guard connection.busyTimeoutMilliseconds > 0 else { throw StoreError(code: SQLITE_BUSY, "database is locked") }
            return connection.busyTimeoutMilliseconds
        }
        for _ in 0..<(InlineReader.readsBeforeOpening - 1) { _ = try await store.read(declined) }
        // Every such read went to the reader's thread, and nothing else did (the other connection is not opened yet).
        #expect(store.readerJobs == InlineReader.readsBeforeOpening - 1)
        _ = try await store.read(declined)
        #expect(store.readerJobs == InlineReader.readsBeforeOpening + 1)
        // The refill ran on the reader's thread (the one job more); reads are still answered here.
        #expect(try await readsInline(store, key("k")))
    }

    @Test func aSlowStoreReadsOnlyOnItsThread() async throws {
        let store = try await Store.open(directory: freshDirectory(), options: Store.Options(artificialDelayPerJob: .milliseconds(1)),
                                         warn: noWarnings)
        let before = store.readerJobs
        for _ in 0..<5 { _ = try await store.entry(for: key("k")) }
        #expect(store.readerJobs == before + 5)
    }

    @Test func afterARebuildReadsSeeTheNewFileAndGoInlineAgain() async throws {
        let directory = try await damagedCacheDirectory()
        let warnings = Warnings()
        let store = try await Store.open(directory: directory, warn: warnings.add)
        // The reader's thread finds the damage and rebuilds the file; the inline connections open on the new one.
        #expect(try await store.statistics() == CacheStatistics(groups: [], payloadBytes: 0))
        #expect(warnings.all.count == 1)
        try await store.store(CacheEntry(fetchedAt: now, payload: "after"), for: key("k"))
        #expect(try await readsInline(store, key("k")))
        #expect(try await store.entry(for: key("k"))?.payload == "after")
        #expect(try await store.entry(for: key("1")) == nil)
        #expect(try await store.statistics().groups.first?.count == 1)
        #expect(warnings.all.count == 1)
    }
}
