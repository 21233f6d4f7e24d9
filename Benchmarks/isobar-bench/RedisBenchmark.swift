import FixtureReplay
import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRedis
import IsobarStore
import IsobarTestKit
#if canImport(Glibc)
import Glibc
#endif

/// The cost of the shared store, on a `redis-server` of its own on loopback: the real binary answering
/// `isobar now 53.9,27.57 --format jsonl` (OpenWeatherMap, live on a loopback server) from the local cache alone (twice:
/// the second is the control that shows how far two identical cases differ by chance), from the local cache with a shared
/// store configured, and from the shared store after a local miss (each run on a copy of an empty local cache file); then,
/// in this process, one cache read and one permit from SQLite and from Redis. `ISOBAR_BENCH_RUNS` sets the command runs
/// (default 201).
func benchmarkRedis() async throws {
    guard let isobar = siblingIsobar(for: "redis") else { return }
    guard RedisTestServer.executable != nil else {
        print("redis: redis-server is not installed (scripts/install-deps.sh installs it)")
        return
    }
    let redis = try RedisTestServer()
    let weather = try CassetteLibrary(directory: dataDirectory() + "/cassettes/openweathermap")
    let body = minskBody(weather, "/data/2.5/weather")
    let server = try LoopbackServer { _ in .init(body: body) }
    let scratch = "/tmp/isobar-bench-redis-\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let provider = #"{"id": "openweathermap", "type": "openweathermap", "api_key_env": "BENCH_OWM_KEY", "base_url": "\#(server.baseURL)"}"#
    _ = FileManager.default.createFile(atPath: scratch + "/local.json", contents: Data(#"{"providers": [\#(provider)]}"#.utf8))
    _ = FileManager.default.createFile(atPath: scratch + "/shared.json",
                                       contents: Data(#"{"shared_store": "\#(redis.url)", "providers": [\#(provider)]}"#.utf8))
    let runs = ProcessInfo.processInfo.environment["ISOBAR_BENCH_RUNS"].flatMap { Int($0) }.map { max(1, $0) } ?? 201
    func environment(_ cache: String) -> [String] {
        ["BENCH_OWM_KEY=bench", "XDG_CACHE_HOME=\(cache)", "HOME=\(scratch)", "ISOBAR_DATA_DIR=\(dataDirectory())", recordingTimeShift()]
    }
    func command(_ config: String) -> [String] { ["now", "53.9,27.57", "--config", scratch + "/" + config, "--format", "jsonl"] }

    // Warm both levels; the local-hit cases read the same local file.
    guard spawnAndMeasure(isobar, command("shared.json"), environment: environment(scratch + "/warm")).status == 0 else {
        print("redis: the warming run failed")
        return
    }
    // An empty local cache file, copied before each local-miss run (outside the timing).
    guard spawnAndMeasure(isobar, ["cache", "stats"], environment: environment(scratch + "/empty")).status == 0 else {
        print("redis: cannot make an empty cache")
        return
    }
    let asked = server.requests.count
    let loadBefore = loadAverage()
    let names = ["SQLite alone, local hit", "the same again (control)", "with the shared store, local hit", "local miss, shared hit"]
    let cases = [("local.json", false), ("local.json", false), ("shared.json", false), ("shared.json", true)]
    var times = [[Double]](repeating: [], count: cases.count)
    var cpu = [[Double]](repeating: [], count: cases.count)
    for run in 0..<runs {
        let copy = scratch + "/empty-\(run)"
        guard spawnAndMeasure("/bin/cp", ["-R", scratch + "/empty", copy], environment: []).status == 0 else {
            print("redis: cannot copy the empty cache")
            return
        }
        // A different case first each run, so that none gains from following another.
        for offset in 0..<cases.count {
            let index = (run + offset) % cases.count
            let measured = spawnAndMeasure(isobar, command(cases[index].0), environment: environment(cases[index].1 ? copy : scratch + "/warm"))
            guard measured.status == 0 else {
                print("redis: a run failed (exit status \(measured.status))")
                return
            }
            times[index].append(measured.seconds * 1000)
            cpu[index].append(measured.cpuSeconds * 1000)
        }
        try? FileManager.default.removeItem(atPath: copy)
    }
    let loadAfter = loadAverage()
    print("redis: isobar now 53.9,27.57 --format jsonl, one live provider, \(runs) runs of each case (in turn, the first rotating), "
        + "redis-server on loopback")
    print("  load average before \(loadBefore), after \(loadAfter); the empty cache file: \(walPages(scratch + "/empty")) WAL pages")
    for (index, name) in names.enumerated() {
        print("  \(padded(name, 34)) median \(format(median(times[index]))) ms   "
            + "p25–p75 \(spread(times[index])) ms   CPU \(format(median(cpu[index]))) ms")
    }
    // The cases of one run ran back to back: the median of the differences within each run is the figure load moves least.
    print("  added to the SQLite-alone local hit (median of each run's difference, its 95 % interval; CPU):")
    for index in 1..<cases.count {
        let wall = medianInterval(zip(times[index], times[0]).map { $0 - $1 })
        let used = median(zip(cpu[index], cpu[0]).map { $0 - $1 })
        print("    \(padded(names[index], 32)) \(signed(wall.median)) ms "
            + "(\(signed(wall.low)) to \(signed(wall.high)))   CPU \(signed(used)) ms")
    }
    print("  upstream requests after warming: \(server.requests.count - asked)")

    let store = try await Store.open(directory: scratch + "/micro", warn: { print("redis: \($0)") })
    let shared = RedisStore(url: try RedisURL(parsing: redis.url))
    let key = CacheKey(provider: "openweathermap", slot: .current, placeKey: "53.9,27.57")
    let entry = CacheEntry(fetchedAt: Date(), payload: String(decoding: body, as: UTF8.self))
    try await store.store(entry, for: key)
    try await shared.store(entry, for: key)
    let permit = PermitRequest(provider: "bench", windows: [RateLimit(limit: 1e9, perSeconds: 60)], cost: 1, deadline: Date().addingTimeInterval(60))
    let micro = 2000
    let readLocal = try await timeAsync(runs: micro) { _ = try await store.entry(for: key) }
    let readShared = try await timeAsync(runs: micro) { _ = try await shared.entry(for: key) }
    let permitLocal = try await timeAsync(runs: micro) {
        if case .granted(let call) = try await store.acquire(permit, now: Date()) { try await store.settle(call, at: Date()) }
    }
    let permitShared = try await timeAsync(runs: micro) { _ = try await shared.acquire(permit, now: Date()) }
    let url = try RedisURL(parsing: redis.url)
    let firstRead = try await timeAsync(runs: 200) { _ = try await RedisStore(url: url).entry(for: key) }
    print("  in this process, \(micro) runs each (median, p90):")
    print("    cache read  SQLite \(format(readLocal.median)) µs, \(format(readLocal.p90)) µs   Redis \(format(readShared.median)) µs, \(format(readShared.p90)) µs")
    print("    connect and first read, Redis \(format(firstRead.median)) µs, \(format(firstRead.p90)) µs (200 runs)")
    print("    permit      SQLite (grant + settle) \(format(permitLocal.median)) µs, \(format(permitLocal.p90)) µs   Redis (one GCRA script) \(format(permitShared.median)) µs, \(format(permitShared.p90)) µs")
}

/// `p25–p75` of `values`.
private func spread(_ values: [Double]) -> String {
    let sorted = values.sorted()
    return "\(format(sorted[sorted.count / 4]))–\(format(sorted[sorted.count * 3 / 4]))"
}

/// The 1, 5 and 15 minute load averages.
private func loadAverage() -> String {
    var loads = [Double](repeating: 0, count: 3)
    guard getloadavg(&loads, 3) == 3 else { return "unknown" }
    return loads.map { format($0) }.joined(separator: " ")
}

/// The median of `values` and a 95 % interval for it that assumes nothing about their distribution: the order statistics
/// n/2 ∓ 0.98 √n.
private func medianInterval(_ values: [Double]) -> (median: Double, low: Double, high: Double) {
    let sorted = values.sorted()
    let half = 0.98 * Double(sorted.count).squareRoot()
    let low = max(0, Int((Double(sorted.count) / 2 - half).rounded(.down)))
    let high = min(sorted.count - 1, Int((Double(sorted.count) / 2 + half).rounded(.up)))
    return (median(sorted), sorted[low], sorted[high])
}

/// Pages in the WAL of the cache under `cache` (0 when it has none).
private func walPages(_ cache: String) -> Int {
    var info = stat()
    guard stat(cache + "/isobar/isobar.sqlite-wal", &info) == 0, info.st_size > 32 else { return 0 }
    return (Int(info.st_size) - 32) / (4096 + 24)
}

/// `text` with spaces after it up to `width` characters.
private func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }

/// `+1.5` or `-0.3`.
private func signed(_ value: Double) -> String { (value >= 0 ? "+" : "") + format(value) }

/// Median and 90th percentile of an async closure over `runs` runs, in microseconds.
func timeAsync(runs: Int, _ body: () async throws -> Void) async throws -> (median: Double, p90: Double) {
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = monotonicSeconds()
        try await body()
        samples.append((monotonicSeconds() - start) * 1e6)
    }
    samples.sort()
    return (samples[runs / 2], samples[runs * 9 / 10])
}
