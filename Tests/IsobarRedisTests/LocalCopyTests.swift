import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRedis
import IsobarTestKit
import Synchronization
import Testing

/// A response cache whose writes wait until `open()`; reads and writes go to a memory store.
final class GatedCache: ResponseCache {
    let base = MemoryStorage()
    private let opened = Mutex(false)
    private let writes = Mutex(0)

    /// Lets every write through, now and later.
    func open() { opened.withLock { $0 = true } }

    /// Writes begun so far.
    var writesBegun: Int { writes.withLock { $0 } }

    func entry(for key: CacheKey) async throws(StorageError) -> CacheEntry? { try await base.entry(for: key) }

    func store(_ entry: CacheEntry, for key: CacheKey) async throws(StorageError) {
        writes.withLock { $0 += 1 }
        while !opened.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(2)) }
        try await base.store(entry, for: key)
    }

    func removeEntry(for key: CacheKey) async throws(StorageError) { try await base.removeEntry(for: key) }
}

@Suite(.enabled(if: redisInstalled, redisMissing)) struct LocalCopyTests {
    let key = CacheKey(provider: "p", slot: .current, placeKey: "1,2")

    func compose(_ server: RedisTestServer, cache: GatedCache) throws -> (EngineStorage, SharedStoreState) {
        let state = SharedStoreState(fallback: "using the local store", warn: { _ in })
        let local = MemoryStorage()
        let storage = EngineStorage(cache: cache, ledger: local, cooldowns: local, breakers: local, locks: local, validators: local)
        let shared = RedisStore(url: try RedisURL(parsing: server.url), timeoutMilliseconds: 2000)
        return (SharedStorage.compose(local: storage, shared: shared, state: state, expectedMachines: 1, isFresh: { _, _ in true }), state)
    }

    @Test func theSharedAnswerIsServedBeforeItsLocalCopyIsWrittenAndTheCopyIsDoneWhenTheCommandFinishes() async throws {
        let server = try RedisTestServer()
        let cache = GatedCache()
        let (storage, state) = try compose(server, cache: cache)
        let entry = CacheEntry(fetchedAt: t0, payload: "far", lifetimeSeconds: 60)
        try await RedisStore(url: try RedisURL(parsing: server.url)).store(entry, for: key)

        #expect(try await storage.cache.entry(for: key) == entry)
        #expect(try await cache.base.entry(for: key) == nil, "the answer waited for its local copy")
        let finished = Task { await state.finish() }
        try await Task.sleep(for: .milliseconds(50))
        #expect(cache.writesBegun == 1)
        cache.open()
        await finished.value
        #expect(try await cache.base.entry(for: key) == entry)
    }

    @Test func anAnswerStoredWhileTheCopyIsWrittenLandsLast() async throws {
        let server = try RedisTestServer()
        let cache = GatedCache()
        let (storage, state) = try compose(server, cache: cache)
        try await RedisStore(url: try RedisURL(parsing: server.url)).store(CacheEntry(fetchedAt: t0, payload: "old"), for: key)
        #expect(try await storage.cache.entry(for: key)?.payload == "old")
        let newer = CacheEntry(fetchedAt: t0.addingTimeInterval(60), payload: "new")
        let stored = Task { try await storage.cache.store(newer, for: key) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(cache.writesBegun == 1, "the new answer was written before the copy of the old one")
        cache.open()
        try await stored.value
        await state.finish()
        #expect(try await cache.base.entry(for: key) == newer)
    }

    @Test func aReadOfAnAnswerWhoseCopyIsBeingWrittenWaitsForIt() async throws {
        let server = try RedisTestServer()
        let cache = GatedCache()
        let (storage, _) = try compose(server, cache: cache)
        let shared = RedisStore(url: try RedisURL(parsing: server.url))
        let entry = CacheEntry(fetchedAt: t0, payload: "first")
        try await shared.store(entry, for: key)
        #expect(try await storage.cache.entry(for: key) == entry)
        try await shared.removeEntry(for: key)
        let read = Task { try await storage.cache.entry(for: key) }
        try await Task.sleep(for: .milliseconds(50))
        cache.open()
        #expect(try await read.value == entry, "the second read missed the copy and the server")
    }

    @Test func finishingWithNothingToWriteReturnsAtOnce() async {
        await SharedStoreState(fallback: "", warn: { _ in }).finish()
    }
}
