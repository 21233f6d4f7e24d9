import Foundation
import IsobarCore
import IsobarEngine
@testable import IsobarStore
import IsobarTestKit
import Testing

/// A folder whose cache file held 200 answers and then had pages 2 to 4 (the cache table's root among them) overwritten
/// with garbage, as after a disk fault; page 1 stays sound, so the damage is found only by reading.
func damagedCacheDirectory() async throws -> String {
    let directory = freshDirectory()
    let filler = try await Store.open(directory: directory, warn: noWarnings)
    for index in 0..<200 {
        try await filler.store(CacheEntry(fetchedAt: Date(), payload: String(repeating: "y", count: 500)), for: key("\(index)"))
    }
    _ = try await scalar(filler, "PRAGMA wal_checkpoint(TRUNCATE)")
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/isobar.sqlite"))
    try handle.seek(toOffset: 4096)
    try handle.write(contentsOf: Data(repeating: 0xFF, count: 4096 * 3))
    try handle.close()
    return directory
}

func freshDirectory() -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-store-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The first value of a query's first row, run on the writer's connection outside any transaction.
func scalar(_ store: Store, _ sql: String) async throws -> SQLValue? {
    try await store.bare { (connection) throws(StoreError) -> SQLValue? in try connection.query(sql).first?.first }
}

/// Collects warnings.
final class Warnings: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

/// A warn closure that fails the test on any warning.
let noWarnings: @Sendable (String) -> Void = { Issue.record("unexpected warning: \($0)") }

func key(_ place: String, _ slot: CacheSlot = .current, provider: String = "p") -> CacheKey {
    CacheKey(provider: provider, slot: slot, placeKey: place)
}

@Suite struct StoreOpeningTests {
    @Test func aMissingDirectoryIsCreatedAndANewFileMigratedAndKeptAcrossOpenings() async throws {
        let directory = freshDirectory() + "/nested/cache"
        let first = try await Store.open(directory: directory, warn: noWarnings)
        #expect(first.path == directory + "/isobar.sqlite")
        #expect(first.location == first.path)
        try await first.store(CacheEntry(fetchedAt: Date(timeIntervalSince1970: 5), payload: "x"), for: key("1,2"))
        #expect(try await scalar(first, "PRAGMA user_version")?.int == Store.schemaVersion)
        #expect(try await scalar(first, "PRAGMA journal_mode")?.text == "wal")
        #expect(first.fileSize > 0)
        let second = try await Store.open(directory: directory, warn: noWarnings)
        #expect(try await second.entry(for: key("1,2"))?.payload == "x")
    }

    @Test func theSizeOnDiskCountsTheWriteAheadLog() async throws {
        let directory = freshDirectory()
        let store = try await Store.open(directory: directory, warn: noWarnings)
        try await store.store(CacheEntry(fetchedAt: Date(timeIntervalSince1970: 5), payload: String(repeating: "y", count: 20_000)), for: key("3,4"))
        var wal = stat()
        #expect(stat(store.path + "-wal", &wal) == 0 && wal.st_size > 0)
        var main = stat()
        #expect(stat(store.path, &main) == 0)
        #expect(store.fileSize >= Int(main.st_size) + Int(wal.st_size))
    }

    @Test func aCorruptFileIsMovedAsideAndRebuilt() async throws {
        let directory = freshDirectory()
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: directory + "/isobar.sqlite"))
        let warnings = Warnings()
        let store = try await Store.open(directory: directory, warn: warnings.add)
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("was damaged; moved it to") == true)
        #expect(store.path == directory + "/isobar.sqlite")
        try await store.store(CacheEntry(fetchedAt: Date(), payload: "ok"), for: key("k"))
        #expect(try await store.integrityCheck() == "ok")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(names.contains { $0.hasPrefix("isobar.sqlite.corrupt-") })
    }

    @Test func aTruncatedDatabaseIsMovedAsideAndRebuilt() async throws {
        let directory = freshDirectory()
        let store = try await Store.open(directory: directory, warn: { _ in })
        for index in 0..<200 {
            try await store.store(CacheEntry(fetchedAt: Date(), payload: String(repeating: "y", count: 500)), for: key("\(index)"))
        }
        _ = try await scalar(store, "PRAGMA wal_checkpoint(TRUNCATE)")
        let path = directory + "/isobar.sqlite"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var damaged = bytes
        damaged.replaceSubrange(4096..<min(bytes.count, 4096 * 3), with: Data(repeating: 0xFF, count: min(bytes.count, 4096 * 3) - 4096))
        try damaged.write(to: URL(fileURLWithPath: path))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let warnings = Warnings()
        let reopened = try await Store.open(directory: directory, warn: warnings.add)
        // Either the damage is found at open and the file rebuilt, or reads still work: never a crash or a lost command.
        _ = try? await reopened.statistics()
        try await reopened.store(CacheEntry(fetchedAt: Date(), payload: "z"), for: key("new"))
        #expect(try await reopened.entry(for: key("new"))?.payload == "z")
    }

    @Test func damageFoundByAReadIsRepairedForTheWriterToo() async throws {
        let directory = try await damagedCacheDirectory()
        let warnings = Warnings()
        let store = try await Store.open(directory: directory, warn: warnings.add)
        #expect(warnings.all.isEmpty)
        // The reader finds the damage, moves the file aside and answers from the new one; the writer follows.
        #expect(try await store.statistics() == CacheStatistics(groups: [], payloadBytes: 0))
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("was damaged; moved it to") == true)
        try await store.store(CacheEntry(fetchedAt: Date(), payload: "after"), for: key("k"))
        #expect(try await store.entry(for: key("k"))?.payload == "after")
        #expect(try await store.integrityCheck() == "ok")
        #expect(warnings.all.count == 1)
    }

    @Test func anUnusableDirectoryFallsBackToMemoryWithAWarning() async throws {
        let directory = freshDirectory()
        let blocker = directory + "/not-a-directory"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let warnings = Warnings()
        let store = try await Store.open(directory: blocker + "/cache", warn: warnings.add)
        #expect(store.path == ":memory:")
        #expect(store.location == "memory")
        #expect(warnings.all.first?.contains("cannot create the cache directory") == true)
        try await store.store(CacheEntry(fetchedAt: Date(), payload: "m"), for: key("k"))
        #expect(try await store.entry(for: key("k"))?.payload == "m")
    }

    @Test func anUnwritableDirectoryFallsBackToMemoryWithAWarning() async throws {
        // /proc exists and refuses new files to everyone, root included.
        let warnings = Warnings()
        let store = try await Store.open(directory: "/proc", warn: warnings.add)
        #expect(store.path == ":memory:")
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("cannot use the cache /proc/isobar.sqlite") == true)
        #expect(warnings.all.first?.contains("using a temporary in-memory cache") == true)
        try await store.setCooldown(Cooldown(until: Date(timeIntervalSince1970: 10), reason: "r"), provider: "p")
        #expect(try await store.cooldown(provider: "p", now: Date(timeIntervalSince1970: 0))?.reason == "r")
    }

    @Test func aNewerSchemaIsNotTouched() async throws {
        let directory = freshDirectory()
        let store = try await Store.open(directory: directory, warn: { _ in })
        _ = try await scalar(store, "PRAGMA user_version = 99")
        let warnings = Warnings()
        let reopened = try await Store.open(directory: directory, warn: warnings.add)
        #expect(reopened.path == ":memory:")
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("has schema version 99, newer than this build's \(Store.schemaVersion)") == true)
        #expect(try await scalar(store, "PRAGMA user_version")?.int == 99)
    }

    @Test func aNegativeSchemaVersionIsDamageAndTheFileIsRebuilt() async throws {
        let directory = freshDirectory()
        let store = try await Store.open(directory: directory, warn: { _ in })
        _ = try await scalar(store, "PRAGMA user_version = -1")
        let warnings = Warnings()
        let reopened = try await Store.open(directory: directory, warn: warnings.add)
        #expect(reopened.path != ":memory:")
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("damaged") == true)
        #expect(try await scalar(reopened, "PRAGMA user_version")?.int == Store.schemaVersion)
    }

    @Test func aVersionThreeFileKeepsItsCallsAndItsFetchLocksBecomeLeases() async throws {
        let directory = freshDirectory()
        let path = directory + "/isobar.sqlite"
        let old = try Connection(path: path, busyTimeoutMilliseconds: 1000)
        try old.execute("PRAGMA journal_mode=WAL")
        for migration in Store.migrations[0..<3] { try old.execute(migration) }
        try old.execute("PRAGMA user_version = 3")
        try old.query("INSERT INTO rate_events(rowid, provider, at, cost, deadline) VALUES (41, 'p', 100, 1, 200)")
        try old.query("INSERT INTO fetch_locks(lock_key, holder_pid, acquired_at) VALUES ('k', 123, 100)")
        let store = try await Store.open(directory: directory, warn: noWarnings)
        #expect(try await scalar(store, "PRAGMA user_version")?.int == Store.schemaVersion)
        #expect(try await scalar(store, "SELECT count(*) FROM sqlite_master WHERE name = 'fetch_locks'")?.int == 0)
        let windows = [RateLimit(limit: 5, perSeconds: 60)]
        #expect(try await store.usage(provider: "p", windows: windows, now: Date(timeIntervalSince1970: 150)) == [1])
        try await store.settle(CallID("41"), at: Date(timeIntervalSince1970: 110))
        #expect(try await store.usage(provider: "p", windows: windows, now: Date(timeIntervalSince1970: 171)) == [0])
        #expect(try await store.acquire("k", owner: LeaseOwner(token: "a"), seconds: 5, now: Date(timeIntervalSince1970: 100)))
    }

    @Test func aVersionFourFileKeepsItsAnswersWithNoHTTPLifetime() async throws {
        let directory = freshDirectory()
        let path = directory + "/isobar.sqlite"
        let old = try Connection(path: path, busyTimeoutMilliseconds: 1000)
        try old.execute("PRAGMA journal_mode=WAL")
        for migration in Store.migrations[0..<4] { try old.execute(migration) }
        try old.execute("PRAGMA user_version = 4")
        try old.query("INSERT INTO cache(provider, kind, place_key, fetched_at, payload) VALUES ('p', 'current', '1,2', 100, 'x')")
        let store = try await Store.open(directory: directory, warn: noWarnings)
        #expect(try await scalar(store, "PRAGMA user_version")?.int == Store.schemaVersion)
        #expect(try await store.entry(for: key("1,2")) == CacheEntry(fetchedAt: Date(timeIntervalSince1970: 100), payload: "x"))
        #expect(try await store.validation(for: "k") == nil)
    }

    @Test func failuresNameTheFileAndTheCause() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        _ = try await scalar(store, "DROP TABLE cache")
        let error = await #expect(throws: StorageError.self) { try await store.entry(for: key("k")) }
        #expect(error?.message.contains(store.path) == true)
        #expect(error?.message.contains("no such table: cache") == true)
        await #expect(throws: StorageError.self) { try await store.settle(CallID("not-a-row"), at: Date()) }
    }

    @Test func aWriterHoldingTheLockMakesOthersWaitNotFail() async throws {
        let directory = freshDirectory()
        let other = try await Store.open(directory: directory, options: waitingForever, warn: noWarnings)
        let holder = try Connection(path: other.path, busyTimeoutMilliseconds: 0)
        try holder.execute("BEGIN IMMEDIATE")
        let takenBefore = other.writerJobsTaken
        let write = Task { try await other.store(CacheEntry(fetchedAt: Date(), payload: "after"), for: key("k")) }
        // The other store's writer has taken the write and waits for the lock.
        #expect(await eventually { other.writerJobsTaken > takenBefore })
        try holder.query("INSERT INTO cooldowns(provider, until, reason) VALUES ('held', 1, 'test')")
        try holder.execute("COMMIT")
        // The write went in once the holder let go of the lock (waiting, not failing).
        try await write.value
        #expect(try await other.entry(for: key("k"))?.payload == "after")
        #expect(try await other.cooldown(provider: "held", now: Date(timeIntervalSince1970: 0))?.reason == "test")
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
