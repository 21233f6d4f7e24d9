import FixtureReplay
import FoundationEssentials
import IsobarCore
import IsobarTestKit
#if canImport(Glibc)
import Glibc
#endif

/// The real binary's `isobar cities --refresh` over `count` places, against one loopback server answering as both providers
/// after `latency` seconds; compared with the time `cap` requests at a time would take.
func benchmarkCities(count: Int = 200, latency: Double = 0.05, cap: Int = 8, runs: Int = 3) throws {
    guard let isobar = siblingIsobar(for: "cities") else { return }
    let weather = try CassetteLibrary(directory: dataDirectory() + "/cassettes/openweathermap")
    let meteo = try CassetteLibrary(directory: dataDirectory() + "/cassettes/open-meteo")
    // Every place gets Minsk's answers; the adapters do not check that the coordinates match.
    let bodies = ["/data/2.5/weather": minskBody(weather, "/data/2.5/weather"), "/data/2.5/forecast": minskBody(weather, "/data/2.5/forecast"),
                  "/v1/forecast": minskBody(meteo, "/v1/forecast")]
    guard !bodies.values.contains(where: \.isEmpty) else {
        print("cities: the Minsk cassettes are missing")
        return
    }
    func serve() throws -> LoopbackServer {
        try LoopbackServer { request in
            guard let body = bodies[request.path] else { return .init(status: 404, #"{"cod":"404","message":"not found"}"#) }
            return .init(body: body, delaySeconds: latency)
        }
    }

    let scratch = "/tmp/isobar-bench-cities-\(getpid())"
    let cache = scratch + "/cache"
    let configuration = scratch + "/config.json"
    try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    // The published rate limits (OpenWeatherMap's 60 a minute) and Open-Meteo's one call at a time would hold most of the requests back: lifted, so the
    // figures are those of the fan-out. OpenWeatherMap's key comes from the variable it reads by default.
    func configure(_ server: LoopbackServer) {
        let unlimited = #""rate_limits": [{"limit": 1000000, "per_s": 60}], "max_concurrent_calls": \#(cap)"#
        let text = """
        {"providers": [
          {"id": "openweathermap", "type": "openweathermap", "base_url": "\(server.baseURL)", \(unlimited)},
          {"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)", \(unlimited)}]}
        """
        _ = FileManager.default.createFile(atPath: configuration, contents: Data(text.utf8))
    }
    let environment = ["OPENWEATHERMAP_API_KEY=bench", "HOME=\(scratch)", "XDG_CACHE_HOME=\(cache)", "ISOBAR_DATA_DIR=\(dataDirectory())",
                       recordingTimeShift()]
    let common = ["--config", configuration, "--cache-dir", cache]

    // The list: the first command seeds Minsk and Moscow, removed at once; then a grid of `count` places 0.5° apart.
    let setupServer = try serve()
    configure(setupServer)
    for _ in 0..<2 {
        let removed = try runChild(isobar, ["cities", "remove", "1"] + common, environment: environment, scratch: scratch)
        guard removed.status == 0 else {
            print("cities: removing a seeded city failed with status \(removed.status): \(removed.stderr)")
            return
        }
    }
    for index in 0..<count {
        let latitude = 40 + Double(index / 20) * 0.5
        let longitude = -10 + Double(index % 20) * 0.5
        let added = try runChild(isobar, ["cities", "add", "\(latitude),\(longitude)", "--format", "jsonl"] + common,
                                 environment: environment, scratch: scratch)
        guard added.status == 0, added.stdout.contains(#""already_there":false"#) else {
            print("cities: adding \(latitude),\(longitude) failed with status \(added.status): \(added.stderr)")
            return
        }
    }
    let setupRequests = setupServer.requests.count
    setupServer.stop()

    print("cities: isobar cities --format jsonl --refresh, \(count) places, two providers on one loopback server answering after "
        + "\(format(latency * 1000)) ms, \(runs) runs (\(setupRequests) upstream requests while adding the places)")
    var walls: [Double] = []
    var bounds: [Double] = []
    for run in 1...runs {
        let server = try serve()
        configure(server)
        let arguments = ["cities", "--format", "jsonl", "--refresh", "--timeout", "120"] + common
        let parentPeakKiB = statusKilobytes("VmHWM")
        let child = try runChild(isobar, arguments, environment: environment, scratch: scratch, killAfter: 300)
        let requests = server.requests
        let peakOpen = server.peakOpenConnections
        server.stop()
        walls.append(child.seconds)

        var lines = 0
        var outcomes: [String: Int] = [:]
        for line in child.stdout.split(separator: "\n") {
            guard let value = try? JSONDocument(parsing: Array(line.utf8)).rootValue,
                  (try? value.string("type")) == "city" else { continue }
            lines += 1
            for outcome in (try? value.member("outcomes").elements()) ?? [] { outcomes[(try? outcome.string()) ?? "?", default: 0] += 1 }
        }
        // The server tells the providers apart by path only; a connection may carry both.
        let providers = [("openweathermap", "/data/2.5/"), ("open-meteo", "/v1/")].map { id, prefix in
            let mine = requests.filter { $0.path.hasPrefix(prefix) }
            return (id: id, requests: mine.count, connections: Set(mine.map(\.connection)),
                    peak: peakInFlight(mine.map(\.receivedAt), latency: latency))
        }
        let shared = providers[0].connections.intersection(providers[1].connections).count
        let bound = Double(requests.count) * latency / Double(cap)
        bounds.append(bound)
        let status = child.killed ? "killed after \(format(child.seconds)) s" : "exit \(child.status)"
        print("  run \(run): wall \(format(child.seconds * 1000)) ms   \(status)   \(lines) city lines   outcomes: "
            + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        print("    requests \(requests.count)   peak open connections \(peakOpen) (\(server.connectionCount) opened)   "
            + "CPU \(format(child.cpuSeconds * 1000)) ms (user \(format(child.userSeconds * 1000)), sys \(format(child.systemSeconds * 1000)))   "
            + "peak RSS \(format(Double(child.maxRSSKiB) / 1024)) MiB (at least this process's peak at the spawn, "
            + "\(format(Double(parentPeakKiB) / 1024)) MiB)")
        // In flight: from each request's arrival until the latency has passed.
        print("    both providers: peak \(peakInFlight(requests.map(\.receivedAt), latency: latency)) requests in flight")
        for provider in providers {
            print("    \(provider.id): \(provider.requests) requests on \(provider.connections.count) connections, "
                + "peak \(provider.peak) in flight")
        }
        if shared > 0 { print("    \(shared) connections carried both providers' requests") }
        print("    bound for \(cap) at a time: \(requests.count) × \(format(latency * 1000)) ms ÷ \(cap) = \(format(bound * 1000)) ms   "
            + "wall/bound \(format(child.seconds / bound))")
        if !child.stderr.isEmpty { print("    stderr: \(child.stderr.split(separator: "\n").prefix(3).joined(separator: " | "))") }
    }
    let median = walls.sorted()[walls.count / 2]
    let bound = bounds.sorted()[bounds.count / 2]
    print("  median wall \(format(median * 1000)) ms (min \(format((walls.min() ?? 0) * 1000)), max \(format((walls.max() ?? 0) * 1000)))   "
        + "bound for \(cap) at a time \(format(bound * 1000)) ms   median wall/bound \(format(median / bound))")
}

/// A program that could not be started.
/// What one child run did.
private struct ChildRun {
    var seconds: Double
    var status: Int32
    var killed: Bool
    var userSeconds: Double
    var systemSeconds: Double
    var maxRSSKiB: Int
    var stdout: String
    var stderr: String
    var cpuSeconds: Double { userSeconds + systemSeconds }
}

/// Runs a program with its output in files under `scratch`; kills it after `killAfter` seconds.
private func runChild(_ path: String, _ arguments: [String], environment: [String], scratch: String, killAfter: Double = 60) throws -> ChildRun {
    let out = scratch + "/stdout"
    let err = scratch + "/stderr"
    var killed = false
    let child = try runRedirected(path, arguments, environment: environment, stdout: out, stderr: err) { pid, elapsed in
        guard !killed, elapsed > killAfter else { return }
        kill(pid, SIGKILL)
        killed = true
    }.get()
    func read(_ file: String) -> String { String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self) }
    return ChildRun(seconds: child.seconds, status: child.status, killed: killed, userSeconds: child.userSeconds,
                    systemSeconds: child.systemSeconds, maxRSSKiB: child.maxRSSKiB, stdout: read(out), stderr: read(err))
}

/// The most requests answered at the same moment, each taking `latency` from its arrival.
private func peakInFlight(_ arrivals: [Double], latency: Double) -> Int {
    // An answer that ends as another arrives is not counted with it.
    let starts: [(time: Double, change: Int)] = arrivals.map { ($0, 1) }
    let ends: [(time: Double, change: Int)] = arrivals.map { ($0 + latency, -1) }
    let events = (starts + ends).sorted { $0.time != $1.time ? $0.time < $1.time : $0.change < $1.change }
    var current = 0
    var peak = 0
    for (_, change) in events {
        current += change
        peak = max(peak, current)
    }
    return peak
}

