// Prints timing figures for Isobar's hot paths. Run: swift run -c release isobar-bench [decode]
// `cities` compares its wall time with ISOBAR_BENCH_CAP requests at a time (default 8); `batch` needs the release isobar
// executable, and compares with Benchmarks/python/batch_aiohttp.py when aiohttp is installed.
import CJansson
import FixtureReplay
import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarHTTP
import IsobarTestKit
import OpenMeteo
#if canImport(Glibc)
import Glibc
#endif

/// Median and 90th percentile of a timed closure over `runs` runs, in microseconds.
func measure(runs: Int, _ body: () throws -> Void) rethrows -> (median: Double, p90: Double) {
    let clock = ContinuousClock()
    var samples: [Double] = []
    samples.reserveCapacity(runs)
    for _ in 0..<runs {
        let elapsed = try clock.measure(body)
        samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    samples.sort()
    return (samples[runs / 2], samples[runs * 9 / 10])
}

/// Locates config/ from the working directory or ISOBAR_DATA_DIR.
func dataDirectory() -> String {
    ProcessInfo.processInfo.environment["ISOBAR_DATA_DIR"] ?? FileManager.default.currentDirectoryPath + "/config"
}

func benchmarkDecode() throws {
    let library = try CassetteLibrary(directory: dataDirectory() + "/cassettes/open-meteo")
    guard let interaction = library.interactions.first(where: { $0.file.hasSuffix("minsk.json") }) else {
        print("decode: the Minsk Open-Meteo cassette is missing")
        return
    }
    let body = interaction.response.body
    let decoder = OpenMeteoDecoder()
    let now = Date()
    var sink = 0
    // Warm up both paths.
    for _ in 0..<50 {
        sink &+= try decoder.decode(interaction.response, now: now).hourly.count
        body.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                var error = json_error_t()
                if let root = isobar_json_parse(chars.baseAddress, chars.count, &error) { isobar_json_release(root) }
            }
        }
    }
    let runs = 2000
    let bare = measure(runs: runs) {
        body.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                var error = json_error_t()
                if let root = isobar_json_parse(chars.baseAddress, chars.count, &error) {
                    sink &+= 1
                    isobar_json_release(root)
                }
            }
        }
    }
    let decode = try measure(runs: runs) {
        let forecast = try decoder.decode(interaction.response, now: now)
        sink &+= forecast.hourly.count + forecast.daily.count
    }
    print("decode: Open-Meteo 16-day body, \(body.count) bytes, \(runs) runs each")
    print("  bare jansson parse      median \(format(bare.median)) µs   p90 \(format(bare.p90)) µs")
    print("  parse + decode to model median \(format(decode.median)) µs   p90 \(format(decode.p90)) µs")
    print("  ratio (median)          \(format(decode.median / bare.median))×")
    if sink == 42 { print("") }
}

/// The Minsk Open-Meteo body from the bundled cassettes.
func openMeteoBody() throws -> [UInt8] {
    let library = try CassetteLibrary(directory: dataDirectory() + "/cassettes/open-meteo")
    return library.interactions.first { $0.file.hasSuffix("minsk.json") }?.response.body ?? []
}

/// Two Open-Meteo adapters behind loopback servers answering after 200 ms and 300 ms: the fan-out should take the slower one's time.
func benchmarkFanOut() async throws {
    let body = try openMeteoBody()
    let fast = try LoopbackServer { _ in .init(body: body, delaySeconds: 0.2) }
    let slow = try LoopbackServer { _ in .init(body: body, delaySeconds: 0.3) }
    let transport = CurlTransport(userAgent: "isobar-bench")
    let bindings = [("fast", fast), ("slow", slow)].map { id, server in
        ProviderBinding(
            provider: OpenMeteoProvider(configuration: .init(id: id, baseURL: RequestURL(string: server.baseURL)!)),
            transport: transport)
    }
    let engine = Engine(consensus: Consensus(), bindings: bindings)
    let place = Place(name: "Minsk", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!)
    let clock = ContinuousClock()
    var samples: [Double] = []
    for _ in 0..<15 {
        let started = clock.now
        let events = await engine.collect(WeatherRequest(place: place))
        let elapsed = clock.now - started
        let failures = events.filter { if case .failure = $0 { true } else { false } }.count
        guard failures == 0 else {
            print("fanout: a provider failed; no figure")
            return
        }
        samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
    }
    samples.sort()
    print("fanout: two providers, loopback delays 200 ms and 300 ms, \(samples.count) runs")
    print("  median \(format(samples[samples.count / 2])) ms   min \(format(samples[0])) ms   max \(format(samples[samples.count - 1])) ms   (sum of delays 500 ms)")
}

/// CPU seconds used by this process so far (user + system, all threads).
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// 1,000 requests with 30 KB bodies to a loopback server, one after another and 8 at a time.
func benchmarkHTTP() async throws {
    let body = Array(try openMeteoBody().prefix(30_000))
    let server = try LoopbackServer { _ in .init(body: body) }
    let transport = CurlTransport(userAgent: "isobar-bench")
    let request = HTTPRequest(url: RequestURL(string: server.baseURL)!.appending(path: "/v1/forecast", query: []))
    for _ in 0..<50 { _ = try await transport.send(request) }
    let clock = ContinuousClock()
    for concurrency in [1, 8] {
        let count = 1000
        let cpuBefore = cpuSeconds()
        let started = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    for _ in stride(from: worker, to: count, by: concurrency) {
                        let response = try await transport.send(request)
                        precondition(response.body.count == body.count)
                    }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds)
        let cpu = cpuSeconds() - cpuBefore
        print("http: \(count) requests, 30 KB bodies, \(concurrency) at a time: \(Int(Double(count) / seconds)) requests/s, "
            + "\(format(cpu / Double(count) * 1e6)) µs CPU per request (client and server threads together)")
    }
    print("  connections opened: \(server.connectionCount)")
}

/// The median of `values` (the upper one of an even count); `values` must not be empty.
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func format(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    return String(rounded)
}

let arguments = Array(CommandLine.arguments.dropFirst())
// Memory figures are peaks: cachehit (a child's peak includes this process's peak at spawn) and places (this
// process's peak) run first, before the other benchmarks grow this process; cities (which prints this process's peak
// beside its child's) runs last. `startup` times short commands beside a hello-world. `simulate` (the consensus simulation
// harness) and `archive-import` (a million steps imported by the real binary) run only when named.
let known = ["cachehit", "startup", "places", "decode", "fanout", "http", "consensus", "exec", "cities", "batch", "redis"]
for name in arguments.isEmpty ? known : arguments {
    do {
        switch name {
        case "decode": try benchmarkDecode()
        case "fanout": try await benchmarkFanOut()
        case "http": try await benchmarkHTTP()
        case "places": try benchmarkPlaces()
        case "cachehit": try benchmarkCacheHit()
        case "startup": try benchmarkStartup()
        case "consensus": try benchmarkConsensus()
        case "exec": try await benchmarkExec()
        case "batch": try benchmarkBatch()
        case "redis": try await benchmarkRedis()
        case "simulate": try await benchmarkSimulation()
        case "archive-import": try benchmarkArchiveImport()
        case "cities": try benchmarkCities(cap: ProcessInfo.processInfo.environment["ISOBAR_BENCH_CAP"].flatMap { Int($0) }.map { max(1, $0) } ?? 8)
        default: print("unknown benchmark '\(name)'; known: \((known + ["simulate", "archive-import"]).joined(separator: ", "))")
        }
    } catch {
        // A missing data folder (ISOBAR_DATA_DIR, else ./config) or a port that cannot be opened is a one-line error, not a crash.
        print("isobar-bench \(name): \(error)")
        exit(1)
    }
}
