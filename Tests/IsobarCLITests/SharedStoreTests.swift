import Foundation
import IsobarCore
import IsobarTestKit
import Synchronization
import Testing

/// Machines sharing one Redis, each a set of `isobar` processes with its own local cache directory.
struct SharedStoreRig {
    let redis: RedisTestServer
    let server: LoopbackServer
    let config: String
    let binary: String
    let machines: [String: String]

    /// A Redis, the loopback provider server answering with `respond`, and a configuration of `providers` (openweathermap,
    /// open-meteo) on it, each with `limits`, and `extra` top-level keys. Commands wait up to a second for Redis, so that a
    /// loaded machine is not taken for a server that is away.
    init(_ providers: [String] = ["open-meteo"], limits: String = "", extra: String = "",
         respond: @escaping @Sendable (LoopbackServer.Request) -> LoopbackServer.Response) throws {
        redis = try RedisTestServer()
        let server = try LoopbackServer(handler: respond)
        self.server = server
        let limitsMember = limits.isEmpty ? "" : #", "rate_limits": \#(limits)"#
        let entries = providers.map { id in
            let key = id == "openweathermap" ? #", "api_key_env": "TEST_OWM_KEY""# : ""
            return #"{"id": "\#(id)", "type": "\#(id)", "base_url": "\#(server.baseURL)"\#(key)\#(limitsMember)}"#
        }
        config = try temporaryConfiguration("""
        {"shared_store": "\(redis.url)", "shared_store_timeout_ms": 1000\(extra), "providers": [\(entries.joined(separator: ", "))]}
        """)
        binary = try #require(isobarExecutable())
        machines = ["A": temporaryDirectory("machine-a"), "B": temporaryDirectory("machine-b")]
    }

    /// Starts `isobar ARGUMENTS --config …` on `machine`.
    func launch(on machine: String, _ arguments: [String]) throws -> (ChildProcess, Pipe, Pipe) {
        try IsobarCLITests.launch(binary, arguments + ["--config", config],
                                  environment: ["XDG_CACHE_HOME": machines[machine]!, "TEST_OWM_KEY": sentinelKey])
    }

    /// Runs `isobar ARGUMENTS --config …` on `machine` and waits for it.
    func run(on machine: String, _ arguments: [String]) async throws -> CLIRun { await finish(try launch(on: machine, arguments)) }

    /// Requests the provider server saw on `path`.
    func requests(_ path: String) -> [LoopbackServer.Request] { server.requests.filter { $0.path == path } }
}

/// The answer of Open-Meteo or OpenWeatherMap recorded for Minsk, by path.
func recordedAnswer(_ request: LoopbackServer.Request) -> String {
    let meteo = try? cassetteText(provider: "open-meteo", place: "minsk", pathSuffix: "/v1/forecast")
    let weather = try? cassetteText(provider: "openweathermap", place: "minsk", pathSuffix: "/data/2.5/weather")
    return (request.path == "/v1/forecast" ? meteo : weather) ?? "{}"
}

/// The most of `times` (seconds) within any `seconds`.
func busiest(_ times: [Double], seconds: Double) -> Int {
    let sorted = times.sorted()
    var best = 0
    var first = 0
    for last in sorted.indices {
        while sorted[last] - sorted[first] >= seconds { first += 1 }
        best = max(best, last - first + 1)
    }
    return best
}

@Suite(.serialized, .enabled(if: RedisTestServer.executable != nil,
                             "SKIPPED: redis-server is not installed (apt-get install redis-server; scripts/install-deps.sh does it)"))
struct SharedStoreTests {
    @Test func sixteenProcessesOnTwoMachinesStayWithinOneSharedLimit() async throws {
        // OpenWeatherMap: one call costs 1 (an Open-Meteo call is weighted by its variables).
        let rig = try SharedStoreRig(["openweathermap"], limits: #"[{"limit": 10, "per_s": 2}]"#) { .init(recordedAnswer($0)) }
        var launched: [(ChildProcess, Pipe, Pipe)] = []
        for index in 0..<16 {
            // Sixteen places, so that no answer is shared: every process needs a call of its own.
            launched.append(try rig.launch(on: index % 2 == 0 ? "A" : "B",
                                           ["now", "\(40 + Double(index) * 0.5),-10", "--json", "--timeout", "30"]))
        }
        var runs: [CLIRun] = []
        for process in launched { runs.append(await finish(process)) }
        for run in runs { #expect(run.code == 0, "\(run.stderr)") }
        let times = rig.requests("/data/2.5/weather").map(\.receivedAt)
        #expect(times.count == 16)
        #expect(busiest(times, seconds: 2) <= 10, "\(times.sorted().map { $0 - times.min()! })")
        #expect(runs.allSatisfy { !$0.stderr.contains("warning") })
    }

    @Test func twentyProcessesOnAnEmptyCacheAskEachProviderOnce() async throws {
        let rig = try SharedStoreRig(["openweathermap", "open-meteo"]) { .init(recordedAnswer($0), delaySeconds: 0.5) }
        let launched = try (0..<20).map { try rig.launch(on: $0 % 2 == 0 ? "A" : "B", ["now", "53.9,27.57", "--json", "--timeout", "30"]) }
        var runs: [CLIRun] = []
        for process in launched { runs.append(await finish(process)) }
        for run in runs { #expect(run.code == 0, "\(run.stderr)") }
        #expect(rig.requests("/v1/forecast").count == 1)
        #expect(rig.requests("/data/2.5/weather").count == 1)
        // Every process has the answer in its own cache now: machine B answers offline.
        let offline = try await rig.run(on: "B", ["now", "53.9,27.57", "--json", "--offline"])
        #expect(offline.code == 0, "\(offline.stderr)")
    }

    @Test func aRetryAfterSeenOnOneMachineIsHonouredOnTheOther() async throws {
        let rig = try SharedStoreRig { _ in
            .init(status: 429, #"{"error": true, "reason": "slow down"}"#, headers: [("Content-Type", "application/json"), ("Retry-After", "600")])
        }
        let first = try await rig.run(on: "A", ["now", "53.9,27.57", "--json"])
        #expect(first.code == 3, "\(first.stderr)")
        #expect(rig.requests("/v1/forecast").count == 1)
        let second = try await rig.run(on: "B", ["now", "53.9,27.57", "--json"])
        #expect(second.code == 3)
        #expect(second.stdout.contains("cooldown") || second.stdout.contains("rate_limited"), "\(second.stdout)")
        #expect(rig.requests("/v1/forecast").count == 1)
        let keys = try await RedisKeysProbe(rig.redis).keys()
        #expect(keys.contains { $0.hasSuffix(":cooldown") })
        // Machine B lifts it for every machine.
        let reset = try await rig.run(on: "B", ["providers", "reset"])
        #expect(reset.code == 0, "\(reset.stderr)")
        #expect(!(try await RedisKeysProbe(rig.redis).keys().contains { $0.hasSuffix(":cooldown") }))
    }

    @Test func aBreakerOpenedOnOneMachineSkipsTheProviderOnTheOther() async throws {
        // A body that is not JSON: a bad response, which counts against the breaker (five in a row open it).
        let rig = try SharedStoreRig { _ in .init("<html>maintenance</html>") }
        for _ in 0..<5 { _ = try await rig.run(on: "A", ["now", "53.9,27.57", "--json"]) }
        let seen = rig.requests("/v1/forecast").count
        #expect(seen >= 5)
        let other = try await rig.run(on: "B", ["now", "53.9,27.57", "--json"])
        #expect(other.code == 3)
        #expect(other.stdout.contains("breaker"), "\(other.stdout)")
        #expect(rig.requests("/v1/forecast").count == seen)
    }

    @Test func aServerKilledPausedOrRestartedNeverStopsACommand() async throws {
        let rig = try SharedStoreRig(["openweathermap"], limits: #"[{"limit": 4, "per_s": 600}]"#, extra: #", "expected_machines": 2"#) {
            .init(recordedAnswer($0))
        }
        let warning = "the shared store is unavailable"
        // Not hanging on the server is judged by outcomes, not durations: the command enforces its own `--timeout` (a call
        // still waiting on the server then ends as a deadline failure, exit 3), so exit 0 with the provider's answer means the
        // call got past the server within it; one warning means the server cost one timeout, not one per use.
        rig.redis.stop()
        let down = try await rig.run(on: "A", ["now", "53.9,27.57", "--json", "--timeout", "5"])
        #expect(down.code == 0, "\(down.stderr)")
        #expect(!(down.stdout + down.stderr).contains("deadline"), "\(down.stdout)\(down.stderr)")
        #expect(down.stderr.components(separatedBy: warning).count == 2, "\(down.stderr)")
        #expect(down.stderr.contains("1/2 of each rate limit"))

        // Down: each machine takes 4 ÷ 2 = 2 calls; the place asked above was one.
        let second = try await rig.run(on: "A", ["now", "50,10", "--json", "--timeout", "2"])
        #expect(second.code == 0, "\(second.stderr)")
        let third = try await rig.run(on: "A", ["now", "51,10", "--json", "--timeout", "2"])
        #expect(third.code == 3, "\(third.stderr)")
        #expect(third.stdout.contains("rate_limited"))
        #expect(rig.requests("/data/2.5/weather").count == 2)

        // Back, restarted empty: the server is used again, without a warning, and is first seeded with this machine's two
        // calls, so that it grants no fresh burst (GCRA over 4 calls a window: a burst of 2): the call waits for the window.
        try rig.redis.start()
        let back = try await rig.run(on: "A", ["now", "52,10", "--json", "--timeout", "5"])
        #expect(back.code == 3, "\(back.stderr)")
        #expect(back.stdout.contains("rate_limited"))
        #expect(!back.stderr.contains(warning))
        #expect(rig.requests("/data/2.5/weather").count == 2)
        #expect(try await RedisKeysProbe(rig.redis).keys().contains { $0.hasSuffix(":seeded") })

        // Paused: machine B, whose local cache is empty, waits for it (`shared_store_timeout_ms`), warns once, and asks the
        // provider itself, within its own deadline.
        rig.redis.pause()
        let paused = try await rig.run(on: "B", ["now", "52,10", "--json", "--timeout", "5"])
        rig.redis.resume()
        #expect(paused.code == 0, "\(paused.stderr)")
        #expect(!(paused.stdout + paused.stderr).contains("deadline"), "\(paused.stdout)\(paused.stderr)")
        #expect(paused.stderr.components(separatedBy: warning).count == 2, "\(paused.stderr)")
        #expect(rig.requests("/data/2.5/weather").count == 3)

        // Nothing of the local store was lost meanwhile.
        let offline = try await rig.run(on: "A", ["now", "50,10", "--json", "--offline"])
        #expect(offline.code == 0, "\(offline.stderr)")
        let again = try await rig.run(on: "B", ["now", "52,10", "--json", "--offline"])
        #expect(again.code == 0, "\(again.stderr)")
    }

    @Test func aBatchGoesOnWhileTheServerIsKilledRestartedAndPaused() async throws {
        // The provider holds its answers at each stage until the test has changed the server's state: the batch cannot
        // run ahead of the test however the two are scheduled.
        let stages = AnswerStages(after: [5, 15, 25, 35])
        let rig = try SharedStoreRig(["openweathermap"], limits: #"[{"limit": 100000, "per_s": 60}]"#) {
            stages.hold()
            return .init(recordedAnswer($0), delaySeconds: 0.05)
        }
        let input = try batchInput((0..<60).map { "\(40 + Double($0) * 0.25),10" }.joined(separator: "\n") + "\n")
        let launched = try rig.launch(on: "A", ["batch", input, "--jobs", "2"])
        // Read as it runs: a pipe left unread would stop the batch once full.
        let finished = Task { await finish(launched) }
        // Each change of the server's state once the batch has got further: killed, restarted, paused, resumed.
        let asked = { rig.requests("/data/2.5/weather").count }
        #expect(await eventually { asked() >= 5 })
        rig.redis.stop()
        stages.open(0)
        #expect(await eventually { asked() >= 15 })
        try rig.redis.start()
        stages.open(1)
        #expect(await eventually { asked() >= 25 })
        rig.redis.pause()
        stages.open(2)
        #expect(await eventually { asked() >= 35 })
        rig.redis.resume()
        stages.open(3)
        let run = await finished.value
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "the shared store is unavailable").count == 2, "\(run.stderr)")
        let summary = try #require(try parseLines(run).last)
        #expect(try summary.int("ok") == 60)
        #expect(rig.requests("/data/2.5/weather").count == 60)
    }

    @Test func thePasswordIsNeverShown() async throws {
        let redis = try RedisTestServer(password: "hunter2-secret")
        let config = try temporaryConfiguration(#"{"shared_store": "redis://:wrong-pass@127.0.0.1:\#(redis.port)/0", "providers": []}"#)
        let binary = try #require(isobarExecutable())
        let providers = try await runProcess(binary, ["providers", "--config", config, "--verbose"])
        let stats = try await runProcess(binary, ["cache", "stats", "--config", config])
        let clear = try await runProcess(binary, ["cache", "clear", "--shared", "--shared-store", "redis://u:wrong-pass@127.0.0.1:\(redis.port)/0"])
        let bad = try await runProcess(binary, ["now", "Minsk", "--shared-store", "rediss://:wrong-pass@127.0.0.1:1/0"])
        for run in [providers, stats, clear, bad] {
            #expect(!run.stdout.contains("wrong-pass") && !run.stderr.contains("wrong-pass"), "\(run.stdout)\(run.stderr)")
        }
        #expect(clear.code == 78 || clear.code == 1, "\(clear.stderr)")
        #expect(clear.stderr.contains("***"))
        #expect(bad.code == 78 || bad.code == 64, "\(bad.stderr)")
        #expect(bad.stderr.contains("rediss://") && bad.stderr.contains("TLS"))
    }

    @Test func cacheStatsShowsBothLevelsAndClearSharedKeepsOtherKeys() async throws {
        let rig = try SharedStoreRig { .init(recordedAnswer($0)) }
        #expect(try await rig.run(on: "A", ["now", "53.9,27.57", "--json"]).code == 0)
        try await RedisKeysProbe(rig.redis).set("someone-else", "keep")
        let stats = try await rig.run(on: "B", ["cache", "stats", "--json"])
        let lines = stats.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(stats.stdout)\(stats.stderr)")
        #expect(lines.last?.contains(#""level":"shared""#) == true)
        #expect(lines.last?.contains(#""provider":"open-meteo""#) == true)
        let clear = try await rig.run(on: "B", ["cache", "clear", "--shared", "--json"])
        #expect(clear.stdout.contains(#""level":"shared""#) && !clear.stdout.contains(#""removed":0"#), "\(clear.stdout)\(clear.stderr)")
        #expect(try await RedisKeysProbe(rig.redis).keys().contains("someone-else"))
        #expect(!(try await RedisKeysProbe(rig.redis).keys().contains { $0.contains(":cache:") }))
        if await Python.has("jsonschema") {
            let file = temporaryDirectory("validate") + "/lines.jsonl"
            try (stats.stdout + clear.stdout).write(toFile: file, atomically: true, encoding: .utf8)
            let check = try await Python.script("validate_lines.py", [LineCorpus.schemaPath, file])
            #expect(check.code == 0 && check.stdout.isEmpty, "\(check.stdout)\(check.stderr)")
        }
        let providers = try await rig.run(on: "B", ["providers"])
        #expect(providers.stdout.contains("shared through redis://127.0.0.1:\(rig.redis.port)/0"), "\(providers.stdout)")
    }
}

/// Reads and writes keys with `redis-cli`, from outside Isobar.
struct RedisKeysProbe {
    let redis: RedisTestServer

    init(_ redis: RedisTestServer) { self.redis = redis }

    /// Every key.
    func keys() async throws -> [String] { try await cli(["--scan"]).split(separator: "\n").map(String.init) }

    /// Sets a key.
    func set(_ key: String, _ value: String) async throws { _ = try await cli(["SET", key, value]) }

    private func cli(_ arguments: [String]) async throws -> String {
        try await runProcess("/usr/bin/redis-cli", ["-p", String(redis.port)] + arguments).stdout
    }
}

/// Answers held in stages: the requests after the first `after[k]` wait until stage `k` is opened.
final class AnswerStages: Sendable {
    private let after: [Int]
    private let received = Atomic<Int>(0)
    private let opened = ConditionLock(0)

    /// Stages that end after these request counts, in order.
    init(after: [Int]) { self.after = after }

    /// Called for each request, on the server's thread: waits while the request's stage is not open.
    func hold() {
        let number = received.add(1, ordering: .relaxed).newValue
        guard let stage = after.lastIndex(where: { number > $0 }) else { return }
        opened.withLock(when: { $0 > stage }) { _ in }
    }

    /// Lets the requests of stage `stage` (and those before) through.
    func open(_ stage: Int) {
        opened.withLock { $0 = max($0, stage + 1) }
        opened.broadcast()
    }
}
