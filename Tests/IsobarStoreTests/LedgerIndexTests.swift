import Foundation
import IsobarCore
import IsobarEngine
@testable import IsobarStore
import Testing

@Suite struct LedgerIndexTests {
    @Test func aVersionFiveFileGetsTheWindowIndexAndKeepsCountingItsCalls() async throws {
        let directory = freshDirectory()
        let old = try Connection(path: directory + "/isobar.sqlite", busyTimeoutMilliseconds: 1000)
        try old.execute("PRAGMA journal_mode=WAL")
        for migration in Store.migrations[0..<5] { try old.execute(migration) }
        try old.execute("PRAGMA user_version = 5")
        // Settled at 110, in flight until 400, and from before deadlines were kept (counts until its grant at 100).
        try old.query("INSERT INTO rate_events(rowid, provider, at, cost, deadline, settled_at) VALUES (1, 'p', 100, 1, 200, 110)")
        try old.query("INSERT INTO rate_events(rowid, provider, at, cost, deadline) VALUES (2, 'p', 100, 2, 400)")
        try old.query("INSERT INTO rate_events(rowid, provider, at, cost) VALUES (3, 'p', 100, 4)")
        let store = try await Store.open(directory: directory, warn: noWarnings)
        #expect(try await scalar(store, "PRAGMA user_version")?.int == Store.schemaVersion)
        #expect(try await scalar(store, "SELECT count(*) FROM sqlite_master WHERE name = 'rate_events_by_counts_until'")?.int == 1)
        let windows = [RateLimit(limit: 10, perSeconds: 60), RateLimit(limit: 10, perSeconds: 5)]
        let at = { (seconds: Double) in Date(timeIntervalSince1970: seconds) }
        #expect(try await store.usage(provider: "p", windows: windows, now: at(99)) == [7, 7])
        #expect(try await store.usage(provider: "p", windows: windows, now: at(112)) == [7, 3])
        #expect(try await store.usage(provider: "p", windows: windows, now: at(171)) == [2, 2])
        // Room for 3 in the long window at 112 (7 counted): a cost of 3 fits, then a cost of 1 does not.
        let request = { (cost: Double) in PermitRequest(provider: "p", windows: windows, cost: cost, deadline: at(500)) }
        guard case .granted = try await store.acquire(request(3), now: at(112)) else { Issue.record("3 should fit"); return }
        guard case .wait(let until) = try await store.acquire(request(1), now: at(112)) else { Issue.record("1 more should wait"); return }
        #expect(until > at(112))
    }

    @Test func theWindowSumSearchesTheIndexByTheInstantCallsStopCounting() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let plan = try await store.bare { (connection) throws(StoreError) -> [String] in
            try connection.query("""
                EXPLAIN QUERY PLAN SELECT total(CASE WHEN coalesce(settled_at, deadline, at) > ? THEN cost END) FROM rate_events
                WHERE provider = ? AND coalesce(settled_at, deadline, at) > ?
                """, [.real(1), .text("p"), .real(0)]).compactMap { $0.last?.text }
        }
        #expect(plan.contains { $0.contains("USING INDEX rate_events_by_counts_until (provider=? AND <expr>>?)") }, "\(plan)")
    }
}

@Suite struct LedgerTotalsTests {
    private func total(_ store: Store, _ provider: String) async throws -> Double? {
        try await scalar(store, "SELECT cost FROM rate_totals WHERE provider = '\(provider)'")?.double
    }

    @Test func aMigratedFileStartsWithTheTotalsOfItsCalls() async throws {
        let directory = freshDirectory()
        let old = try Connection(path: directory + "/isobar.sqlite", busyTimeoutMilliseconds: 1000)
        try old.execute("PRAGMA journal_mode=WAL")
        for migration in Store.migrations[0..<5] { try old.execute(migration) }
        try old.execute("PRAGMA user_version = 5")
        try old.query("INSERT INTO rate_events(provider, at, cost, deadline) VALUES ('p', 100, 1, 200), ('p', 100, 2.5, 200), ('q', 1, 4, 2)")
        let store = try await Store.open(directory: directory, warn: noWarnings)
        #expect(try await total(store, "p") == 3.5)
        #expect(try await total(store, "q") == 4)
    }

    @Test func totalsFollowGrantsSettlingAndPruning() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let at = { (seconds: Double) in Date(timeIntervalSince1970: seconds) }
        let windows = [RateLimit(limit: 100, perSeconds: 60)]
        for (cost, when) in [(1.0, 10.0), (2.0, 20.0), (4.0, 200.0)] {
            let decision = try await store.acquire(PermitRequest(provider: "p", windows: windows, cost: cost, deadline: at(when + 5)), now: at(when))
            let id = try granted(decision)
            try await store.settle(id, at: at(when + 1))
        }
        #expect(try await total(store, "p") == 7)
        try await store.prune(fetchedBefore: at(0), ledgerBefore: at(100))
        #expect(try await total(store, "p") == 4)
        #expect(try await store.usage(provider: "p", windows: windows, now: at(202)) == [4])
    }

    @Test func aWindowNearItsLimitIsStillSummedExactly() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let at = { (seconds: Double) in Date(timeIntervalSince1970: seconds) }
        // Limit 3 per 10 s: three calls long settled leave the total at the limit, yet the window is empty again.
        let windows = [RateLimit(limit: 3, perSeconds: 10)]
        for second in [0.0, 1, 2] {
            let id = try granted(try await store.acquire(PermitRequest(provider: "p", windows: windows, cost: 1, deadline: at(50)), now: at(second)))
            try await store.settle(id, at: at(second))
        }
        guard case .wait = try await store.acquire(PermitRequest(provider: "p", windows: windows, cost: 1, deadline: at(50)), now: at(5)) else {
            Issue.record("a fourth call within the window must wait")
            return
        }
        _ = try granted(try await store.acquire(PermitRequest(provider: "p", windows: windows, cost: 1, deadline: at(50)), now: at(13)))
    }
}

@Suite struct LeanLayoutTests {
    @Test func aVersionSixFileKeepsItsLeasesAndCallsInTheLeanerLayout() async throws {
        let directory = freshDirectory()
        let old = try Connection(path: directory + "/isobar.sqlite", busyTimeoutMilliseconds: 1000)
        try old.execute("PRAGMA journal_mode=WAL")
        for migration in Store.migrations[0..<6] { try old.execute(migration) }
        try old.execute("PRAGMA user_version = 6")
        try old.query("INSERT INTO leases(lease_key, owner, expires_at) VALUES ('k', 'holder', 1000)")
        try old.query("INSERT INTO rate_events(provider, at, cost, deadline) VALUES ('p', 100, 1, 200)")
        let store = try await Store.open(directory: directory, warn: noWarnings)
        #expect(try await scalar(store, "PRAGMA user_version")?.int == Store.schemaVersion)
        #expect(try await scalar(store, "SELECT count(*) FROM sqlite_master WHERE name = 'rate_events_by_provider'")?.int == 0)
        #expect(try await scalar(store, "SELECT sql FROM sqlite_master WHERE name = 'leases'")?.text?.contains("WITHOUT ROWID") == true)
        let at = { (seconds: Double) in Date(timeIntervalSince1970: seconds) }
        // The lease is still held, until it expires; the call still counts.
        #expect(try await !store.acquire("k", owner: LeaseOwner(token: "other"), seconds: 5, now: at(999)))
        #expect(try await store.acquire("k", owner: LeaseOwner(token: "other"), seconds: 5, now: at(1001)))
        #expect(try await store.usage(provider: "p", windows: [RateLimit(limit: 5, perSeconds: 60)], now: at(150)) == [1])
        try await store.release("k", owner: LeaseOwner(token: "other"))
        #expect(try await scalar(store, "SELECT count(*) FROM leases")?.int == 0)
    }
}
