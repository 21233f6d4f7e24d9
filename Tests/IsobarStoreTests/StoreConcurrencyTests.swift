import Foundation
import IsobarCore
import IsobarEngine
@testable import IsobarStore
import IsobarTestKit
import Synchronization
import Testing

/// A flag shared with a task.
final class Flag: Sendable {
    private let value = Atomic<Bool>(true)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func clear() { value.store(false, ordering: .relaxed) }
}

/// Holds the write lock of a store's file from a raw connection of its own, as another process would.
func holdWriteLock(of store: Store) throws -> Connection {
    let holder = try Connection(path: store.path, busyTimeoutMilliseconds: 0)
    try holder.execute("BEGIN IMMEDIATE")
    return holder
}

/// Options of a store whose writes wait for a lock held elsewhere as long as it is held: tests that order events by holding
/// the lock then depend on no timeout.
let waitingForever = Store.Options(lockWaitMilliseconds: .max)

@Suite struct StoreConcurrencyTests {
    let now = Date(timeIntervalSince1970: 1_795_856_400)

    @Test func twoStoresOnOneFileShareLeasesAndTheLedgerLikeTwoProcesses() async throws {
        let directory = freshDirectory()
        let one = try await Store.open(directory: directory, warn: noWarnings)
        let two = try await Store.open(directory: directory, warn: noWarnings)
        let first = LeaseOwner.random()
        let second = LeaseOwner.random()
        #expect(try await one.acquire("k", owner: first, seconds: 30, now: now))
        #expect(try await !two.acquire("k", owner: second, seconds: 30, now: now.addingTimeInterval(10)))
        #expect(try await two.acquire("k", owner: second, seconds: 30, now: now.addingTimeInterval(30)))
        #expect(try await !one.renew("k", owner: first, seconds: 30, now: now.addingTimeInterval(31)))
        try await one.release("k", owner: first)
        #expect(try await !one.acquire("k", owner: first, seconds: 30, now: now.addingTimeInterval(32)))
        try await two.release("k", owner: second)
        #expect(try await one.acquire("k", owner: first, seconds: 30, now: now.addingTimeInterval(33)))

        let windows = [RateLimit(limit: 2, perSeconds: 60)]
        let request = PermitRequest(provider: "p", windows: windows, cost: 1, deadline: now.addingTimeInterval(10))
        let call = try granted(try await one.acquire(request, now: now))
        _ = try granted(try await two.acquire(request, now: now.addingTimeInterval(1)))
        #expect(try await one.acquire(request, now: now.addingTimeInterval(2)) == .wait(until: now.addingTimeInterval(62)))
        // A call granted through one store is settled through the other: the id is the file's.
        try await two.settle(call, at: now.addingTimeInterval(3))
        #expect(try await one.acquire(request, now: now.addingTimeInterval(4)) == .wait(until: now.addingTimeInterval(63)))
        #expect(try await two.usage(provider: "p", windows: windows, now: now.addingTimeInterval(62)) == [2])
        #expect(try await two.usage(provider: "p", windows: windows, now: now.addingTimeInterval(64)) == [1])
    }

    @Test func concurrentWritesAreCommittedTogether() async throws {
        let store = try await Store.open(directory: freshDirectory(), options: waitingForever, warn: noWarnings)
        let windows = [RateLimit(limit: 50, perSeconds: 60)]
        let request = PermitRequest(provider: "p", windows: windows, cost: 1, deadline: now.addingTimeInterval(10))
        let before = store.writeTransactions
        let jobsBefore = store.writerJobs
        // Another process holds the lock: the writer waits, and every request arriving meanwhile queues up behind it.
        let holder = try holdWriteLock(of: store)
        let decisions = Task {
            try await withThrowingTaskGroup(of: PermitDecision.self) { group in
                for _ in 0..<200 { group.addTask { try await store.acquire(request, now: now) } }
                return try await group.reduce(into: [PermitDecision]()) { $0.append($1) }
            }
        }
        #expect(await eventually { store.writerJobs - jobsBefore == 200 })
        try holder.execute("COMMIT")
        let all = try await decisions.value
        #expect(all.count == 200)
        #expect(all.filter { if case .granted = $0 { true } else { false } }.count == 50)
        #expect(all.filter { $0 == .wait(until: now.addingTimeInterval(60)) }.count == 150)
        let transactions = store.writeTransactions - before
        #expect(transactions >= 1 && transactions <= 3, "200 writes took \(transactions) transactions")
        #expect(try await store.usage(provider: "p", windows: windows, now: now) == [50])
    }

    @Test func aFailingJobRollsBackOnlyItselfAndGetsItsOwnError() async throws {
        let store = try await Store.open(directory: freshDirectory(), options: waitingForever, warn: noWarnings)
        let before = store.writeTransactions
        let takenBefore = store.writerJobsTaken
        let jobsBefore = store.writerJobs
        let holder = try holdWriteLock(of: store)
        let first = Task { try await store.setCooldown(Cooldown(until: now, reason: "first"), provider: "first") }
        // The writer has taken the first job and waits for the lock; the next three queue up and go through together.
        #expect(await eventually { store.writerJobsTaken - takenBefore == 1 })
        let good = Task { try await store.setCooldown(Cooldown(until: now, reason: "kept"), provider: "a") }
        let bad = Task {
            try await store.write { (connection) throws(StoreError) in
                try connection.query("INSERT INTO cooldowns(provider, until, reason) VALUES ('b', 1, 'lost')")
                try connection.query("INSERT INTO no_such_table VALUES (1)")
            }
        }
        let alsoGood = Task { try await store.setCooldown(Cooldown(until: now, reason: "kept too"), provider: "c") }
        #expect(await eventually { store.writerJobs - jobsBefore == 4 })
        try holder.execute("COMMIT")
        try await first.value
        try await good.value
        try await alsoGood.value
        let error = await #expect(throws: StoreError.self) { try await bad.value }
        #expect(error?.message.contains("no such table: no_such_table") == true)
        #expect(try await store.cooldown(provider: "a", now: .distantPast)?.reason == "kept")
        #expect(try await store.cooldown(provider: "b", now: .distantPast) == nil)
        #expect(try await store.cooldown(provider: "c", now: .distantPast)?.reason == "kept too")
        #expect(store.writeTransactions - before <= 2)
    }

    /// What blocks (a job's SQLite work, the test aid's delay, a wait for a lock) runs on the store's own threads, never on
    /// the calling task's: every job of twenty writes and twenty reads over a slow store says where it ran.
    @Test func aSlowStoreRunsEveryJobOnItsOwnThreads() async throws {
        let store = try await Store.open(directory: freshDirectory(), options: Store.Options(artificialDelayPerJob: .milliseconds(20)),
                                         warn: noWarnings)
        let places = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<40 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        return try await store.write { _ throws(StoreError) in store.isOwnThread }
                    }
                    return try await store.read { _ throws(StoreError) in store.isOwnThread }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(places.count == 40)
        #expect(places.allSatisfy { $0 }, "\(places.filter { !$0 }.count) of 40 jobs ran on the caller's thread")
        // The callers' own threads are not the store's.
        #expect(!store.isOwnThread)
    }

    @Test func aHeldWriteLockBlocksNoPoolThreadAndReadsStillAnswer() async throws {
        let store = try await Store.open(directory: freshDirectory(), options: waitingForever, warn: noWarnings)
        try await store.store(CacheEntry(fetchedAt: now, payload: "stale"), for: key("k"))
        let before = store.writeTransactions
        let holder = try holdWriteLock(of: store)
        let writerJobs = store.writerJobs
        let takenBefore = store.writerJobsTaken
        let writes = (0..<8).map { index in
            Task { try await store.store(CacheEntry(fetchedAt: now, payload: "fresh \(index)"), for: key("k\(index)")) }
        }
        // The writer's thread has taken a write and waits for the lock, which the holder keeps until the end of the reads.
        #expect(await eventually { store.writerJobs == writerJobs + 8 && store.writerJobsTaken > takenBefore }, "the writes were not queued")
        for _ in 0..<5 {
            // A read that needed the lock would wait as long as the writes do: it answers instead.
            #expect(try await store.entry(for: key("k"))?.payload == "stale")
            #expect(try await store.statistics().groups.first?.count == 1)
            // Nor does a read queue behind the waiting writes: no job of a read is the writer's.
            #expect(store.writerJobs == writerJobs + 8)
        }
        // A command starting now opens the file and reads without waiting for the lock either: had opening needed it,
        // it would still be waiting (or have fallen back to memory: a warning, and no cached answer).
        let late = try await Store.open(directory: (store.path as NSString).deletingLastPathComponent, options: waitingForever,
                                        warn: noWarnings)
        #expect(late.location == store.path)
        #expect(try await late.entry(for: key("k"))?.payload == "stale")
        #expect(store.writeTransactions == before)
        try holder.execute("COMMIT")
        // Every waiting write goes in once the lock is released.
        for write in writes { try await write.value }
        for index in 0..<8 { #expect(try await store.entry(for: key("k\(index)"))?.payload == "fresh \(index)") }
    }

    /// A write that finds the file locked elsewhere waits at most its lock wait, then fails naming the lock; the next writes,
    /// while the lock is still held, wait only briefly, and once it is released, writes go in again.
    @Test func aLockHeldElsewhereIsWaitedForOnceThenWritesFailFastUntilItIsReleased() async throws {
        let store = try await Store.open(directory: freshDirectory(), options: Store.Options(lockWaitMilliseconds: 200), warn: noWarnings)
        try await store.store(CacheEntry(fetchedAt: now, payload: "before"), for: key("k"))
        let holder = try holdWriteLock(of: store)
        for index in 0..<3 {
            let error = await #expect(throws: StorageError.self) {
                try await store.store(CacheEntry(fetchedAt: now, payload: "\(index)"), for: key("k"))
            }
            #expect(error?.message.contains("locked") == true, "\(String(describing: error))")
        }
        try holder.execute("COMMIT")
        try await store.store(CacheEntry(fetchedAt: now, payload: "after"), for: key("k"))
        #expect(try await store.entry(for: key("k"))?.payload == "after")
    }
}
