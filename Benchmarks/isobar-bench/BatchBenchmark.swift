import FixtureReplay
import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
#if canImport(Glibc)
import Glibc
#endif

/// The real binary's `isobar batch` over places × two providers, each on its own loopback server answering after `latency`:
/// wall time against the bound (requests × latency ÷ calls in flight), CPU per place and peak RSS, beside an asyncio + aiohttp
/// script bounded by a semaphore of the same size; then peak RSS for ten times the places, and the time Ctrl-C takes.
func benchmarkBatch(count: Int = 1000, latency: Double = 0.05, jobs: Int = 8) throws {
    guard let isobar = siblingIsobar(for: "batch") else { return }
    let weather = try CassetteLibrary(directory: dataDirectory() + "/cassettes/openweathermap")
    let meteo = try CassetteLibrary(directory: dataDirectory() + "/cassettes/open-meteo")
    let weatherBody = minskBody(weather, "/data/2.5/weather")
    // Hours and days (`ISOBAR_BENCH_BATCH_KIND`) come from OpenWeatherMap's forecast, which has a body of its own.
    let forecastBody = minskBody(weather, "/data/2.5/forecast")
    let meteoBody = minskBody(meteo, "/v1/forecast")
    guard !weatherBody.isEmpty, !forecastBody.isEmpty, !meteoBody.isEmpty else {
        print("batch: the Minsk cassettes are missing")
        return
    }
    let scratch = "/tmp/isobar-bench-batch-\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }

    /// Two servers (one per provider, so each has its own connections), a configuration, an input of `places` places.
    func setUp(_ places: Int, latency: Double) throws -> (servers: [LoopbackServer], config: String, input: String) {
        let owm = try LoopbackServer { request in
            .init(body: request.path == "/data/2.5/forecast" ? forecastBody : weatherBody, delaySeconds: latency)
        }
        let openMeteo = try LoopbackServer { _ in .init(body: meteoBody, delaySeconds: latency) }
        // Limits lifted so that the figures are those of the fan-out; each provider takes `jobs` calls at once.
        let lifted = #""rate_limits": [{"limit": 100000000, "per_s": 60}], "max_concurrent_calls": \#(jobs)"#
        let config = scratch + "/config-\(places).json"
        _ = FileManager.default.createFile(atPath: config, contents: Data("""
        {"providers": [
          {"id": "openweathermap", "type": "openweathermap", "base_url": "\(owm.baseURL)", \(lifted)},
          {"id": "open-meteo", "type": "open-meteo", "base_url": "\(openMeteo.baseURL)", \(lifted)}]}
        """.utf8))
        let input = scratch + "/places-\(places).txt"
        var text = ""
        for index in 0..<places { text += "\(20 + Double(index / 400) * 0.1),\(-100 + Double(index % 400) * 0.1)\n" }
        _ = FileManager.default.createFile(atPath: input, contents: Data(text.utf8))
        return ([owm, openMeteo], config, input)
    }
    func environment(_ label: String) -> [String] {
        ["OPENWEATHERMAP_API_KEY=bench", "HOME=\(scratch)", "XDG_CACHE_HOME=\(scratch)/cache-\(label)-\(UUID().uuidString)",
         "ISOBAR_DATA_DIR=\(dataDirectory())", "PATH=/usr/bin:/bin", recordingTimeShift()]
    }

    // The calls the engine lets be in flight: each provider's bound (`--jobs`, at most the engine's per-provider cap, as
    // `max_concurrent_calls` below allows), times two providers. The bound of the wall time divides by this, never by more.
    let inFlight = 2 * min(jobs, EngineOptions().maxConcurrentCallsPerProvider)
    print("batch: isobar batch, \(count) places × 2 providers, each on its own loopback server answering after "
        + "\(format(latency * 1000)) ms, --jobs \(jobs) (\(inFlight) calls in flight at most)")
    // ISOBAR_BENCH_BATCH_KIND=hourly|daily: the same run asking for that kind (the decoding and consensus of 16 days of hours).
    let kind = ProcessInfo.processInfo.environment["ISOBAR_BENCH_BATCH_KIND"].map { ["--kind", $0] } ?? []
    let environmentNow = ProcessInfo.processInfo.environment
    // Comparing two builds of Isobar needs no Python run between theirs.
    let withPython = environmentNow["ISOBAR_BENCH_BATCH_SKIP_PYTHON"] == nil
    // Rounds of both runs, the first of each round alternating, so that a slow phase of a shared machine weighs on both alike.
    let rounds = max(1, environmentNow["ISOBAR_BENCH_BATCH_ROUNDS"].flatMap { Int($0) } ?? (withPython ? 3 : 1))
    var ownCPU: [Double] = [], pythonCPU: [Double] = [], ratios: [Double] = [], wallRatios: [Double] = []
    var pythonSkipped = false

    /// One run of Isobar: its figures printed, its CPU per place and wall ÷ bound kept.
    func isobarRound() throws {
        let run = try setUp(count, latency: latency)
        let child = spawnBatch(isobar, ["batch", run.input, "--config", run.config, "--jobs", String(jobs)] + kind,
                               environment: environment("main"), output: scratch + "/out.jsonl")
        let requests = run.servers.map(\.requests.count).reduce(0, +)
        run.servers.forEach { $0.stop() }
        let bound = Double(requests) * latency / Double(inFlight)
        print("  isobar: wall \(format(child.seconds)) s, exit \(child.status); bound \(requests) × \(format(latency * 1000)) ms ÷ \(inFlight) = "
            + "\(format(bound)) s; wall/bound \(format(child.seconds / bound)) (target ≤ 1.1)")
        print("    CPU \(format(child.cpuSeconds)) s = \(format(child.cpuSeconds / Double(count) * 1000)) ms per place; peak RSS "
            + "\(format(Double(child.maxRSSKiB) / 1024)) MiB")
        print("    \(lastLine(scratch + "/out.jsonl"))")
        if kind.isEmpty { print("    \(mergedCurrents(scratch + "/out.jsonl"))") }
        ownCPU.append(child.cpuSeconds / Double(count) * 1000)
        wallRatios.append(child.seconds / max(bound, 1e-9))
    }

    /// One run of the Python script: its figures printed, its CPU per place kept (nothing when aiohttp is missing).
    func pythonRound() throws {
        let script = dataDirectory() + "/../Benchmarks/python/batch_aiohttp.py"
        let python = try setUp(count, latency: latency)
        // The first python3 on this process's PATH (where `pip install aiohttp` put it), as a user would run it.
        let compared = spawnBatch("/usr/bin/env", ["python3", script, python.input, python.servers[0].baseURL, python.servers[1].baseURL,
                                                   String(inFlight)],
                                  environment: ["PATH=\(environmentNow["PATH"] ?? "/usr/bin:/bin")", "HOME=\(environmentNow["HOME"] ?? scratch)"]
                                      + (environmentNow["PYENV_ROOT"].map { ["PYENV_ROOT=\($0)"] } ?? []),
                                  output: scratch + "/python.jsonl")
        let pythonRequests = python.servers.map(\.requests.count).reduce(0, +)
        python.servers.forEach { $0.stop() }
        guard compared.status != 3 else {
            pythonSkipped = true
            return
        }
        print("  python asyncio + aiohttp, semaphore \(inFlight): wall \(format(compared.seconds)) s, exit \(compared.status), "
            + "\(pythonRequests) requests; CPU \(format(compared.cpuSeconds)) s = \(format(compared.cpuSeconds / Double(count) * 1000)) ms "
            + "per place; peak RSS \(format(Double(compared.maxRSSKiB) / 1024)) MiB")
        print("    \(lastLine(scratch + "/python.jsonl"))")
        pythonCPU.append(compared.cpuSeconds / Double(count) * 1000)
    }

    for round in 0..<rounds {
        if rounds > 1 { print("  round \(round + 1) of \(rounds)") }
        if withPython && !pythonSkipped && round % 2 == 1 {
            try pythonRound()
            try isobarRound()
        } else {
            try isobarRound()
            if withPython && !pythonSkipped { try pythonRound() }
        }
        if ownCPU.count == pythonCPU.count, let own = ownCPU.last, let other = pythonCPU.last {
            ratios.append(own / max(other, 1e-9))
            print("  CPU per place isobar/python \(format(own / max(other, 1e-9))) (target ≤ 0.5)")
        }
    }
    if pythonSkipped { print("  python: skipped, aiohttp is not installed (pip install aiohttp)") }
    if rounds > 1 {
        print("  medians of \(rounds) rounds: isobar CPU \(format(median(ownCPU))) ms per place, wall/bound \(format(median(wallRatios)))"
            + (pythonCPU.isEmpty ? "" : "; python CPU \(format(median(pythonCPU))) ms per place; isobar/python \(format(median(ratios))) "
                + "(per round \(ratios.map(format).joined(separator: ", ")); target ≤ 0.5)"))
    }

    guard withPython, environmentNow["ISOBAR_BENCH_BATCH_QUICK"] == nil else { return }
    // Memory: the same run with ten times the places (2 ms answers, so that it stays short) against one times.
    var peaks: [Int: Int] = [:]
    for places in [count, count * 10] {
        let memory = try setUp(places, latency: 0.002)
        let measured = spawnBatch(isobar, ["batch", memory.input, "--config", memory.config, "--jobs", String(jobs)],
                                  environment: environment("memory"), output: "/dev/null")
        memory.servers.forEach { $0.stop() }
        peaks[places] = measured.maxRSSKiB
        print("  memory: \(places) places: peak RSS \(format(Double(measured.maxRSSKiB) / 1024)) MiB, wall \(format(measured.seconds)) s, "
            + "exit \(measured.status)")
    }
    if let small = peaks[count], let large = peaks[count * 10], small > 0 {
        print("  peak RSS \(count * 10) places ÷ \(count) places = \(format(Double(large) / Double(small))) (target ≤ 1.1)")
    }

    // Ctrl-C one second into a run: the time from the signal to the exit, with the summary printed.
    let interrupted = try setUp(count, latency: latency)
    let stopped = spawnBatch(isobar, ["batch", interrupted.input, "--config", interrupted.config, "--jobs", String(jobs)],
                             environment: environment("interrupt"), output: scratch + "/interrupted.jsonl", interruptAfter: 1)
    interrupted.servers.forEach { $0.stop() }
    print("  SIGINT after 1 s: exit \(stopped.status) \(format((stopped.afterInterrupt ?? 0) * 1000)) ms after the signal (target 130 "
        + "within 1000 ms); \(lastLine(scratch + "/interrupted.jsonl"))")
}

/// What one child run did.
private struct BatchChild {
    var seconds: Double
    var cpuSeconds: Double
    var maxRSSKiB: Int
    var status: Int32
    var afterInterrupt: Double?
}

/// Runs a program with stdout in `output` and stderr discarded; sends SIGINT after `interruptAfter` seconds when given.
private func spawnBatch(_ path: String, _ arguments: [String], environment: [String], output: String,
                        interruptAfter: Double? = nil) -> BatchChild {
    var signalledAt: Double?
    let watch: ((pid_t, Double) -> Void)? = interruptAfter.map { after in
        { pid, elapsed in
            guard signalledAt == nil, elapsed >= after else { return }
            kill(pid, SIGINT)
            signalledAt = elapsed
        }
    }
    guard case .success(let child) = runRedirected(path, arguments, environment: environment, stdout: output, watch: watch) else {
        return BatchChild(seconds: 0, cpuSeconds: 0, maxRSSKiB: 0, status: -1)
    }
    return BatchChild(seconds: child.seconds, cpuSeconds: child.cpuSeconds, maxRSSKiB: child.maxRSSKiB, status: child.status,
                      afterInterrupt: signalledAt.map { child.seconds - $0 })
}

/// How many of the output's consensus lines merged current conditions: every one of a `--kind current` run, when the
/// answers are judged fresh.
private func mergedCurrents(_ path: String) -> String {
    let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    let consensus = text.split(separator: "\n").filter { $0.contains("\"type\":\"consensus\"") }
    let merged = consensus.filter { $0.contains("\"current\":{") }.count
    return "consensus lines with merged current conditions: \(merged) of \(consensus.count)"
}

/// The last line of a file, cut for printing.
private func lastLine(_ path: String) -> String {
    let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    return String(text.split(separator: "\n").last?.prefix(220) ?? "(no output)")
}
