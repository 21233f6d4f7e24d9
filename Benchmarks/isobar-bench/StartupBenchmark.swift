import FixtureReplay
import FoundationEssentials
import IsobarTestKit
#if canImport(Glibc)
import Glibc
#endif

/// Short commands of the real binary beside a hello-world linked the same way (`isobar-hello`, built with it): a warm cache
/// hit of `compare` with two live providers, `--version`, `--help` and `compare Minsk --demo`. Each run of each command is
/// followed by a run of the hello-world, so both see the same load; medians of wall time, CPU, peak RSS and page faults
/// (which no load moves; the hello-world's last), and the ratio of the medians. Then, when `strace` is installed, one traced
/// run of each: threads started and system calls by kind.
/// `ISOBAR_BENCH_RUNS` sets the runs (default 30). Both binaries run from copies made the same way in a scratch folder: how a
/// file came into the page cache changes how fast it starts (a binary as the linker wrote it started 8–13 % slower than a
/// copy of it), so neither is favoured by how it was written.
func benchmarkStartup() throws {
    guard let built = siblingIsobar(for: "startup") else { return }
    let builtHello = String(built.dropLast("isobar".count)) + "isobar-hello"
    guard FileManager.default.isExecutableFile(atPath: builtHello) else {
        print("startup: build isobar-hello in the same configuration first (swift build -c release)")
        return
    }
    let weather = try CassetteLibrary(directory: dataDirectory() + "/cassettes/openweathermap")
    let meteo = try CassetteLibrary(directory: dataDirectory() + "/cassettes/open-meteo")
    let weatherBody = minskBody(weather, "/data/2.5/weather")
    let meteoBody = minskBody(meteo, "/v1/forecast")
    let server = try LoopbackServer { request in .init(body: request.path == "/v1/forecast" ? meteoBody : weatherBody) }
    let scratch = "/tmp/isobar-bench-startup-\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let isobar = try executableCopy(of: built, in: scratch)
    let hello = try executableCopy(of: builtHello, in: scratch)
    let config = scratch + "/config.json"
    _ = FileManager.default.createFile(atPath: config, contents: Data("""
    {"providers": [
      {"id": "openweathermap", "type": "openweathermap", "api_key_env": "BENCH_OWM_KEY", "base_url": "\(server.baseURL)"},
      {"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)"}]}
    """.utf8))
    let environment = ["BENCH_OWM_KEY=bench", "XDG_CACHE_HOME=\(scratch)/cache", "XDG_DATA_HOME=\(scratch)/data",
                       "XDG_CONFIG_HOME=\(scratch)/config", "HOME=\(scratch)", "ISOBAR_DATA_DIR=\(dataDirectory())", recordingTimeShift()]
    let cases: [(label: String, arguments: [String])] = [
        ("cache hit: compare 53.9,27.5667 --format jsonl", ["compare", "53.9,27.5667", "--config", config, "--format", "jsonl"]),
        ("--version", ["--version"]),
        ("--help", ["--help"]),
        ("compare Minsk --demo", ["compare", "Minsk", "--demo"]),
    ]
    let warm = spawnAndMeasure(isobar, cases[0].arguments, environment: environment)
    guard warm.status == 0 else {
        print("startup: the warming run of the cache hit failed with status \(warm.status)")
        return
    }
    let requestsAfterWarm = server.requests.count
    let runs = ProcessInfo.processInfo.environment["ISOBAR_BENCH_RUNS"].flatMap { Int($0) }.map { max(1, $0) } ?? 30
    print("startup: \(runs) runs of each, each followed by a run of isobar-hello")
    print("  command                                         wall ms   CPU ms   RSS MiB   faults   hello wall ms   ratio (wall)")
    for (label, arguments) in cases {
        var samples: [ChildUsage] = []
        var floor: [ChildUsage] = []
        for _ in 0..<runs {
            guard case .success(let run) = runRedirected(isobar, arguments, environment: environment), run.status == 0,
                  case .success(let base) = runRedirected(hello, [], environment: environment) else {
                print("  \(label): a run failed; no figure")
                return
            }
            samples.append(run)
            floor.append(base)
        }
        let wall = median(samples.map { $0.seconds * 1000 })
        let helloWall = median(floor.map { $0.seconds * 1000 })
        print("  " + [label.rightPadded(46), format(wall).leftPadded(9),
                      format(median(samples.map { $0.cpuSeconds * 1000 })).leftPadded(8),
                      format(median(samples.map { Double($0.maxRSSKiB) / 1024 })).leftPadded(9),
                      String(Int(median(samples.map { Double($0.minorFaults) }))).leftPadded(8),
                      format(helloWall).leftPadded(15), (format(wall / helloWall) + "×").leftPadded(14)].joined(separator: " "))
    }
    let helloRuns = (0..<runs).compactMap { _ -> ChildUsage? in
        guard case .success(let base) = runRedirected(hello, [], environment: environment) else { return nil }
        return base
    }
    let helloCPU = median(helloRuns.map { $0.cpuSeconds * 1000 })
    let helloFaults = Int(median(helloRuns.map { Double($0.minorFaults) }))
    print("  isobar-hello CPU median \(format(helloCPU)) ms, \(helloFaults) page faults; upstream requests during the timed runs: "
        + "\(server.requests.count - requestsAfterWarm)")
    var own = rusage()
    getrusage(RUSAGE_SELF.rawValue, &own)
    print("  (a started program's peak RSS is at least the benchmark's own, \(format(Double(own.ru_maxrss) / 1024)) MiB: it runs in the "
        + "benchmark's memory until it execs)")
    traceStartup(isobar: isobar, cases: cases, environment: environment, scratch: scratch)
}

/// A copy of the program at `path` in `folder`, with the same name, executable; written a mebibyte at a time, so that the
/// benchmark's own peak memory (which each child it starts inherits as its floor of peak RSS) stays small.
private func executableCopy(of path: String, in folder: String) throws -> String {
    let copy = folder + "/" + (path.split(separator: "/").last.map(String.init) ?? "program")
    let source = open(path, O_RDONLY | O_CLOEXEC)
    guard source >= 0 else { throw SpawnError(path: path, code: errno) }
    defer { close(source) }
    let target = open(copy, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard target >= 0 else { throw SpawnError(path: copy, code: errno) }
    defer { close(target) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
        guard count > 0 else {
            guard count == 0 else { throw SpawnError(path: path, code: errno) }
            return copy
        }
        let written = buffer.withUnsafeBytes { write(target, $0.baseAddress, count) }
        guard written == count else { throw SpawnError(path: copy, code: errno) }
    }
}

/// One run of each case under `strace -f -c`: threads started (clone calls) and the system calls by kind, most frequent first.
private func traceStartup(isobar: String, cases: [(label: String, arguments: [String])], environment: [String], scratch: String) {
    guard let strace = ["/usr/bin/strace", "/bin/strace"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        print("  (strace is not installed: no thread or system-call counts; apt-get install strace)")
        return
    }
    print("  traced (strace -f -c), one run each:")
    for (label, arguments) in cases {
        let summary = scratch + "/strace.txt"
        guard case .success = runRedirected(strace, ["-f", "-c", "-o", summary, isobar] + arguments, environment: environment),
              let data = FileManager.default.contents(atPath: summary) else {
            print("    \(label): the traced run failed")
            continue
        }
        let counts = StraceSummary(String(decoding: data, as: UTF8.self))
        let threads = (counts.calls["clone"] ?? 0) + (counts.calls["clone3"] ?? 0)
        let top = counts.calls.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.prefix(8)
            .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("    \(label): \(threads) threads started, \(counts.calls["getdents64"] ?? 0) directory listings, "
            + "\(counts.total) system calls (\(top))")
    }
}

/// The table `strace -c` writes: calls per system call.
private struct StraceSummary {
    /// Calls by system call name.
    var calls: [String: Int] = [:]
    /// Calls in all.
    var total: Int { calls.values.reduce(0, +) }

    /// Parses the rows `% time  seconds  usecs/call  calls  [errors]  syscall`.
    init(_ text: String) {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 5, Double(fields[0]) != nil, let count = Int(fields[3]), let name = fields.last,
                  name != "total" else { continue }
            calls[String(name)] = count
        }
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
    /// The string left-aligned in `width` columns.
    func rightPadded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
