import Foundation
import IsobarCore
import IsobarEngine
@testable import IsobarStore
import Synchronization
import Testing

/// A task on the cooperative pool that ticks every few milliseconds while `body` runs: if the pool were blocked,
/// it would stop ticking. Returns how often it ticked and the longest gap between ticks.
func probingThePool<T: Sendable>(while body: () async throws -> T) async throws -> (result: T, ticks: Int, longestGap: Duration) {
    let running = Flag()
    return try await withThrowingTaskGroup(of: (Int, Duration).self) { group in
        group.addTask {
            let clock = ContinuousClock()
            var ticks = 0
            var longest = Duration.zero
            var last = clock.now
            while running.isSet {
                try await Task.sleep(for: .milliseconds(5))
                ticks += 1
                longest = max(longest, clock.now - last)
                last = clock.now
            }
            return (ticks, longest)
        }
        defer { running.clear() }
        let result = try await body()
        running.clear()
        let (ticks, longest) = try await group.next() ?? (0, .zero)
        return (result, ticks, longest)
    }
}

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

/// Waits (on the pool, without blocking it) until `condition` holds, for at most `seconds`.
func eventually(within seconds: Double = 5, _ condition: () -> Bool) async throws -> Bool {
    let clock = ContinuousClock()
    let end = clock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        guard clock.now < end else { return false }
        try await Task.sleep(for: .milliseconds(2))
    }
    return true
}

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
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
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
        #expect(try await eventually { store.writerJobs - jobsBefore == 200 })
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
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let before = store.writeTransactions
        let jobsBefore = store.writerJobs
        let holder = try holdWriteLock(of: store)
        let first = Task { try await store.setCooldown(Cooldown(until: now, reason: "first"), provider: "first") }
        // The writer takes the first job and waits for the lock; the next three queue up and go through together.
        #expect(try await eventually { store.writerJobs - jobsBefore == 1 })
        try await Task.sleep(for: .milliseconds(50))
        let good = Task { try await store.setCooldown(Cooldown(until: now, reason: "kept"), provider: "a") }
        let bad = Task {
            try await store.write { (connection) throws(StoreError) in
                try connection.query("INSERT INTO cooldowns(provider, until, reason) VALUES ('b', 1, 'lost')")
                try connection.query("INSERT INTO no_such_table VALUES (1)")
            }
        }
        let alsoGood = Task { try await store.setCooldown(Cooldown(until: now, reason: "kept too"), provider: "c") }
        #expect(try await eventually { store.writerJobs - jobsBefore == 4 })
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

    @Test func aSlowStoreNeverBlocksThePool() async throws {
        let store = try await Store.open(directory: freshDirectory(), options: Store.Options(artificialDelayPerJob: .milliseconds(200)),
                                         warn: noWarnings)
        let clock = ContinuousClock()
        let begin = clock.now
        let (_, ticks, longestGap) = try await probingThePool {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        if index.isMultiple(of: 2) {
                            try await store.store(CacheEntry(fetchedAt: now, payload: "\(index)"), for: key("\(index)"))
                        } else {
                            _ = try await store.entry(for: key("\(index)"))
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        // Twenty writes and twenty reads of 200 ms each, on the writer's and the reader's threads: about 4 s in all. Had they
        // blocked the pool's threads (two here), the probe would have stalled for as long; other tests running at the same time
        // on a loaded machine (the whole suite starting at once on two cores) can stall it for two seconds or so, hence the margin.
        #expect(clock.now - begin >= .milliseconds(3900))
        #expect(ticks >= 2, "the probe ticked only \(ticks) times")
        #expect(longestGap < .milliseconds(3000), "the probe stalled for \(longestGap)")
    }

    @Test func aHeldWriteLockBlocksNoPoolThreadAndReadsStillAnswer() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        try await store.store(CacheEntry(fetchedAt: now, payload: "stale"), for: key("k"))
        let before = store.writeTransactions
        let holder = try holdWriteLock(of: store)
        let clock = ContinuousClock()
        let writerJobs = store.writerJobs
        let writes = (0..<8).map { index in
            Task { try await store.store(CacheEntry(fetchedAt: now, payload: "fresh \(index)"), for: key("k\(index)")) }
        }
        #expect(try await eventually { store.writerJobs == writerJobs + 8 }, "the writes were not queued")
        let (_, ticks, longestGap) = try await probingThePool {
            try await Task.sleep(for: .milliseconds(300))
            for _ in 0..<5 {
                let begin = clock.now
                // The holder keeps the lock to the end: a read that needed it would fail (busy) after 5 s, not answer.
                #expect(try await store.entry(for: key("k"))?.payload == "stale")
                #expect(try await store.statistics().groups.first?.count == 1)
                // Nor does a read queue behind the writes waiting for the lock (5 s each try): no job of a read is the
                // writer's. The time is a coarse check on top (a loaded machine has stalled the pool for seconds).
                #expect(store.writerJobs == writerJobs + 8)
                #expect(clock.now - begin < .seconds(15))
            }
            // A command starting now opens the file and reads without waiting for the lock either: had opening needed it,
            // the store would have fallen back to memory (a warning, and no cached answer).
            let begin = clock.now
            let late = try await Store.open(directory: (store.path as NSString).deletingLastPathComponent, warn: noWarnings)
            #expect(late.location == store.path)
            #expect(try await late.entry(for: key("k"))?.payload == "stale")
            #expect(clock.now - begin < .seconds(15))
            try await Task.sleep(for: .milliseconds(300))
        }
        // Eight writes waiting 5 s for the lock on the pool's two threads would stall the probe for 5 s or more; the whole
        // suite starting at once on two cores can delay it for two seconds or so.
        #expect(ticks >= 2, "the probe ticked only \(ticks) times")
        #expect(longestGap < .milliseconds(3500), "the probe stalled for \(longestGap)")
        #expect(store.writeTransactions == before)
        try holder.execute("COMMIT")
        // Each waiting write went in once the lock was released, unless it waited past the 5 s busy timeout (a loaded machine),
        // in which case it failed plainly, naming the lock; a write now goes in.
        for write in writes {
            do {
                try await write.value
            } catch let error as StorageError {
                #expect(error.message.contains("locked"), "\(error)")
            }
        }
        try await store.store(CacheEntry(fetchedAt: now, payload: "fresh 8"), for: key("k8"))
        #expect(try await store.entry(for: key("k8"))?.payload == "fresh 8")
    }
}
