import Foundation
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarStore
import IsobarTestKit
import Synchronization
import Testing

/// A way a cache folder that held a cache (its `-wal` and `-shm` left beside it, as a command leaves them) stops being
/// writable; each is tried where this process can bring it about.
enum UnwritableCache: String, CaseIterable, CustomTestStringConvertible {
    /// The file and its companions are mode 0444 (not for root, whom modes do not stop).
    case fileMode
    /// The folder is mode 0555 and SQLite's companions are gone (not for root).
    case folderMode
    /// The file system was remounted read-only (where this process may mount).
    case readOnlyFileSystem
    /// The file is immutable (`chattr +i`: root, whom it stops too).
    case immutableFile
    /// The cache's file name is taken by a folder.
    case fileIsAFolder

    var testDescription: String { rawValue }

    /// What the system says when the file is opened for writing, where SQLite can still open it for reading.
    var systemReason: String? {
        switch self {
        case .fileMode: "Permission denied"
        case .readOnlyFileSystem: "Read-only file system"
        case .immutableFile: "Operation not permitted"
        case .folderMode, .fileIsAFolder: nil
        }
    }

    /// The ways this process can bring about.
    static var possibleHere: [UnwritableCache] {
        allCases.filter { way in
            switch way {
            case .fileMode, .folderMode: geteuid() != 0
            case .readOnlyFileSystem: ScratchMount.available
            case .immutableFile: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr")
            case .fileIsAFolder: true
            }
        }
    }

    /// A cache folder made unwritable this way, and what undoes it (so that the folder can be removed).
    func make() async throws -> (directory: String, mount: ScratchMount?, undo: () -> Void) {
        var mount: ScratchMount?
        if self == .readOnlyFileSystem { mount = try #require(ScratchMount(kilobytes: 1024)) as ScratchMount }
        let directory = mount.map { $0.path + "/isobar" } ?? freshDirectory()
        let file = directory + "/isobar.sqlite"
        if self == .fileIsAFolder {
            try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: true)
            return (directory, mount, {})
        }
        try await filledCache(directory)
        // SQLite would reuse a descriptor this process still had open for writing, whatever the file's mode now is.
        #expect(await eventually { !isOpenInThisProcess(file) })
        switch self {
        case .fileMode:
            for suffix in ["", "-wal", "-shm"] { chmod(file + suffix, 0o444) }
            return (directory, mount, { for suffix in ["", "-wal", "-shm"] { chmod(file + suffix, 0o644) } })
        case .folderMode:
            for suffix in ["-wal", "-shm"] { unlink(file + suffix) }
            chmod(directory, 0o555)
            return (directory, mount, { chmod(directory, 0o755) })
        case .readOnlyFileSystem:
            #expect(try await mount?.remountReadOnly() == true)
            return (directory, mount, {})
        case .immutableFile:
            try chattr("+i", file)
            return (directory, mount, { try? chattr("-i", file) })
        case .fileIsAFolder:
            return (directory, mount, {})
        }
    }

    /// Makes a cache in `directory` with an answer in it, and lets the store go.
    private func filledCache(_ directory: String) async throws {
        let store = try await Store.open(directory: directory, warn: noWarnings)
        try await store.store(CacheEntry(fetchedAt: Date(), payload: "kept"), for: key("k"))
        #expect(FileManager.default.fileExists(atPath: directory + "/isobar.sqlite-wal"))
    }

    /// True while a descriptor of this process is open on `file` or its companions.
    private func isOpenInThisProcess(_ file: String) -> Bool {
        let manager = FileManager.default
        let descriptors = (try? manager.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.contains { (try? manager.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0))?.hasPrefix(file) == true }
    }

    private func chattr(_ flag: String, _ file: String) throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, file]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}

/// Counts its fetches and answers at once; its published limit is 2 calls a minute.
private final class CountingProvider: WeatherProvider, Sendable {
    let id = "limited"
    let displayName = "Limited"
    private let fetches = Atomic<Int>(0)
    var fetched: Int { fetches.load(ordering: .relaxed) }

    var capabilities: ProviderCapabilities {
        ProviderCapabilities(kinds: [.current], horizonDays: 1, stepHours: 1, quantities: [.temperature], requiresAPIKey: false,
                             geocoding: false, rateLimits: [RateLimit(limit: 2, perSeconds: 60)])
    }

    func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        fetches.add(1, ordering: .relaxed)
        var sample = WeatherSample(time: context.time.now(), periodHours: 1)
        sample.temperatureC = 5
        return WeatherReport(providerID: id, place: request.place, fetchedAt: context.time.now(), current: sample)
    }
}

@Suite struct ReadOnlyCacheTests {
    @Test(arguments: UnwritableCache.possibleHere)
    func aCacheThatCannotBeWrittenFallsBackToMemoryWithAWarning(_ way: UnwritableCache) async throws {
        let (directory, mount, undo) = try await way.make()
        defer { undo() }
        let warnings = Warnings()
        let store = try await Store.open(directory: directory, warn: warnings.add)
        #expect(store.location == "memory")
        #expect(warnings.all.count == 1, "\(warnings.all)")
        #expect(warnings.all.first?.contains("\(directory)/isobar.sqlite") == true, "\(warnings.all)")
        #expect(warnings.all.first?.hasSuffix("using a temporary in-memory cache") == true, "\(warnings.all)")
        // Leases and the ledger work, in memory.
        let request = PermitRequest(provider: "p", windows: [RateLimit(limit: 1, perSeconds: 60)], cost: 1,
                                    deadline: Date(timeIntervalSince1970: 100))
        let decisions = try await store.acquire([request, request], now: Date(timeIntervalSince1970: 0))
        #expect(decisions.first.map { if case .granted = $0 { true } else { false } } == true)
        #expect(decisions.last.map { if case .wait = $0 { true } else { false } } == true)
        withExtendedLifetime(mount) {}
    }

    @Test(arguments: UnwritableCache.possibleHere.filter { $0.systemReason != nil })
    func theWarningGivesTheSystemsReason(_ way: UnwritableCache) async throws {
        let (directory, mount, undo) = try await way.make()
        defer { undo() }
        let warnings = Warnings()
        _ = try await Store.open(directory: directory, warn: warnings.add)
        let reason = try #require(way.systemReason)
        #expect(warnings.all == ["cannot use the cache \(directory)/isobar.sqlite (it cannot be written: \(reason)); "
                                 + "using a temporary in-memory cache"])
        withExtendedLifetime(mount) {}
    }

    /// The audit's case: a cache on a read-only mount let 8 calls through a limit of 2 a minute.
    @Test(arguments: UnwritableCache.possibleHere.filter { $0 != .fileIsAFolder })
    func aRateLimitHoldsWithinTheProcessOverACacheThatCannotBeWritten(_ way: UnwritableCache) async throws {
        let (directory, mount, undo) = try await way.make()
        defer { undo() }
        let warnings = Warnings()
        let store = try await Store.open(directory: directory, warn: warnings.add)
        #expect(warnings.all.count == 1)
        let provider = CountingProvider()
        let binding = ProviderBinding(provider: provider, transport: StubTransport(status: 500, body: ""),
                                      policy: ProviderPolicy(declaredBy: provider))
        let engine = Engine(consensus: Consensus(), bindings: [binding], storage: EngineStorage(store), options: EngineOptions(), time: ManualClock())
        let places = (0..<8).map { index in Place(name: "P\(index)", coordinate: Coordinate(latitude: Double(index), longitude: 1)!) }
        var limited = 0
        for await event in engine.run(places.map { WeatherRequest(place: $0, kinds: [.current]) }) {
            if case .failure(_, _, let error) = event, error.codeName == "rate_limited" { limited += 1 }
        }
        #expect(provider.fetched == 2)
        #expect(limited == 6)
        withExtendedLifetime(mount) {}
    }
}
