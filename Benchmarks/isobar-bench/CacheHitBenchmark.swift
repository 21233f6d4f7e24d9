import FixtureReplay
import FoundationEssentials
import IsobarCore
import IsobarTestKit
#if canImport(Glibc)
import Glibc
#endif

/// Warm cache hits of `isobar compare PLACE --format jsonl` with two live providers, for a name and for coordinates,
/// next to `true`. With `ISOBAR_BENCH_BASELINE=/path/to/isobar`, that binary is timed too, run for run in turn with
/// this build's, so both are measured in one run under the same load. `ISOBAR_BENCH_RUNS` sets the runs (default 25).
func benchmarkCacheHit() throws {
    let executable = CommandLine.arguments[0]
    let directory = String(executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)])
    let isobar = (directory.isEmpty ? "." : directory) + "/isobar"
    guard FileManager.default.isExecutableFile(atPath: isobar) else {
        print("cachehit: build the isobar executable in the same configuration first (swift build -c release)")
        return
    }
    var binaries = [(label: "this build", path: isobar)]
    if let baseline = ProcessInfo.processInfo.environment["ISOBAR_BENCH_BASELINE"], !baseline.isEmpty {
        guard FileManager.default.isExecutableFile(atPath: baseline) else {
            print("cachehit: ISOBAR_BENCH_BASELINE=\(baseline) is not an executable file")
            return
        }
        binaries.append((label: "baseline", path: baseline))
    }
    let weather = try CassetteLibrary(directory: dataDirectory() + "/cassettes/openweathermap")
    let meteo = try CassetteLibrary(directory: dataDirectory() + "/cassettes/open-meteo")
    let owmBody = weather.interactions.first { $0.file.hasSuffix("minsk.json") && $0.url.path.hasSuffix("/weather") }?.response.body ?? []
    let meteoBody = meteo.interactions.first { $0.file.hasSuffix("minsk.json") }?.response.body ?? []
    let server = try LoopbackServer { request in .init(body: request.path == "/v1/forecast" ? meteoBody : owmBody) }
    let scratch = "/tmp/isobar-bench-\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let config = """
    {"providers": [
      {"id": "openweathermap", "type": "openweathermap", "api_key_env": "BENCH_OWM_KEY", "base_url": "\(server.baseURL)"},
      {"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)"}]}
    """
    _ = FileManager.default.createFile(atPath: scratch + "/config.json", contents: Data(config.utf8))
    for place in ["Minsk", "53.9,27.5667"] {
        let arguments = ["compare", place, "--config", scratch + "/config.json", "--format", "jsonl"]
        // Each binary has a cache of its own, so neither reads what the other wrote.
        let environments = binaries.indices.map { index in
            ["BENCH_OWM_KEY=bench", "XDG_CACHE_HOME=\(scratch)/cache-\(index)", "HOME=\(scratch)", "ISOBAR_DATA_DIR=\(dataDirectory())",
             recordingTimeShift()]
        }
        for (binary, environment) in zip(binaries, environments) {
            let warm = spawnAndMeasure(binary.path, arguments, environment: environment)
            guard warm.status == 0 else {
                print("cachehit: the warming run of \(binary.label) for \(place) failed with status \(warm.status)")
                return
            }
        }
        let requestsAfterWarm = server.requests.count
        let runs = ProcessInfo.processInfo.environment["ISOBAR_BENCH_RUNS"].flatMap { Int($0) }.map { max(1, $0) } ?? 25
        var times = [[Double]](repeating: [], count: binaries.count)
        var cpu = [[Double]](repeating: [], count: binaries.count)
        var memory = [[Int]](repeating: [], count: binaries.count)
        var floor: [Double] = []
        for _ in 0..<runs {
            for index in binaries.indices {
                let run = spawnAndMeasure(binaries[index].path, arguments, environment: environments[index])
                times[index].append(run.seconds * 1000)
                cpu[index].append(run.cpuSeconds * 1000)
                memory[index].append(run.maxRSSKiB)
            }
            floor.append(spawnAndMeasure("/bin/true", [], environment: environments[0]).seconds * 1000)
        }
        floor.sort()
        print("cachehit: isobar compare \(place) --format jsonl, two live providers, warm cache, \(runs) runs   `true`: \(format(floor[runs / 2])) ms")
        var medians: [Double] = []
        for index in binaries.indices {
            let sortedTimes = times[index].sorted()
            let sortedMemory = memory[index].sorted()
            let sortedCPU = cpu[index].sorted()
            medians.append(sortedTimes[runs / 2])
            print("  \(binaries[index].label): median \(format(sortedTimes[runs / 2])) ms (min \(format(sortedTimes[0])), "
                + "max \(format(sortedTimes[runs - 1])))   CPU median \(format(sortedCPU[runs / 2])) ms   "
                + "peak RSS median \(format(Double(sortedMemory[runs / 2]) / 1024)) MiB")
        }
        if medians.count == 2 { print("  this build / baseline (median wall): \(format(medians[0] / medians[1]))×") }
        print("  upstream requests during the timed runs: \(server.requests.count - requestsAfterWarm)")
    }
}
