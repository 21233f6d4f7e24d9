import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRedis
import IsobarTestKit
import Synchronization
import Testing

/// A local store that queues the writes nobody waits for, as the SQLite store does: a queued answer is read back at once,
/// and committed to `base` by `flushQueuedWrites()` or before any write asked after it; queued settles and releases are
/// kept in order, to be looked at.
final class QueueingStorage: ResponseCache, CallLedger, FetchLock, QueuedWriting {
    let base = MemoryStorage()
    private let queue = Mutex<[(CacheKey, CacheEntry)]>([])
    private let soon = Mutex<[String]>([])

    /// Answers queued and not yet committed.
    var queuedAnswers: Int { queue.withLock { $0.count } }
    /// What was asked to be done soon, in order: `settle ID`, `release KEY`.
    var askedSoon: [String] { soon.withLock { $0 } }

    func entry(for key: CacheKey) async throws(StorageError) -> CacheEntry? {
        if let queued = queue.withLock({ $0.last { $0.0 == key }?.1 }) { return queued }
        return try await base.entry(for: key)
    }

    func store(_ entry: CacheEntry, for key: CacheKey) async throws(StorageError) {
        await flushQueuedWrites()
        try await base.store(entry, for: key)
    }

    func storeSoon(_ entry: CacheEntry, for key: CacheKey, failed: @escaping @Sendable (StorageError) -> Void) async {
        queue.withLock { $0.append((key, entry)) }
    }

    func removeEntry(for key: CacheKey) async throws(StorageError) {
        await flushQueuedWrites()
        try await base.removeEntry(for: key)
    }

    func flushQueuedWrites() async {
        for (key, entry) in queue.withLock({ queue in defer { queue = [] }; return queue }) {
            try? await base.store(entry, for: key)
        }
    }

    func acquire(_ requests: [PermitRequest], now: Date) async throws(StorageError) -> [PermitDecision] {
        try await base.acquire(requests, now: now)
    }

    func settle(_ call: CallID, at: Date) async throws(StorageError) { try await base.settle(call, at: at) }

    func settleSoon(_ call: CallID, at: Date, failed: @escaping @Sendable (StorageError) -> Void) async {
        soon.withLock { $0.append("settle \(call.rawValue)") }
    }

    func usage(provider: String, windows: [RateLimit], now: Date) async throws(StorageError) -> [Double] {
        try await base.usage(provider: provider, windows: windows, now: now)
    }

    func acquire(_ key: String, owner: LeaseOwner, seconds: Double, now: Date) async throws(StorageError) -> Bool {
        try await base.acquire(key, owner: owner, seconds: seconds, now: now)
    }

    func renew(_ key: String, owner: LeaseOwner, seconds: Double, now: Date) async throws(StorageError) -> Bool {
        try await base.renew(key, owner: owner, seconds: seconds, now: now)
    }

    func release(_ key: String, owner: LeaseOwner) async throws(StorageError) { try await base.release(key, owner: owner) }

    func releaseSoon(_ key: String, owner: LeaseOwner, failed: @escaping @Sendable (StorageError) -> Void) async {
        soon.withLock { $0.append("release \(key)") }
    }
}

@Suite(.enabled(if: redisInstalled, redisMissing)) struct QueuedLocalWritesTests {
    let key = CacheKey(provider: "p", slot: .current, placeKey: "1,2")

    func compose(_ server: RedisTestServer, _ local: QueueingStorage) throws -> (EngineStorage, SharedStoreState) {
        let state = SharedStoreState(fallback: "using the local store", warn: { _ in })
        let memory = local.base
        let storage = EngineStorage(cache: local, ledger: local, cooldowns: memory, breakers: memory, locks: local, validators: memory)
        let shared = RedisStore(url: try RedisURL(parsing: server.url), timeoutMilliseconds: 2000)
        return (SharedStorage.compose(local: storage, shared: shared, state: state, expectedMachines: 1, isFresh: { _, _ in true }), state)
    }

    @Test func theEnginesFlushCommitsWhatTheLocalStoreQueued() async throws {
        let server = try RedisTestServer()
        let local = QueueingStorage()
        let (storage, _) = try compose(server, local)
        let entry = CacheEntry(fetchedAt: t0, payload: "fresh")
        await storage.cache.storeSoon(entry, for: key) { error in Issue.record("failed: \(error.message)") }
        #expect(local.queuedAnswers == 1)
        await storage.flushQueuedWrites()
        #expect(local.queuedAnswers == 0)
        #expect(try await local.base.entry(for: key) == entry)
    }

    @Test func anAnswerStoredSoonIsOnTheServerAtOnceAndQueuedLocally() async throws {
        let server = try RedisTestServer()
        let local = QueueingStorage()
        let (storage, state) = try compose(server, local)
        let entry = CacheEntry(fetchedAt: t0, payload: "fresh")
        await storage.cache.storeSoon(entry, for: key) { error in Issue.record("failed: \(error.message)") }
        #expect(try await RedisStore(url: try RedisURL(parsing: server.url)).entry(for: key) == entry)
        #expect(local.queuedAnswers == 1)
        await state.finish()
        #expect(try await local.base.entry(for: key) == entry)
    }

    /// The local ledger notes the server's grants too (see `FallbackLedger`): every call is settled there, queued.
    @Test func everyCallIsSettledInTheLocalLedgerQueued() async throws {
        let server = try RedisTestServer()
        let local = QueueingStorage()
        let (storage, _) = try compose(server, local)
        let request = PermitRequest(provider: "p", windows: [RateLimit(limit: 10, perSeconds: 60)], cost: 1, deadline: t0.addingTimeInterval(10))
        guard case .granted(let shared) = try await storage.ledger.acquire(request, now: t0) else {
            Issue.record("the server refused a call")
            return
        }
        #expect(shared.rawValue.hasPrefix("noted:"))
        await storage.ledger.settleSoon(shared, at: t0) { _ in }
        #expect(local.askedSoon == ["settle \(shared.rawValue.dropFirst("noted:".count))"])
        server.stop()
        guard case .granted(let near) = try await storage.ledger.acquire(request, now: t0) else {
            Issue.record("the local ledger refused a call")
            return
        }
        await storage.ledger.settleSoon(near, at: t0) { _ in }
        #expect(local.askedSoon == ["settle \(shared.rawValue.dropFirst("noted:".count))", "settle \(near.rawValue.dropFirst("local:".count))"])
    }

    @Test func aLeaseIsReleasedOnTheServerAtOnceAndLocallySoon() async throws {
        let server = try RedisTestServer()
        let local = QueueingStorage()
        let (storage, _) = try compose(server, local)
        let first = LeaseOwner(token: "a")
        #expect(try await storage.locks.acquire("p|current|1,2", owner: first, seconds: 30, now: t0))
        await storage.locks.releaseSoon("p|current|1,2", owner: first) { _ in }
        #expect(local.askedSoon == ["release p|current|1,2"])
        let other = RedisStore(url: try RedisURL(parsing: server.url))
        #expect(try await other.acquire("p|current|1,2", owner: LeaseOwner(token: "b"), seconds: 30, now: t0), "the server's lease was not released")
    }
}
