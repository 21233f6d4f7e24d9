import Foundation
import IsobarCore
import IsobarEngine
@testable import IsobarStore
import Synchronization
import Testing

/// Failures told to a queued write's caller.
private final class Failures: Sendable {
    private let messages = Mutex<[String]>([])
    var all: [String] { messages.withLock { $0 } }
    func add(_ error: StorageError) { messages.withLock { $0.append(error.message) } }
}

@Suite struct QueuedWritesTests {
    let now = Date(timeIntervalSince1970: 1_795_856_400)
    let key = CacheKey(provider: "p", slot: .current, placeKey: "53.9,27.57")

    @Test func writesAJobHasTakenCountUntilCommittedSoAFlushWaitsForThem() {
        let queue = QueuedWrites()
        #expect(queue.isEmpty)
        _ = queue.append(QueuedWrites.Entry(body: { _ throws(StoreError) in }, failed: { _ in }, overlay: nil))
        #expect(!queue.isEmpty)
        let taken = queue.takeAll()
        #expect(taken.count == 1)
        #expect(!queue.isEmpty, "taken by a job but not yet committed: a flush must still wait for that job")
        queue.settled(taken)
        #expect(queue.isEmpty)
    }

    @Test func queuedWritesAreReadAsIfCommittedAndAFlushCommitsThem() async throws {
        let directory = freshDirectory()
        let store = try await Store.open(directory: directory, warn: noWarnings)
        let other = try await Store.open(directory: directory, warn: noWarnings)
        let failures = Failures()
        let entry = CacheEntry(fetchedAt: now, payload: "{}")
        _ = try await store.recordOutcome(provider: "p", succeeded: false, threshold: 1, now: now)
        await store.storeSoon(entry, for: key, failed: failures.add)
        await store.recordOutcomeSoon(provider: "p", succeeded: true, threshold: 1, now: now, failed: failures.add)
        // This process reads what it queued at once.
        #expect(try await store.entry(for: key) == entry)
        #expect(try await store.breaker(provider: "p") == BreakerState())
        #expect(try await store.health(provider: "p", now: now).breaker == BreakerState())
        await store.flushQueuedWrites()
        // Another process (another store on the file) reads it once it is committed.
        #expect(try await other.entry(for: key) == entry)
        #expect(try await other.breaker(provider: "p") == BreakerState())
        #expect(failures.all.isEmpty)
    }

    @Test func aQueuedSettleCountsAsUnsettledUntilCommittedAndAsSettledOnceUsageIsRead() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let windows = [RateLimit(limit: 1, perSeconds: 60)]
        let request = PermitRequest(provider: "p", windows: windows, cost: 1, deadline: now.addingTimeInterval(300))
        let call = try granted(try await store.acquire(request, now: now))
        await store.settleSoon(call, at: now.addingTimeInterval(1), failed: { _ in })
        // The next grant runs after the settle: the call counts for a window after its answer, not until the deadline.
        #expect(try await store.acquire(request, now: now.addingTimeInterval(2)) == .wait(until: now.addingTimeInterval(61)))
        await store.settleSoon(call, at: now.addingTimeInterval(5), failed: { _ in })
        #expect(try await store.usage(provider: "p", windows: windows, now: now.addingTimeInterval(64)) == [1])
        #expect(try await store.usage(provider: "p", windows: windows, now: now.addingTimeInterval(66)) == [0])
    }

    @Test func aQueuedLeaseReleaseIsCommittedBeforeTheNextAcquire() async throws {
        let directory = freshDirectory()
        let store = try await Store.open(directory: directory, warn: noWarnings)
        let other = try await Store.open(directory: directory, warn: noWarnings)
        let first = LeaseOwner.random()
        #expect(try await store.acquire("k", owner: first, seconds: 30, now: now))
        await store.releaseSoon("k", owner: first, failed: { _ in })
        #expect(try await store.acquire("k", owner: LeaseOwner.random(), seconds: 30, now: now.addingTimeInterval(1)))
        // Another process sees a release within the queued writes' delay, with no later write of the releasing one to carry it.
        let second = LeaseOwner.random()
        #expect(try await other.acquire("j", owner: second, seconds: 30, now: now))
        await other.releaseSoon("j", owner: second, failed: { _ in })
        let taken = try await Self.takenSoon { try await store.acquire("j", owner: first, seconds: 30, now: now.addingTimeInterval(3)) }
        #expect(taken)
    }

    @Test func queuedWritesRideInTheNextWritesTransaction() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let before = store.writeTransactions
        for index in 0..<50 {
            await store.storeSoon(CacheEntry(fetchedAt: now, payload: "\(index)"),
                                  for: CacheKey(provider: "p", slot: .current, placeKey: "\(index)"), failed: { _ in })
        }
        #expect(try await store.acquire("k", owner: LeaseOwner.random(), seconds: 30, now: now))
        #expect(store.writeTransactions - before == 1)
        #expect(store.queued.isEmpty)
        #expect(try await store.statistics().groups.first?.count == 50)
    }

    @Test func aQueuedWriteThatFailsIsToldAndLeavesTheWriteItRidesWithAlone() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let failures = Failures()
        store.writeSoon({ connection throws(StoreError) in try connection.execute("INSERT INTO no_such_table VALUES (1)") }, failed: failures.add)
        await store.storeSoon(CacheEntry(fetchedAt: now, payload: "{}"), for: key, failed: failures.add)
        #expect(try await store.acquire("k", owner: LeaseOwner.random(), seconds: 30, now: now))
        #expect(failures.all.count == 1)
        #expect(failures.all.first?.contains("no_such_table") == true)
        let reopened = try await Store.open(directory: (store.path as NSString).deletingLastPathComponent, warn: noWarnings)
        #expect(try await reopened.entry(for: key) != nil)
    }

    @Test func aWriteThatFailsKeepsTheQueuedWritesAheadOfIt() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        await store.storeSoon(CacheEntry(fetchedAt: now, payload: "{}"), for: key, failed: { _ in })
        await #expect(throws: StoreError.self) {
            try await store.write { connection throws(StoreError) in try connection.execute("INSERT INTO no_such_table VALUES (1)") }
        }
        let reopened = try await Store.open(directory: (store.path as NSString).deletingLastPathComponent, warn: noWarnings)
        #expect(try await reopened.entry(for: key) != nil)
    }

    /// Tries `acquire` until it succeeds, letting other tasks and threads run between tries; false after `tries` tries.
    private static func takenSoon(tries: Int = 100_000, _ acquire: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<tries {
            if try await acquire() { return true }
            try await Task.sleep(for: .milliseconds(1))
        }
        return false
    }
}
