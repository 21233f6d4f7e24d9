import FixtureReplay
import FoundationEssentials
import IsobarCore
import IsobarTestKit
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion; returns wall seconds, peak RSS in KiB and the exit status.
func spawnAndMeasure(_ path: String, _ arguments: [String], environment: [String]) -> (seconds: Double, maxRSSKiB: Int, status: Int32) {
    var pid: pid_t = 0
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var start = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else { return (0, 0, -1) }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &end)
    let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    // A child ended by a signal reports 128 + the signal, as a shell would.
    let signalled = status & 0x7f
    return (seconds, usage.ru_maxrss, signalled != 0 ? 128 + signalled : (status >> 8) & 0xff)
}

/// A warm cache hit of `isobar compare Minsk --format jsonl` with two live providers, next to `true`.
func benchmarkCacheHit() throws {
    let executable = CommandLine.arguments[0]
    let directory = String(executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)])
    let isobar = (directory.isEmpty ? "." : directory) + "/isobar"
    guard FileManager.default.isExecutableFile(atPath: isobar) else {
        print("cachehit: build the isobar executable in the same configuration first (swift build -c release)")
        return
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
    let environment = ["BENCH_OWM_KEY=bench", "XDG_CACHE_HOME=\(scratch)/cache", "HOME=\(scratch)", "ISOBAR_DATA_DIR=\(dataDirectory())"]
    let arguments = ["compare", "Minsk", "--config", scratch + "/config.json", "--format", "jsonl"]
    let warm = spawnAndMeasure(isobar, arguments, environment: environment)
    guard warm.status == 0 else {
        print("cachehit: the warming run failed with status \(warm.status)")
        return
    }
    let requestsAfterWarm = server.requests.count
    let runs = 25
    var times: [Double] = []
    var memory: [Int] = []
    var floor: [Double] = []
    for _ in 0..<runs {
        let run = spawnAndMeasure(isobar, arguments, environment: environment)
        times.append(run.seconds * 1000)
        memory.append(run.maxRSSKiB)
        floor.append(spawnAndMeasure("/bin/true", [], environment: environment).seconds * 1000)
    }
    times.sort()
    memory.sort()
    floor.sort()
    print("cachehit: isobar compare Minsk --format jsonl, two live providers, warm cache, \(runs) runs")
    print("  median \(format(times[runs / 2])) ms (min \(format(times[0])), max \(format(times[runs - 1])))   "
        + "peak RSS median \(format(Double(memory[runs / 2]) / 1024)) MiB   `true`: \(format(floor[runs / 2])) ms")
    print("  upstream requests during the timed runs: \(server.requests.count - requestsAfterWarm)")
}
