import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRedis
import IsobarTestKit
import Synchronization
import Testing

/// Warnings told by a shared store's state.
final class Warnings: Sendable {
    private let told = Mutex<[String]>([])
    /// Keeps one.
    func tell(_ message: String) { told.withLock { $0.append(message) } }
    /// All so far.
    var all: [String] { told.withLock { $0 } }
}

/// A monotonic clock moved by hand.
final class ManualSeconds: Sendable {
    private let value = Mutex(0.0)
    /// The time now.
    @Sendable func read() -> Double { value.withLock { $0 } }
    /// Moves it on.
    func advance(_ seconds: Double) { value.withLock { $0 += seconds } }
}

@Suite(.enabled(if: redisInstalled, redisMissing)) struct SharedStorageTests {
    let key = CacheKey(provider: "p", slot: .current, placeKey: "1,2")

    func compose(_ server: RedisTestServer, local: MemoryStorage, machines: Int = 1, retrySeconds: Double = 5, clock: ManualSeconds = ManualSeconds(),
                 state given: SharedStoreState? = nil,
                 fresh: @escaping @Sendable (CacheKey, CacheEntry) -> Bool = { _, _ in false }) throws -> (EngineStorage, Warnings) {
        let warnings = Warnings()
        let state = given ?? SharedStoreState(retrySeconds: retrySeconds, fallback: "using the local store", seconds: clock.read, warn: warnings.tell)
        let shared = RedisStore(url: try RedisURL(parsing: server.url), timeoutMilliseconds: 2000)
        return (SharedStorage.compose(local: EngineStorage(local), shared: shared, state: state, expectedMachines: machines, isFresh: fresh), warnings)
    }

    @Test func aFreshLocalAnswerIsServedWithoutAskingTheServer() async throws {
        let server = try RedisTestServer()
        let local = MemoryStorage()
        let (storage, warnings) = try compose(server, local: local) { _, _ in true }
        let entry = CacheEntry(fetchedAt: t0, payload: "near")
        try await local.store(entry, for: key)
        server.stop()
        #expect(try await storage.cache.entry(for: key) == entry)
        #expect(warnings.all.isEmpty)
    }

    @Test func aLocalMissTakesTheSharedAnswerAndKeepsACopy() async throws {
        let server = try RedisTestServer()
        let local = MemoryStorage()
        let state = SharedStoreState(fallback: "using the local store", warn: { _ in })
        let (storage, _) = try compose(server, local: local, state: state)
        let shared = RedisStore(url: try RedisURL(parsing: server.url))
        let entry = CacheEntry(fetchedAt: t0, payload: "far", lifetimeSeconds: 60)
        try await shared.store(entry, for: key)
        #expect(try await storage.cache.entry(for: key) == entry)
        await state.finish()
        #expect(try await local.entry(for: key) == entry)
    }

    @Test func anOldLocalAnswerLosesToANewerSharedOneAndWinsOverAnOlderOne() async throws {
        let server = try RedisTestServer()
        let local = MemoryStorage()
        let (storage, _) = try compose(server, local: local)
        let shared = RedisStore(url: try RedisURL(parsing: server.url))
        try await local.store(CacheEntry(fetchedAt: t0, payload: "old"), for: key)
        try await shared.store(CacheEntry(fetchedAt: t0.addingTimeInterval(60), payload: "new"), for: key)
        #expect(try await storage.cache.entry(for: key)?.payload == "new")
        try await shared.store(CacheEntry(fetchedAt: t0.addingTimeInterval(-60), payload: "older"), for: key)
        #expect(try await storage.cache.entry(for: key)?.payload == "new")
    }

    @Test func answersAreStoredInBothLevels() async throws {
        let server = try RedisTestServer()
        let local = MemoryStorage()
        let (storage, _) = try compose(server, local: local)
        let entry = CacheEntry(fetchedAt: t0, payload: "both")
        try await storage.cache.store(entry, for: key)
        #expect(try await local.entry(for: key) == entry)
        #expect(try await RedisStore(url: try RedisURL(parsing: server.url)).entry(for: key) == entry)
        try await storage.cache.removeEntry(for: key)
        #expect(try await local.entry(for: key) == nil)
        #expect(try await RedisStore(url: try RedisURL(parsing: server.url)).entry(for: key) == nil)
    }

    @Test func aServerThatIsAwayIsToldOnceAndTheLocalStoreTakesOver() async throws {
        let server = try RedisTestServer()
        let local = MemoryStorage()
        let (storage, warnings) = try compose(server, local: local, machines: 4)
        server.stop()
        try await storage.cache.store(CacheEntry(fetchedAt: t0, payload: "kept"), for: key)
        #expect(try await storage.cache.entry(for: key)?.payload == "kept")
        // 10 calls per minute ÷ 4 machines: 2.5, so two calls here.
        let request = PermitRequest(provider: "p", windows: [RateLimit(limit: 10, perSeconds: 60)], cost: 1, deadline: t0.addingTimeInterval(10))
        let decisions = try await storage.ledger.acquire([request, request, request], now: t0)
        #expect(decisions.prefix(2).allSatisfy { if case .granted(let call) = $0 { call.rawValue.hasPrefix("local:") } else { false } })
        guard case .wait = decisions[2] else { Issue.record("a third call went through"); return }
        if case .granted(let call) = decisions[0] { try await storage.ledger.settle(call, at: t0) }
        try await storage.cooldowns.setCooldown(Cooldown(until: t0.addingTimeInterval(30), reason: "HTTP 429"), provider: "p")
        #expect(try await storage.cooldowns.cooldown(provider: "p", now: t0)?.reason == "HTTP 429")
        #expect(try await storage.breakers.recordOutcome(provider: "p", succeeded: false, threshold: 1, now: t0).openedAt == t0)
        #expect(try await storage.locks.acquire("p|current|1,2", owner: LeaseOwner(token: "a"), seconds: 5, now: t0))
        #expect(warnings.all.count == 1)
        #expect(warnings.all[0].contains("127.0.0.1:\(server.port)") && warnings.all[0].contains("using the local store"))
    }

    @Test func theServerIsAskedAgainAfterTheRetryPause() async throws {
        let server = try RedisTestServer()
        let clock = ManualSeconds()
        let (storage, warnings) = try compose(server, local: MemoryStorage(), retrySeconds: 5, clock: clock)
        server.stop()
        #expect(try await storage.cache.entry(for: key) == nil)
        try server.start()
        let entry = CacheEntry(fetchedAt: t0, payload: "back")
        try await RedisStore(url: try RedisURL(parsing: server.url)).store(entry, for: key)
        #expect(try await storage.cache.entry(for: key) == nil, "asked again before the pause was over")
        clock.advance(5)
        #expect(try await storage.cache.entry(for: key) == entry)
        #expect(warnings.all.count == 1)
    }

    @Test func cooldownsSetWhileTheServerWasAwayStillHoldWhenItIsBack() async throws {
        let server = try RedisTestServer()
        let (storage, _) = try compose(server, local: MemoryStorage(), retrySeconds: 0)
        // retrySeconds 0: asked again at once.
        server.stop()
        try await storage.cooldowns.setCooldown(Cooldown(until: t0.addingTimeInterval(30), reason: "local"), provider: "p")
        try server.start()
        let shared = RedisStore(url: try RedisURL(parsing: server.url))
        try await shared.setCooldown(Cooldown(until: t0.addingTimeInterval(10), reason: "shared"), provider: "p")
        #expect(try await storage.cooldowns.cooldown(provider: "p", now: t0)?.reason == "local")
        try await shared.setCooldown(Cooldown(until: t0.addingTimeInterval(60), reason: "shared later"), provider: "p")
        #expect(try await storage.cooldowns.cooldown(provider: "p", now: t0)?.reason == "shared later")
    }

    @Test func oneMachinesShareOfALimitIsTheLimitDividedByTheMachines() {
        let windows = [RateLimit(limit: 600, perSeconds: 60), RateLimit(limit: 10_000, perSeconds: 86_400)]
        #expect(FallbackLedger.share(windows, machines: 4) == [RateLimit(limit: 150, perSeconds: 60), RateLimit(limit: 2_500, perSeconds: 86_400)])
        #expect(FallbackLedger.share(windows, machines: 0) == windows)
    }
}
