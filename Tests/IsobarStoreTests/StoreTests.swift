import Foundation
import IsobarCore
@testable import IsobarStore
import Testing

func freshDirectory() -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-store-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The first value of a query's first row.
func scalar(_ store: Store, _ sql: String) throws -> SQLValue? {
    try store.read { (connection) throws(StoreError) -> SQLValue? in try connection.query(sql).first?.first }
}

/// Collects warnings.
final class Warnings: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

@Suite struct StoreOpeningTests {
    @Test func aNewFileIsMigratedAndKeepsDataAcrossOpenings() throws {
        let directory = freshDirectory()
        let first = try Store.open(directory: directory, warn: { Issue.record("unexpected warning: \($0)") })
        try first.storeCached(provider: "p", kind: "current", placeKey: "1,2", entry: CacheEntry(fetchedAt: Date(timeIntervalSince1970: 5), payload: "x"))
        #expect(try scalar(first, "PRAGMA user_version")?.int == Store.schemaVersion)
        #expect(try scalar(first, "PRAGMA journal_mode")?.text == "wal")
        let second = try Store.open(directory: directory, warn: { Issue.record("unexpected warning: \($0)") })
        #expect(try second.cached(provider: "p", kind: "current", placeKey: "1,2")?.payload == "x")
    }

    @Test func aCorruptFileIsMovedAsideAndRebuilt() throws {
        let directory = freshDirectory()
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: directory + "/isobar.sqlite"))
        let warnings = Warnings()
        let store = try Store.open(directory: directory, warn: warnings.add)
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("was damaged; moved it to") == true)
        #expect(store.path == directory + "/isobar.sqlite")
        try store.storeCached(provider: "p", kind: "current", placeKey: "k", entry: CacheEntry(fetchedAt: Date(), payload: "ok"))
        #expect(try store.integrityCheck() == "ok")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(names.contains { $0.hasPrefix("isobar.sqlite.corrupt-") })
    }

    @Test func aTruncatedDatabaseIsMovedAsideAndRebuilt() throws {
        let directory = freshDirectory()
        let store = try Store.open(directory: directory, warn: { _ in })
        for index in 0..<200 {
            try store.storeCached(provider: "p", kind: "current", placeKey: "\(index)",
                                  entry: CacheEntry(fetchedAt: Date(), payload: String(repeating: "y", count: 500)))
        }
        _ = try scalar(store, "PRAGMA wal_checkpoint(TRUNCATE)")
        let path = directory + "/isobar.sqlite"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var damaged = bytes
        damaged.replaceSubrange(4096..<min(bytes.count, 4096 * 3), with: Data(repeating: 0xFF, count: min(bytes.count, 4096 * 3) - 4096))
        try damaged.write(to: URL(fileURLWithPath: path))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let warnings = Warnings()
        let reopened = try Store.open(directory: directory, warn: warnings.add)
        // Either the damage is found at open and the file rebuilt, or reads still work: never a crash or a lost command.
        _ = try? reopened.cacheStatistics()
        try reopened.storeCached(provider: "p", kind: "current", placeKey: "new", entry: CacheEntry(fetchedAt: Date(), payload: "z"))
        #expect(try reopened.cached(provider: "p", kind: "current", placeKey: "new")?.payload == "z")
    }

    @Test func anUnusableDirectoryFallsBackToMemoryWithAWarning() throws {
        let directory = freshDirectory()
        let blocker = directory + "/not-a-directory"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let warnings = Warnings()
        let store = try Store.open(directory: blocker + "/cache", warn: warnings.add)
        #expect(store.path == ":memory:")
        #expect(warnings.all.first?.contains("cannot create the cache directory") == true)
        try store.storeCached(provider: "p", kind: "current", placeKey: "k", entry: CacheEntry(fetchedAt: Date(), payload: "m"))
        #expect(try store.cached(provider: "p", kind: "current", placeKey: "k")?.payload == "m")
    }

    @Test func aNewerSchemaIsNotTouched() throws {
        let directory = freshDirectory()
        let store = try Store.open(directory: directory, warn: { _ in })
        _ = try scalar(store, "PRAGMA user_version = 99")
        let warnings = Warnings()
        let reopened = try Store.open(directory: directory, warn: warnings.add)
        #expect(reopened.path == ":memory:")
        #expect(warnings.all.first?.contains("newer than this build") == true)
    }

    @Test func aWriterHoldingTheLockMakesOthersWaitNotFail() async throws {
        let directory = freshDirectory()
        let holder = try Store.open(directory: directory, warn: { _ in })
        let other = try Store.open(directory: directory, warn: { _ in })
        let started = DispatchSemaphore(value: 0)
        let thread = Thread {
            try? holder.write { (connection) throws(StoreError) in
                started.signal()
                Thread.sleep(forTimeInterval: 0.8)
                try connection.query("INSERT INTO cooldowns(provider, until, reason) VALUES ('held', 1, 'test')")
            }
        }
        thread.start()
        started.wait()
        let clock = ContinuousClock()
        let begin = clock.now
        try other.storeCached(provider: "p", kind: "current", placeKey: "k", entry: CacheEntry(fetchedAt: Date(), payload: "after"))
        #expect(clock.now - begin >= .milliseconds(500))
        #expect(try other.cached(provider: "p", kind: "current", placeKey: "k")?.payload == "after")
    }
}

@Suite struct LedgerTests {
    let now = Date(timeIntervalSince1970: 1_795_856_400)

    @Test func permitsCountWeightedCallsInEveryWindow() throws {
        let store = try Store.inMemory()
        let windows = [RateLimit(limit: 10, perSeconds: 60), RateLimit(limit: 12, perSeconds: 3600)]
        let deadline = now.addingTimeInterval(10)
        let first = try store.acquirePermit(provider: "p", windows: windows, cost: 4, now: now, deadline: deadline)
        guard case .granted(let firstID) = first else { Issue.record("expected a grant, got \(first)"); return }
        try store.settle(callID: firstID, at: now)
        let second = try store.acquirePermit(provider: "p", windows: windows, cost: 4, now: now.addingTimeInterval(10), deadline: deadline)
        guard case .granted(let secondID) = second else { Issue.record("expected a grant, got \(second)"); return }
        try store.settle(callID: secondID, at: now.addingTimeInterval(10))
        // 8 used of 10 per minute: a call of 4 must wait until the first leaves the minute window.
        #expect(try store.acquirePermit(provider: "p", windows: windows, cost: 4, now: now.addingTimeInterval(20), deadline: deadline)
            == .wait(until: now.addingTimeInterval(60)))
        let third = try store.acquirePermit(provider: "p", windows: windows, cost: 4, now: now.addingTimeInterval(61), deadline: deadline)
        guard case .granted(let thirdID) = third else { Issue.record("expected a grant, got \(third)"); return }
        try store.settle(callID: thirdID, at: now.addingTimeInterval(61))
        // 12 of 12 per hour now: the hour window decides.
        #expect(try store.acquirePermit(provider: "p", windows: windows, cost: 1, now: now.addingTimeInterval(200), deadline: deadline)
            == .wait(until: now.addingTimeInterval(3600)))
        #expect(try store.usage(provider: "p", windows: windows, now: now.addingTimeInterval(200)) == [0, 12])
        #expect(try store.usage(provider: "other", windows: windows, now: now) == [0, 0])
    }

    @Test func aCallCountsUntilAWindowAfterItSettles() throws {
        let store = try Store.inMemory()
        let windows = [RateLimit(limit: 1, perSeconds: 2)]
        let granted = try store.acquirePermit(provider: "p", windows: windows, cost: 1, now: now, deadline: now.addingTimeInterval(10))
        guard case .granted(let id) = granted else { Issue.record("expected a grant"); return }
        // In flight for 5 s: it still counts, and frees up no earlier than 2 s from now.
        #expect(try store.acquirePermit(provider: "p", windows: windows, cost: 1, now: now.addingTimeInterval(5), deadline: now.addingTimeInterval(15))
            == .wait(until: now.addingTimeInterval(7)))
        try store.settle(callID: id, at: now.addingTimeInterval(5))
        #expect(try store.acquirePermit(provider: "p", windows: windows, cost: 1, now: now.addingTimeInterval(6.5), deadline: now.addingTimeInterval(20))
            == .wait(until: now.addingTimeInterval(7)))
        // An unsettled call (its process died) stops counting a window after its deadline.
        let orphan = try Store.inMemory()
        _ = try orphan.acquirePermit(provider: "p", windows: windows, cost: 1, now: now, deadline: now.addingTimeInterval(10))
        #expect(try orphan.usage(provider: "p", windows: windows, now: now.addingTimeInterval(11)) == [1])
        #expect(try orphan.usage(provider: "p", windows: windows, now: now.addingTimeInterval(12.5)) == [0])
    }

    @Test func aCallLargerThanTheLimitNeverFits() throws {
        let store = try Store.inMemory()
        #expect(try store.acquirePermit(provider: "p", windows: [RateLimit(limit: 2, perSeconds: 60)], cost: 3, now: now,
                                        deadline: now.addingTimeInterval(10)) == .wait(until: .distantFuture))
    }

    @Test func cooldownsBreakersAndLocks() throws {
        let store = try Store.inMemory()
        try store.setCooldown(provider: "p", until: now.addingTimeInterval(30), reason: "HTTP 429")
        try store.setCooldown(provider: "p", until: now.addingTimeInterval(10), reason: "HTTP 429")
        #expect(try store.cooldown(provider: "p", now: now)?.until == now.addingTimeInterval(30))
        #expect(try store.cooldown(provider: "p", now: now.addingTimeInterval(31)) == nil)
        for failure in 1...4 {
            #expect(try store.recordOutcome(provider: "p", succeeded: false, threshold: 5, now: now).failures == failure)
        }
        #expect(try store.breaker(provider: "p").openedAt == nil)
        #expect(try store.recordOutcome(provider: "p", succeeded: false, threshold: 5, now: now).openedAt == now)
        #expect(try store.recordOutcome(provider: "p", succeeded: true, threshold: 5, now: now).failures == 0)
        let alive: (Int32) -> Bool = { _ in true }
        #expect(try store.tryLock("k", pid: 1, now: now, staleAfter: 5, isAlive: alive))
        #expect(try !store.tryLock("k", pid: 2, now: now.addingTimeInterval(1), staleAfter: 5, isAlive: alive))
        #expect(try store.tryLock("k", pid: 2, now: now.addingTimeInterval(6), staleAfter: 5, isAlive: alive))
        #expect(try store.tryLock("k", pid: 3, now: now.addingTimeInterval(7), staleAfter: 5, isAlive: { $0 != 2 }))
        try store.unlock("k", pid: 3)
        #expect(try store.tryLock("k", pid: 4, now: now.addingTimeInterval(8), staleAfter: 5, isAlive: alive))
    }

    @Test func statisticsClearAndPrune() throws {
        let store = try Store.inMemory()
        for (index, age) in [10.0, 100_000, 200_000].enumerated() {
            try store.storeCached(provider: "p", kind: "current", placeKey: "\(index)",
                                  entry: CacheEntry(fetchedAt: now.addingTimeInterval(-age), payload: "abc"))
        }
        let statistics = try store.cacheStatistics()
        #expect(statistics.entries.map(\.count) == [3])
        #expect(statistics.payloadBytes == 9)
        #expect(try store.pruneCache(fetchedBefore: now.addingTimeInterval(-86_400), ledgerBefore: now) == 2)
        #expect(try store.clearCache() == 1)
        #expect(try store.cacheStatistics().entries.isEmpty)
    }
}

@Suite struct ReportCodecTests {
    @Test func reportsRoundTripExactly() throws {
        let place = Place(name: "Minsk", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!)
        var sample = WeatherSample(time: Date(timeIntervalSince1970: 1_795_856_400), periodHours: 0.25)
        sample.temperatureC = 0.1 + 0.2
        sample.windDirectionDeg = 359.99
        sample.condition = .thunderstormWithHail
        sample.isDay = false
        var day = DailyPoint(date: LocalDate(daysSinceEpoch: 20_785), isDerived: true)
        day.temperatureMaxC = -3.5
        day.condition = .snowGrains
        day.sunrise = Date(timeIntervalSince1970: 1_795_845_590)
        let report = WeatherReport(providerID: "open-meteo", place: place, source: .replay(recordedAt: Date(timeIntervalSince1970: 7)),
                                   fetchedAt: Date(timeIntervalSince1970: 1_795_856_400.5), utcOffsetSeconds: 10_800,
                                   timeZoneIdentifier: "Europe/Minsk", current: sample, hourly: [sample, sample], daily: [day])
        let decoded = try #require(ReportCodec.decode(ReportCodec.encode(report), place: place))
        #expect(decoded == report)
    }

    @Test func unreadableOrOtherVersionPayloadsAreIgnored() {
        let place = Place(name: "X", coordinate: Coordinate(latitude: 0, longitude: 0)!)
        #expect(ReportCodec.decode("{", place: place) == nil)
        #expect(ReportCodec.decode(#"{"v":2}"#, place: place) == nil)
        #expect(ReportCodec.decode(#"{"v":1,"provider":"p"}"#, place: place) == nil)
    }
}
