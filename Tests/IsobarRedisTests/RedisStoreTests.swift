import FoundationEssentials
import IsobarCore
import IsobarEngine
@testable import IsobarRedis
import IsobarTestKit
import Testing

@Suite(.enabled(if: redisInstalled, redisMissing)) struct RedisStoreTests {
    let key = CacheKey(provider: "open-meteo@ab12", slot: .forecast, placeKey: "53.9,27.57")

    @Test func keepsAndDeletesAnswers() async throws {
        let (store, server) = try storeOnNewServer()
        _ = server
        #expect(try await store.entry(for: key) == nil)
        let entry = CacheEntry(fetchedAt: t0, payload: "{\"v\":1,\n\"x\":\"é\"}", lifetimeSeconds: 600, mustRevalidate: true)
        try await store.store(entry, for: key)
        #expect(try await store.entry(for: key) == entry)
        let plain = CacheEntry(fetchedAt: t0.addingTimeInterval(0.25), payload: "{}")
        try await store.store(plain, for: key)
        #expect(try await store.entry(for: key) == plain)
        try await store.removeEntry(for: key)
        #expect(try await store.entry(for: key) == nil)
    }

    @Test func keysAreNamespacedVersionedAndTaggedByProvider() async throws {
        let server = try RedisTestServer()
        let store = RedisStore(url: try RedisURL(parsing: server.url), keyScopes: ["owm": RedisStore.scope(apiKey: "SECRET-KEY-123")])
        try await store.store(CacheEntry(fetchedAt: t0, payload: "{}"), for: key)
        _ = try await store.acquire(PermitRequest(provider: "owm", windows: [RateLimit(limit: 10, perSeconds: 3600)], cost: 1, deadline: t0), now: t0)
        try await store.setCooldown(Cooldown(until: t0.addingTimeInterval(60), reason: "HTTP 429"), provider: "owm")
        _ = try await store.recordOutcome(provider: "owm", succeeded: false, threshold: 3, now: t0)
        #expect(try await store.acquire("owm|current|1,2", owner: LeaseOwner(token: "a"), seconds: 600, now: t0))
        let keys = try await allKeys(server)
        #expect(keys.count == 6)
        #expect(keys.allSatisfy { $0.hasPrefix("isobar:v1:{") })
        #expect(keys.filter { $0.hasPrefix("isobar:v1:{owm}:") }.count == 5)
        #expect(keys.contains("isobar:v1:{owm}:gcra:\(RedisStore.scope(apiKey: "SECRET-KEY-123")):seeded"))
        #expect(keys.contains("isobar:v1:{open-meteo@ab12}:cache:forecast:53.9,27.57"))
        #expect(!keys.joined().contains("SECRET-KEY-123"))
        #expect(keys.contains { $0.contains(":gcra:\(RedisStore.scope(apiKey: "SECRET-KEY-123")):10/3600") })
    }

    @Test func aRateLimitGrantsTheBurstThenTellsWhenTheNextCallFits() async throws {
        let (store, server) = try storeOnNewServer()
        _ = server
        // 10 per hour: a burst of 5, then one every 15 minutes, so that no time passing here frees a call.
        let request = PermitRequest(provider: "p", windows: [RateLimit(limit: 10, perSeconds: 3600)], cost: 1, deadline: t0)
        let decisions = try await store.acquire(Array(repeating: request, count: 6), now: t0)
        #expect(decisions.prefix(5).allSatisfy { if case .granted = $0 { true } else { false } })
        guard case .wait(let until) = decisions[5] else { Issue.record("the sixth call was granted"); return }
        // About one emission interval (15 minutes) on the server's clock, less whatever time the machine took meanwhile.
        #expect(until > t0.addingTimeInterval(600) && until <= t0.addingTimeInterval(900))
        let used = try await store.usage(provider: "p", windows: request.windows, now: t0)
        #expect(used.count == 1 && used[0] > 4 && used[0] <= 5)
    }

    @Test func windowsAreCheckedAndCommittedTogether() async throws {
        let (store, server) = try storeOnNewServer()
        _ = server
        let wide = RateLimit(limit: 1000, perSeconds: 3600)
        let narrow = RateLimit(limit: 2, perSeconds: 3600)
        let both = PermitRequest(provider: "p", windows: [wide, narrow], cost: 1, deadline: t0)
        guard case .granted = try await store.acquire(both, now: t0) else { Issue.record("the first call was refused"); return }
        guard case .wait = try await store.acquire(both, now: t0) else { Issue.record("the narrow window let a second call through"); return }
        // The refused call did not count in the wide window either.
        let used = try await store.usage(provider: "p", windows: [wide], now: t0)
        #expect(used[0] < 1.01)
    }

    @Test func aCostLargerThanTheBurstGoesAloneAndOneLargerThanTheLimitNever() async throws {
        let (store, server) = try storeOnNewServer()
        _ = server
        let request = PermitRequest(provider: "p", windows: [RateLimit(limit: 4, perSeconds: 3600)], cost: 3, deadline: t0)
        guard case .granted = try await store.acquire(request, now: t0) else { Issue.record("refused on an empty window"); return }
        guard case .wait(let until) = try await store.acquire(request, now: t0), until > t0 else { Issue.record("granted twice"); return }
        var larger = request
        larger.cost = 5
        #expect(try await store.acquire(larger, now: t0) == .wait(until: .distantFuture))
    }

    @Test func scriptsAreSentAgainWhenTheServerForgotThem() async throws {
        let (store, server) = try storeOnNewServer()
        let request = PermitRequest(provider: "p", windows: [RateLimit(limit: 100, perSeconds: 1)], cost: 1, deadline: t0)
        _ = try await store.acquire(request, now: t0)
        #expect(try await raw(server, ["SCRIPT", "EXISTS", Script.permit.sha]) == .array([.integer(1)]))
        _ = try await raw(server, ["SCRIPT", "FLUSH"])
        guard case .granted = try await store.acquire(request, now: t0) else { Issue.record("refused after SCRIPT FLUSH"); return }
        #expect(try await raw(server, ["SCRIPT", "EXISTS", Script.permit.sha]) == .array([.integer(1)]))
    }

    @Test func cooldownsAreNeverShortened() async throws {
        let (store, server) = try storeOnNewServer()
        _ = server
        try await store.setCooldown(Cooldown(until: t0.addingTimeInterval(120), reason: "HTTP 429"), provider: "p")
        try await store.setCooldown(Cooldown(until: t0.addingTimeInterval(30), reason: "HTTP 429 again"), provider: "p")
        let cooldown = try await store.cooldown(provider: "p", now: t0)
        #expect(cooldown?.until == t0.addingTimeInterval(120))
        #expect(try await store.cooldown(provider: "p", now: t0.addingTimeInterval(121)) == nil)
        try await store.clearCooldown(provider: "p")
        #expect(try await store.cooldown(provider: "p", now: t0) == nil)
    }

    @Test func breakersOpenAtTheThresholdAndCloseOnSuccess() async throws {
        let (store, server) = try storeOnNewServer()
        _ = server
        #expect(try await store.breaker(provider: "p") == BreakerState())
        #expect(try await store.recordOutcome(provider: "p", succeeded: false, threshold: 2, now: t0) == BreakerState(failures: 1))
        let open = try await store.recordOutcome(provider: "p", succeeded: false, threshold: 2, now: t0.addingTimeInterval(1))
        #expect(open == BreakerState(failures: 2, openedAt: t0.addingTimeInterval(1)))
        #expect(try await store.breaker(provider: "p") == open)
        #expect(try await store.recordOutcome(provider: "p", succeeded: true, threshold: 2, now: t0) == BreakerState())
        _ = try await store.recordOutcome(provider: "p", succeeded: false, threshold: 1, now: t0)
        try await store.resetBreaker(provider: "p")
        #expect(try await store.breaker(provider: "p") == BreakerState())
    }

    @Test func aBreakerKeepsWhatItsLastFailureSaidForEveryMachine() async throws {
        let (store, server) = try storeOnNewServer()
        _ = server
        _ = try await store.recordOutcome(provider: "p", succeeded: false, threshold: 2, now: t0, failure: "HTTP 503")
        let open = try await store.recordOutcome(provider: "p", succeeded: false, threshold: 2, now: t0, failure: "connection refused")
        #expect(open == BreakerState(failures: 2, openedAt: t0, lastFailure: "connection refused"))
        #expect(try await store.breaker(provider: "p") == open)
        #expect(try await store.recordOutcome(provider: "p", succeeded: false, threshold: 2, now: t0).lastFailure == "connection refused")
        #expect(try await store.recordOutcome(provider: "p", succeeded: true, threshold: 2, now: t0) == BreakerState())
    }

    @Test func leasesAreHeldRenewedAndReleasedOnlyByTheirOwner() async throws {
        let (store, server) = try storeOnNewServer()
        _ = server
        let a = LeaseOwner(token: "a")
        let b = LeaseOwner(token: "b")
        #expect(try await store.acquire("p|current|1,2", owner: a, seconds: 600, now: t0))
        #expect(try await store.acquire("p|current|1,2", owner: a, seconds: 600, now: t0))
        #expect(try await !store.acquire("p|current|1,2", owner: b, seconds: 600, now: t0))
        #expect(try await !store.renew("p|current|1,2", owner: b, seconds: 600, now: t0))
        try await store.release("p|current|1,2", owner: b)
        #expect(try await !store.acquire("p|current|1,2", owner: b, seconds: 600, now: t0))
        #expect(try await store.renew("p|current|1,2", owner: a, seconds: 600, now: t0))
        try await store.release("p|current|1,2", owner: a)
        #expect(try await store.acquire("p|current|1,2", owner: b, seconds: 600, now: t0))
    }

    @Test func aHolderThatStopsRenewingIsReplacedAfterItsLease() async throws {
        let (store, server) = try storeOnNewServer()
        #expect(try await store.acquire("breaker|p", owner: LeaseOwner(token: "alive"), seconds: 600, now: t0))
        #expect(try await !store.acquire("breaker|p", owner: LeaseOwner(token: "next"), seconds: 5, now: t0))
        // A holder that dies stops renewing: the server ends its lease when it expires, whatever the load here.
        #expect(try await store.acquire("breaker|q", owner: LeaseOwner(token: "dead"), seconds: 0.1, now: t0))
        let name = RedisKeys.lease("breaker|q")
        guard case .integer(let ttl) = try await raw(server, ["PTTL", name]) else { Issue.record("no TTL"); return }
        #expect(ttl <= 100, "at most the lease's 100 ms, or gone (-2)")
        for _ in 0..<100 where try await raw(server, ["EXISTS", name]) == .integer(1) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(try await store.acquire("breaker|q", owner: LeaseOwner(token: "next"), seconds: 5, now: t0))
    }

    @Test func statisticsAndClearTouchOnlyIsobarsAnswers() async throws {
        let (store, server) = try storeOnNewServer()
        _ = try await raw(server, ["SET", "someone-else:key", "keep me"])
        try await store.store(CacheEntry(fetchedAt: t0, payload: "12345"), for: key)
        try await store.store(CacheEntry(fetchedAt: t0.addingTimeInterval(60), payload: "123"),
                              for: CacheKey(provider: key.provider, slot: .forecast, placeKey: "1,2"))
        try await store.store(CacheEntry(fetchedAt: t0, payload: "1"), for: CacheKey(provider: "b", slot: .current, placeKey: "1,2"))
        try await store.setCooldown(Cooldown(until: t0.addingTimeInterval(60), reason: "x"), provider: "b")
        let statistics = try await store.statistics()
        #expect(statistics.payloadBytes == 9)
        #expect(statistics.groups == [
            CacheGroup(provider: "b", slot: "current", count: 1, oldest: t0, newest: t0),
            CacheGroup(provider: key.provider, slot: "forecast", count: 2, oldest: t0, newest: t0.addingTimeInterval(60)),
        ])
        #expect(try await store.clear() == 3)
        #expect(try await allKeys(server) == ["isobar:v1:{b}:cooldown", "someone-else:key"])
        #expect(try await store.statistics() == CacheStatistics(groups: [], payloadBytes: 0))
    }

    @Test func aDamagedAnswerIsIgnored() async throws {
        let (store, server) = try storeOnNewServer()
        _ = try await raw(server, ["SET", RedisKeys.cache(key), "2\nwhat\n"])
        #expect(try await store.entry(for: key) == nil)
        #expect(CachedText.decode("1\nx\n\n0\n{}") == nil)
        #expect(CachedText.decode("1\n5\nx\n0\n{}") == nil)
    }

    @Test func aServerThatIsAwayIsAStorageErrorNamingIt() async throws {
        let server = try RedisTestServer(password: "hunter2")
        let store = RedisStore(url: try RedisURL(parsing: server.url))
        try await store.ping()
        server.stop()
        await #expect { try await store.ping() } throws: { error in
            let message = "\(error)"
            return message.contains("127.0.0.1:\(server.port)") && message.contains("***") && !message.contains("hunter2")
        }
    }

    @Test func aWrongPasswordIsAStorageErrorWithoutThePassword() async throws {
        let server = try RedisTestServer(password: "right-one")
        let store = RedisStore(url: try RedisURL(parsing: "redis://:wrong-one@127.0.0.1:\(server.port)/0"))
        await #expect { try await store.ping() } throws: { error in
            let message = "\(error)"
            return !message.contains("wrong-one") && !message.contains("right-one") && message.contains("***")
        }
        let right = RedisStore(url: try RedisURL(parsing: server.url))
        try await right.ping()
    }

    @Test func aPausedServerTimesOutAndIsUsedAgainOnceItAnswers() async throws {
        let (store, server) = try storeOnNewServer(timeoutMilliseconds: 100)
        try await store.ping()
        server.pause()
        // The server is resumed only after the call returns: a call held by the paused server would never end, and one
        // that ended any other way would not name the timeout.
        await #expect { try await store.ping() } throws: { "\($0)".contains("no answer in 100 ms") }
        server.resume()
        try await store.ping()
    }
}
