import Exec
import FoundationEssentials
import IsobarCore
import OpenMeteo
#if canImport(Glibc)
import Glibc
#endif

/// CPU seconds (user + system) used by this process's ended children so far.
private func childrenCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Answers every request with one body.
private struct ConstantTransport: Transport {
    let body: [UInt8]
    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse { HTTPResponse(status: 200, body: body) }
}

/// Median and 90th percentile of an async closure over `runs` runs, in microseconds.
private func measureAsync(runs: Int, _ body: () async throws -> Void) async rethrows -> (median: Double, p90: Double) {
    let clock = ContinuousClock()
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = clock.now
        try await body()
        let elapsed = clock.now - start
        samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    samples.sort()
    return (samples[runs / 2], samples[runs * 9 / 10])
}

/// The cost of one call to an exec provider (spawn, plan, the host's request, spawn, decode: two round trips), in Python and in
/// shell + jq, next to the compiled Open-Meteo adapter fetching the same body through the same kind of transport.
func benchmarkExec() async throws {
    let body = try openMeteoBody()
    let transport = ConstantTransport(body: body)
    let place = Place(name: "Minsk", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!)
    let request = WeatherRequest(place: place, kinds: [.current])
    let root = FileManager.default.currentDirectoryPath
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_CACHE_HOME"] = FileManager.default.temporaryDirectory.path + "/isobar-bench-exec-\(UUID().uuidString)"
    let runs = Int(environment["ISOBAR_BENCH_RUNS"] ?? "") ?? 40

    let compiled = OpenMeteoProvider()
    for _ in 0..<20 { _ = try await compiled.fetch(request, transport: transport) }
    let native = try await measureAsync(runs: 400) { _ = try await compiled.fetch(request, transport: transport) }
    print("exec: one call for current conditions, Open-Meteo body of \(body.count) bytes (Minsk)")
    print("  compiled adapter (request + decode)     median \(format(native.median)) µs   p90 \(format(native.p90)) µs   (400 runs)")

    let programs: [(String, [String])] = [
        // The interpreter itself, not a version manager's shell shim in front of it (ISOBAR_BENCH_PYTHON to choose another).
        ("Python plug-in", [environment["ISOBAR_BENCH_PYTHON"] ?? (FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"),
                            root + "/Benchmarks/plugins/open_meteo_current.py"]),
        ("shell + jq plug-in", [root + "/Providers/examples/shell/isobar-provider-open-meteo-sh"]),
    ]
    for (label, command) in programs {
        let settings = ProviderSettings(id: "bench", type: "exec", options: ExecOptions(command: command).providerOptions)
        let provider = try await ExecProvider.factory.make(ProviderContext(settings: settings, environment: environment, transport: transport))
        guard let plugin = provider as? ExecProvider else {
            print("  \(label): cannot be used: \((provider as? BrokenExecProvider)?.failure.message ?? "?")")
            continue
        }
        let answer = try await plugin.fetch(request, transport: transport)
        guard answer.current?.temperatureC != nil else {
            print("  \(label): gave no temperature")
            continue
        }
        let cpuBefore = childrenCPUSeconds()
        let call = try await measureAsync(runs: runs) { _ = try await plugin.fetch(request, transport: transport) }
        let childCPU = (childrenCPUSeconds() - cpuBefore) / Double(runs)
        let describe = try await measureAsync(runs: runs) {
            _ = try await plugin.program.call(ExecMessages.describe(), deadline: Date().addingTimeInterval(10))
        }
        let padded = label + ":" + String(repeating: " ", count: max(1, 40 - label.count - 1))
        print("  \(padded) median \(format(call.median / 1000)) ms   p90 \(format(call.p90 / 1000)) ms   "
            + "(\(runs) runs; the programs' CPU \(format(childCPU * 1000)) ms a call; one spawn + round trip alone: \(format(describe.median / 1000)) ms; "
            + "\(format(call.median / native.median))× the compiled adapter)")
    }
}
