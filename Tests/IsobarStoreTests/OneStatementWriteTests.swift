import Foundation
import IsobarEngine
@testable import IsobarStore
import Synchronization
import Testing

/// Queued writes of one statement, which run without a savepoint of their own.
@Suite struct OneStatementWriteTests {
    let now = Date(timeIntervalSince1970: 1_795_856_400)

    /// Queues `sql` as a one-statement write whose failure goes to `failures`.
    func queue(_ sql: String, on store: Store, failures: FailureMessages) {
        store.writeSoon({ connection throws(StoreError) in try connection.query(sql) }, failed: failures.add, isOneStatement: true)
    }

    @Test func aFailingOneIsToldAndTheWritesAroundItAreCommitted() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let failures = FailureMessages()
        queue("INSERT INTO cooldowns(provider, until, reason) VALUES ('a', 1, 'x')", on: store, failures: failures)
        queue("INSERT INTO cooldowns(provider, until, reason) VALUES ('a', 2, 'duplicate')", on: store, failures: failures)
        queue("INSERT INTO cooldowns(provider, until, reason) VALUES ('b', 3, 'y')", on: store, failures: failures)
        #expect(try await store.acquire("k", owner: LeaseOwner.random(), seconds: 30, now: now))
        #expect(failures.all.count == 1)
        #expect(failures.all.first?.contains("UNIQUE constraint failed") == true)
        let rows = try await store.reading { connection throws(StoreError) in
            try connection.query("SELECT provider, until FROM cooldowns ORDER BY provider")
        }
        #expect(rows == [[.text("a"), .real(1)], [.text("b"), .real(3)]])
        #expect(try await store.reading { connection throws(StoreError) in try connection.query("SELECT lease_key FROM leases") } == [[.text("k")]])
    }

    @Test func aStatementThatFailsAtItsSecondRowLeavesNoRowOfIt() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let failures = FailureMessages()
        queue("INSERT INTO cooldowns(provider, until, reason) VALUES ('a', 1, 'x'), ('b', NULL, 'y')", on: store, failures: failures)
        queue("INSERT INTO cooldowns(provider, until, reason) VALUES ('c', 2, 'z')", on: store, failures: failures)
        await store.flushQueuedWrites()
        #expect(failures.all.count == 1)
        #expect(failures.all.first?.contains("NOT NULL constraint failed") == true)
        let rows = try await store.reading { connection throws(StoreError) in try connection.query("SELECT provider FROM cooldowns") }
        #expect(rows == [[.text("c")]])
    }

    @Test func theQueuedWritesOfTheEngineAreOneStatementEach() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let key = CacheKey(provider: "p", slot: .current, placeKey: "53.9,27.57")
        let owner = LeaseOwner.random()
        #expect(try await store.acquire("k", owner: owner, seconds: 30, now: now))
        let decisions = try await store.acquire([PermitRequest(provider: "p", windows: [], cost: 1, deadline: now + 60)], now: now)
        guard case .granted(let call) = try #require(decisions.first) else { Issue.record("no permit"); return }
        await store.storeSoon(CacheEntry(fetchedAt: now, payload: "{}"), for: key, failed: { _ in })
        await store.settleSoon(call, at: now, failed: { _ in })
        await store.releaseSoon("k", owner: owner, failed: { _ in })
        await store.recordOutcomeSoon(provider: "p", succeeded: true, threshold: 3, now: now, failed: { _ in })
        let taken = store.queued.takeAll()
        store.queued.settled(taken)
        #expect(taken.count == 4)
        #expect(taken.filter(\.isOneStatement).count == 4)
    }
}

/// Failures told to queued writes' callers.
final class FailureMessages: Sendable {
    private let messages = Mutex<[String]>([])
    /// Every message so far.
    var all: [String] { messages.withLock { $0 } }
    /// Keeps `error`'s message.
    func add(_ error: StorageError) { messages.withLock { $0.append(error.message) } }
}
