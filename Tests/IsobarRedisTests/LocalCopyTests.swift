import FoundationEssentials
import IsobarCore
import IsobarEngine
@testable import IsobarRedis
import IsobarTestKit
import Synchronization
import Testing

/// A response cache whose writes wait at a gate until `open()`; reads and writes go to a memory store.
final class GatedCache: ResponseCache {
    let base = MemoryStorage()
    private let gate = TestGate()

    /// Lets every write through, now and later.
    func open() { gate.open() }

    /// Writes begun so far (each waits at the gate until it is open).
    var writesBegun: Int { gate.arrivals }

    func entry(for key: CacheKey) async throws(StorageError) -> CacheEntry? { try await base.entry(for: key) }

    func store(_ entry: CacheEntry, for key: CacheKey) async throws(StorageError) {
        await gate.wait()
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
        let done = Mutex(false)
        let finished = Task {
            await state.finish()
            done.withLock { $0 = true }
        }
        // The copy is being written (held at the gate), and finishing waits for it.
        #expect(await eventually { cache.writesBegun == 1 })
        #expect(await eventually { state.writes.count == 1 && !done.withLock { $0 } })
        #expect(!done.withLock { $0 }, "finishing did not wait for the copy")
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
        #expect(await eventually { cache.writesBegun == 1 })
        let stored = Task { try await storage.cache.store(newer, for: key) }
        // The new answer waits for the copy of the old one: it has not begun its own local write.
        #expect(await eventually { state.writes.waiting == 1 })
        #expect(cache.writesBegun == 1, "the new answer was written before the copy of the old one")
        cache.open()
        try await stored.value
        await state.finish()
        #expect(try await cache.base.entry(for: key) == newer)
    }

    @Test func aReadOfAnAnswerWhoseCopyIsBeingWrittenWaitsForIt() async throws {
        let server = try RedisTestServer()
        let cache = GatedCache()
        let (storage, state) = try compose(server, cache: cache)
        let shared = RedisStore(url: try RedisURL(parsing: server.url))
        let entry = CacheEntry(fetchedAt: t0, payload: "first")
        try await shared.store(entry, for: key)
        #expect(try await storage.cache.entry(for: key) == entry)
        try await shared.removeEntry(for: key)
        let read = Task { try await storage.cache.entry(for: key) }
        // The read waits for the copy still held at the gate (neither the local cache nor the server has the answer now).
        #expect(await eventually { state.writes.waiting == 1 }, "the read did not wait for the copy")
        #expect(try await cache.base.entry(for: key) == nil)
        cache.open()
        #expect(try await read.value == entry, "the second read missed the copy and the server")
    }

    @Test func finishingWithNothingToWriteReturnsAtOnce() async {
        let state = SharedStoreState(fallback: "", warn: { _ in })
        await state.finish()
        #expect(state.writes.count == 0)
    }
}
