import Foundation
import IsobarCore
import IsobarEngine
@testable import IsobarStore
import Testing

/// Every storage protocol at once, as both backends provide them.
typealias StorageBackend = ResponseCache & CallLedger & CooldownStore & BreakerStore & FetchLock & CacheMaintenance & HTTPValidatorStore

/// The backends every scenario runs against, so that the SQLite store and the reference in memory cannot drift apart.
enum Backend: String, CaseIterable, CustomTestStringConvertible {
    case memoryStorage
    case sqliteInMemory
    case sqliteFile

    var testDescription: String { rawValue }

    func make() async throws -> any StorageBackend {
        switch self {
        case .memoryStorage: MemoryStorage()
        case .sqliteInMemory: try Store.inMemory()
        case .sqliteFile: try await Store.open(directory: freshDirectory(), warn: noWarnings)
        }
    }
}

/// The call a decision granted, or a recorded issue.
func granted(_ decision: PermitDecision, sourceLocation: SourceLocation = #_sourceLocation) throws -> CallID {
    guard case .granted(let call) = decision else {
        Issue.record("expected a grant, got \(decision)", sourceLocation: sourceLocation)
        throw CancellationError()
    }
    return call
}

@Suite struct StorageSemanticsTests {
    let now = Date(timeIntervalSince1970: 1_795_856_400)

    func request(_ cost: Double, _ windows: [RateLimit], provider: String = "p", deadline: Double = 10) -> PermitRequest {
        PermitRequest(provider: provider, windows: windows, cost: cost, deadline: now.addingTimeInterval(deadline))
    }

    @Test(arguments: Backend.allCases) func theCacheKeepsOneEntryPerProviderSlotAndPlace(_ backend: Backend) async throws {
        let storage = try await backend.make()
        let first = CacheEntry(fetchedAt: now, payload: "one")
        let second = CacheEntry(fetchedAt: now.addingTimeInterval(60), payload: "two")
        #expect(try await storage.entry(for: key("1,2")) == nil)
        try await storage.store(first, for: key("1,2"))
        try await storage.store(first, for: key("1,2", .forecast))
        #expect(try await storage.entry(for: key("1,2")) == first)
        try await storage.store(second, for: key("1,2"))
        #expect(try await storage.entry(for: key("1,2")) == second)
        #expect(try await storage.entry(for: key("1,2", .forecast)) == first)
        #expect(try await storage.entry(for: key("1,2", provider: "q")) == nil)
        #expect(try await storage.entry(for: key("1,3")) == nil)
    }

    @Test(arguments: Backend.allCases) func anEntryKeepsItsHTTPLifetimeAndFlagAndCanBeRemoved(_ backend: Backend) async throws {
        let storage = try await backend.make()
        let strict = CacheEntry(fetchedAt: now, payload: "one", lifetimeSeconds: 60.5, mustRevalidate: true)
        let plain = CacheEntry(fetchedAt: now, payload: "two")
        try await storage.store(strict, for: key("1,2"))
        try await storage.store(plain, for: key("1,2", .forecast))
        #expect(try await storage.entry(for: key("1,2")) == strict)
        #expect(try await storage.entry(for: key("1,2", .forecast)) == plain)
        try await storage.removeEntry(for: key("1,2"))
        try await storage.removeEntry(for: key("9,9"))
        #expect(try await storage.entry(for: key("1,2")) == nil)
        #expect(try await storage.entry(for: key("1,2", .forecast)) == plain)
    }

    @Test(arguments: Backend.allCases) func validationsAreKeptReplacedRemovedClearedAndPruned(_ backend: Backend) async throws {
        let storage = try await backend.make()
        let headers = [HTTPHeader("Cache-Control", "max-age=60, must-revalidate"), HTTPHeader("Expires", "Sat, 28 Nov 2026 10:00:00 GMT")]
        let first = HTTPValidation(entityTag: "\"v1\"", lastModified: nil, body: "{\"t\": \"é°\"}", storedAt: now, headers: headers)
        let second = HTTPValidation(entityTag: nil, lastModified: "Fri, 27 Nov 2026 12:00:00 GMT", body: "", storedAt: now)
        #expect(try await storage.validation(for: "p GET https://a.test/x") == nil)
        try await storage.storeValidation(first, for: "p GET https://a.test/x")
        try await storage.storeValidation(second, for: "p GET https://a.test/y")
        #expect(try await storage.validation(for: "p GET https://a.test/x") == first)
        #expect(try await storage.validation(for: "p GET https://a.test/y") == second)
        try await storage.storeValidation(second, for: "p GET https://a.test/x")
        #expect(try await storage.validation(for: "p GET https://a.test/x") == second)
        try await storage.removeValidation(for: "p GET https://a.test/x")
        #expect(try await storage.validation(for: "p GET https://a.test/x") == nil)
        // Pruned with the answers they belong to, by age; cleared with the cache.
        var old = first
        old.storedAt = now.addingTimeInterval(-200_000)
        try await storage.storeValidation(old, for: "p GET https://a.test/old")
        _ = try await storage.prune(fetchedBefore: now.addingTimeInterval(-86_400), ledgerBefore: now.addingTimeInterval(-3600))
        #expect(try await storage.validation(for: "p GET https://a.test/old") == nil)
        #expect(try await storage.validation(for: "p GET https://a.test/y") == second)
        try await storage.store(CacheEntry(fetchedAt: now, payload: "x"), for: key("0"))
        #expect(try await storage.clear() == 1)
        #expect(try await storage.validation(for: "p GET https://a.test/y") == nil)
    }

    @Test(arguments: Backend.allCases) func statisticsClearAndPrune(_ backend: Backend) async throws {
        let storage = try await backend.make()
        for (index, age) in [10.0, 100_000, 200_000].enumerated() {
            try await storage.store(CacheEntry(fetchedAt: now.addingTimeInterval(-age), payload: "abc"), for: key("\(index)"))
        }
        try await storage.store(CacheEntry(fetchedAt: now, payload: "é°"), for: key("0", .forecast))
        try await storage.store(CacheEntry(fetchedAt: now, payload: "x"), for: key("0", provider: "a"))
        let statistics = try await storage.statistics()
        #expect(statistics == CacheStatistics(groups: [
            CacheGroup(provider: "a", slot: "current", count: 1, oldest: now, newest: now),
            CacheGroup(provider: "p", slot: "current", count: 3, oldest: now.addingTimeInterval(-200_000), newest: now.addingTimeInterval(-10)),
            CacheGroup(provider: "p", slot: "forecast", count: 1, oldest: now, newest: now),
        ], payloadBytes: 9 + 4 + 1))
        try await storage.setCooldown(Cooldown(until: now.addingTimeInterval(-7200), reason: "old"), provider: "p")
        _ = try await storage.acquire(request(1, [RateLimit(limit: 5, perSeconds: 60)], deadline: -7000), now: now.addingTimeInterval(-7200))
        #expect(try await storage.prune(fetchedBefore: now.addingTimeInterval(-86_400), ledgerBefore: now.addingTimeInterval(-3600)) == 2)
        #expect(try await storage.usage(provider: "p", windows: [RateLimit(limit: 5, perSeconds: 86_400)], now: now) == [0])
        #expect(try await storage.cooldown(provider: "p", now: now.addingTimeInterval(-8000)) == nil)
        #expect(try await storage.clear() == 3)
        #expect(try await storage.statistics() == CacheStatistics(groups: [], payloadBytes: 0))
    }

    @Test(arguments: Backend.allCases) func permitsCountWeightedCallsInEveryWindow(_ backend: Backend) async throws {
        let storage = try await backend.make()
        let windows = [RateLimit(limit: 10, perSeconds: 60), RateLimit(limit: 12, perSeconds: 3600)]
        let first = try granted(try await storage.acquire(request(4, windows), now: now))
        try await storage.settle(first, at: now)
        let second = try granted(try await storage.acquire(request(4, windows), now: now.addingTimeInterval(10)))
        try await storage.settle(second, at: now.addingTimeInterval(10))
        // 8 used of 10 per minute: a call of 4 must wait until the first leaves the minute window.
        #expect(try await storage.acquire(request(4, windows), now: now.addingTimeInterval(20)) == .wait(until: now.addingTimeInterval(60)))
        let third = try granted(try await storage.acquire(request(4, windows), now: now.addingTimeInterval(61)))
        try await storage.settle(third, at: now.addingTimeInterval(61))
        // 12 of 12 per hour now: the hour window decides.
        #expect(try await storage.acquire(request(1, windows), now: now.addingTimeInterval(200)) == .wait(until: now.addingTimeInterval(3600)))
        #expect(try await storage.usage(provider: "p", windows: windows, now: now.addingTimeInterval(200)) == [0, 12])
        #expect(try await storage.usage(provider: "other", windows: windows, now: now) == [0, 0])
    }

    @Test(arguments: Backend.allCases) func aCallCountsUntilAWindowAfterItSettles(_ backend: Backend) async throws {
        let storage = try await backend.make()
        let windows = [RateLimit(limit: 1, perSeconds: 2)]
        let call = try granted(try await storage.acquire(request(1, windows), now: now))
        // In flight for 5 s: it still counts, and frees up no earlier than 2 s from now.
        #expect(try await storage.acquire(request(1, windows, deadline: 15), now: now.addingTimeInterval(5)) == .wait(until: now.addingTimeInterval(7)))
        try await storage.settle(call, at: now.addingTimeInterval(5))
        #expect(try await storage.acquire(request(1, windows, deadline: 20), now: now.addingTimeInterval(6.5))
            == .wait(until: now.addingTimeInterval(7)))
        _ = try granted(try await storage.acquire(request(1, windows, deadline: 20), now: now.addingTimeInterval(7)))
        // An unsettled call (its process died) stops counting a window after its deadline.
        let orphan = try await backend.make()
        _ = try granted(try await orphan.acquire(request(1, windows), now: now))
        #expect(try await orphan.usage(provider: "p", windows: windows, now: now.addingTimeInterval(11)) == [1])
        #expect(try await orphan.usage(provider: "p", windows: windows, now: now.addingTimeInterval(12.5)) == [0])
        // Past its deadline (10 s), a call asked about at 11 s frees its room at 12 s, not 13 s.
        #expect(try await orphan.acquire(request(1, windows, deadline: 30), now: now.addingTimeInterval(11)) == .wait(until: now.addingTimeInterval(12)))
        // Settling an unknown call does nothing; a call id no backend can have made is an error.
        try await storage.settle(CallID("987654"), at: now)
        await #expect(throws: StorageError.self) { try await storage.settle(CallID("not a call"), at: now) }
    }

    @Test(arguments: Backend.allCases) func aCallLargerThanTheLimitNeverFits(_ backend: Backend) async throws {
        let storage = try await backend.make()
        #expect(try await storage.acquire(request(3, [RateLimit(limit: 2, perSeconds: 60)]), now: now) == .wait(until: .distantFuture))
        #expect(try await storage.acquire(request(2, [RateLimit(limit: 2, perSeconds: 60), RateLimit(limit: 1.5, perSeconds: 5)]), now: now)
            == .wait(until: .distantFuture))
        #expect(try await storage.usage(provider: "p", windows: [RateLimit(limit: 2, perSeconds: 60)], now: now) == [0])
    }

    @Test(arguments: Backend.allCases) func oneBatchDecidesInOrderAndLaterRequestsSeeEarlierGrants(_ backend: Backend) async throws {
        let storage = try await backend.make()
        let windows = [RateLimit(limit: 3, perSeconds: 60)]
        let decisions = try await storage.acquire([
            request(1, windows), request(2, windows), request(1, windows), request(0.5, [RateLimit(limit: 1, perSeconds: 60)], provider: "q"),
            request(4, windows),
        ], now: now)
        #expect(decisions.count == 5)
        let first = try granted(decisions[0])
        let second = try granted(decisions[1])
        _ = try granted(decisions[3])
        #expect(first != second)
        // Both in flight: the earliest they can free room is now, plus a window.
        #expect(decisions[2] == .wait(until: now.addingTimeInterval(60)))
        #expect(decisions[4] == .wait(until: .distantFuture))
        #expect(try await storage.usage(provider: "p", windows: windows, now: now) == [3])
        #expect(try await storage.usage(provider: "q", windows: windows, now: now) == [0.5])
        #expect(try await storage.acquire([], now: now) == [])
    }

    @Test(arguments: Backend.allCases) func concurrentAcquiresGrantExactlyTheLimit(_ backend: Backend) async throws {
        let storage = try await backend.make()
        let windows = [RateLimit(limit: 25, perSeconds: 60)]
        let decisions = try await withThrowingTaskGroup(of: PermitDecision.self) { group in
            for _ in 0..<100 { group.addTask { try await storage.acquire(request(1, windows), now: now) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let grants = decisions.compactMap { decision -> CallID? in
            if case .granted(let call) = decision { return call }
            return nil
        }
        #expect(grants.count == 25)
        #expect(Set(grants).count == 25)
        #expect(decisions.filter { $0 == .wait(until: now.addingTimeInterval(60)) }.count == 75)
    }

    @Test(arguments: Backend.allCases) func cooldownsAreExtendedNeverShortened(_ backend: Backend) async throws {
        let storage = try await backend.make()
        #expect(try await storage.cooldown(provider: "p", now: now) == nil)
        try await storage.setCooldown(Cooldown(until: now.addingTimeInterval(30), reason: "HTTP 429"), provider: "p")
        try await storage.setCooldown(Cooldown(until: now.addingTimeInterval(10), reason: "HTTP 503"), provider: "p")
        #expect(try await storage.cooldown(provider: "p", now: now) == Cooldown(until: now.addingTimeInterval(30), reason: "HTTP 503"))
        #expect(try await storage.cooldown(provider: "p", now: now.addingTimeInterval(30)) == nil)
        try await storage.setCooldown(Cooldown(until: now.addingTimeInterval(90), reason: "HTTP 429"), provider: "p")
        #expect(try await storage.cooldown(provider: "p", now: now.addingTimeInterval(60))?.until == now.addingTimeInterval(90))
        #expect(try await storage.cooldown(provider: "q", now: now) == nil)
    }

    @Test(arguments: Backend.allCases) func breakersOpenAtTheThresholdAndCloseOnSuccess(_ backend: Backend) async throws {
        let storage = try await backend.make()
        #expect(try await storage.breaker(provider: "p") == BreakerState())
        for failure in 1...4 {
            #expect(try await storage.recordOutcome(provider: "p", succeeded: false, threshold: 5, now: now) == BreakerState(failures: failure))
        }
        #expect(try await storage.breaker(provider: "p").openedAt == nil)
        #expect(try await storage.recordOutcome(provider: "p", succeeded: false, threshold: 5, now: now) == BreakerState(failures: 5, openedAt: now))
        let later = now.addingTimeInterval(30)
        #expect(try await storage.recordOutcome(provider: "p", succeeded: false, threshold: 5, now: later) == BreakerState(failures: 6, openedAt: later))
        #expect(try await storage.breaker(provider: "p") == BreakerState(failures: 6, openedAt: later))
        #expect(try await storage.breaker(provider: "q") == BreakerState())
        #expect(try await storage.recordOutcome(provider: "p", succeeded: true, threshold: 5, now: later) == BreakerState())
        #expect(try await storage.breaker(provider: "p") == BreakerState())
    }

    @Test(arguments: Backend.allCases) func aBreakerKeepsWhatItsLastFailureSaid(_ backend: Backend) async throws {
        let storage = try await backend.make()
        _ = try await storage.recordOutcome(provider: "p", succeeded: false, threshold: 2, now: now, failure: "HTTP 503")
        _ = try await storage.recordOutcome(provider: "p", succeeded: false, threshold: 2, now: now,
                                            failure: "cannot resolve api.example.test (DNS failure or no network)")
        let open = BreakerState(failures: 2, openedAt: now, lastFailure: "cannot resolve api.example.test (DNS failure or no network)")
        #expect(try await storage.breaker(provider: "p") == open)
        // A failure recorded without words keeps the words before; a success forgets them.
        #expect(try await storage.recordOutcome(provider: "p", succeeded: false, threshold: 2, now: now).lastFailure == open.lastFailure)
        _ = try await storage.recordOutcome(provider: "p", succeeded: true, threshold: 2, now: now)
        #expect(try await storage.breaker(provider: "p") == BreakerState())
    }

    @Test(arguments: Backend.allCases) func aLeaseThatIsNotRenewedIsTakenOverAfterItExpires(_ backend: Backend) async throws {
        let storage = try await backend.make()
        let first = LeaseOwner(token: "first")
        let second = LeaseOwner(token: "second")
        let third = LeaseOwner.random()
        #expect(try await storage.acquire("k", owner: first, seconds: 10, now: now))
        #expect(try await !storage.acquire("k", owner: second, seconds: 10, now: now.addingTimeInterval(5)))
        #expect(try await storage.acquire("other", owner: second, seconds: 10, now: now.addingTimeInterval(5)))
        #expect(try await storage.renew("k", owner: first, seconds: 10, now: now.addingTimeInterval(5)))
        #expect(try await !storage.acquire("k", owner: second, seconds: 10, now: now.addingTimeInterval(14.5)))
        // The first holder stops renewing: its lease ends at 15 s and the second takes over.
        #expect(try await storage.acquire("k", owner: second, seconds: 10, now: now.addingTimeInterval(15)))
        #expect(try await !storage.renew("k", owner: first, seconds: 10, now: now.addingTimeInterval(16)))
        // A release by a non-owner does nothing.
        try await storage.release("k", owner: first)
        #expect(try await !storage.acquire("k", owner: third, seconds: 10, now: now.addingTimeInterval(17)))
        // Renewing never shortens; acquiring again is renewing.
        #expect(try await storage.renew("k", owner: second, seconds: 1, now: now.addingTimeInterval(17)))
        #expect(try await !storage.acquire("k", owner: third, seconds: 10, now: now.addingTimeInterval(24.5)))
        #expect(try await storage.acquire("k", owner: second, seconds: 10, now: now.addingTimeInterval(20)))
        #expect(try await !storage.acquire("k", owner: third, seconds: 10, now: now.addingTimeInterval(29)))
        try await storage.release("k", owner: second)
        #expect(try await !storage.renew("k", owner: second, seconds: 10, now: now.addingTimeInterval(21)))
        #expect(try await storage.acquire("k", owner: third, seconds: 10, now: now.addingTimeInterval(21)))
        try await storage.release("never-held", owner: third)
    }
}
