import Foundation
import IsobarCLI
import IsobarConsensus
import IsobarCore
@testable import IsobarStore
import IsobarTestKit
import Testing

/// Runs every command line of the real binary at once and waits for all of them.
func runConcurrently(_ commands: [[String]], environment: [String: String]) async throws -> [CLIRun] {
    let binary = try #require(isobarExecutable())
    var runs: [CLIRun] = []
    for launched in try commands.map({ try launch(binary, $0, environment: environment) }) { runs.append(await finish(launched)) }
    return runs
}


@Suite(.serialized) struct ProcessTests {
    @Test func eightProcessesNeverExceedASharedRateLimit() async throws {
        let server = try providerServer()
        let config = try temporaryConfiguration("""
        {"providers": [{"id": "openweathermap", "type": "openweathermap", "api_key_env": "TEST_OWM_KEY",
                        "base_url": "\(server.baseURL)", "rate_limits": [{"limit": 10, "per_s": 2}]}]}
        """)
        let binary = try #require(isobarExecutable())
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": temporaryDirectory("shared-cache")]
        let commands = (0..<8).map { process in
            ["/bin/sh", "-c", (0..<4).map { run in
                "'\(binary)' compare \(10 + process),\(run) --refresh --timeout 8 --config '\(config)' --format jsonl; echo \"exit=$?\""
            }.joined(separator: "; ")]
        }
        var statuses: [String] = []
        for launched in try commands.map({ try launch($0[0], Array($0.dropFirst()), environment: environment) }) {
            let run = await finish(launched)
            for line in run.stdout.split(separator: "\n") where line.hasPrefix("{") {
                let value = try JSONDocument(parsing: String(line)).rootValue
                if let status = try value.optionalString("status") { statuses.append(status) }
            }
            #expect(!run.stdout.contains(sentinelKey) && !run.stderr.contains(sentinelKey))
        }
        #expect(statuses.count == 32)
        #expect(statuses.allSatisfy { $0 == "ok" || $0 == "rate_limited" }, "\(statuses)")
        let answered = statuses.filter { $0 == "ok" }.count
        #expect(server.requests.count == answered)
        #expect(server.requests.count >= 10)
        // What the product promises, judged on the ledger the processes shared rather than on how fast the server thread
        // read each request: every call is granted, then answered, then settled; and no call was granted while the calls
        // counted (from their grant until their settle plus the window) already filled the limit.
        let calls = try await LedgerRows.read(cacheDirectory: environment["XDG_CACHE_HOME"]! + "/isobar")
        #expect(calls.count == answered)
        #expect(calls.allSatisfy { $0.settledAt != nil }, "every answered call is settled")
        #expect(LedgerRows.mostCountedAtAGrant(calls, windowSeconds: 2) <= 10, "\(calls)")
        // Each request reached the server after a grant and before a settle: the k-th arrival lies between the k-th grant
        // and the k-th settle (an arrival outside every permit would break this, whatever the machine's speed).
        // The processes ran with the recordings' time shift: the ledger's instants are on that clock.
        let shift = Double(recordingTimeShift) ?? 0
        let arrivals = server.requests.map { LedgerRows.ledgerClock(monotonic: $0.receivedAt, shift: shift) }.sorted()
        let grants = calls.map(\.grantedAt).sorted()
        let settles = calls.compactMap(\.settledAt).sorted()
        if arrivals.count == grants.count, arrivals.count == settles.count {
            for index in arrivals.indices {
                #expect(grants[index] <= arrivals[index] && arrivals[index] <= settles[index],
                        "arrival \(index): granted \(grants[index]), arrived \(arrivals[index]), settled \(settles[index])")
            }
        }
    }

    @Test func twentyProcessesOnAnEmptyCacheMakeOneRequestPerProvider() async throws {
        let weather = try cassetteText(provider: "openweathermap", place: "minsk", pathSuffix: "/data/2.5/weather")
        let meteo = try cassetteText(provider: "open-meteo", place: "minsk", pathSuffix: "/v1/forecast")
        let server = try LoopbackServer { request in
            .init(request.path == "/v1/forecast" ? meteo : weather, delaySeconds: 0.5)
        }
        let config = try liveConfiguration(server)
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": temporaryDirectory("shared-cache")]
        let runs = try await runConcurrently(Array(repeating: ["compare", "Minsk", "--config", config, "--format", "jsonl"], count: 20),
                                       environment: environment)
        for run in runs { #expect(run.code == 0, "\(run.stdout)\(run.stderr)") }
        #expect(server.requests.filter { $0.path == "/data/2.5/weather" }.count == 1)
        #expect(server.requests.filter { $0.path == "/v1/forecast" }.count == 1)
        let statuses = try runs.flatMap { try parseLines($0) }.compactMap { try $0.optionalString("status") }
        #expect(statuses.filter { $0 == "ok" }.count == 2)
        #expect(statuses.filter { $0 == "cached" }.count == 38)
    }

    @Test func aRetryAfterIsHonouredByTheNextProcess() async throws {
        let weather = try cassetteText(provider: "openweathermap", place: "minsk", pathSuffix: "/data/2.5/weather")
        let answered = Atomic429()
        let server = try LoopbackServer { _ in
            answered.next() ? .init(status: 429, #"{"cod":429,"message":"slow down"}"#, headers: [("Retry-After", "2")]) : .init(weather)
        }
        let config = try temporaryConfiguration("""
        {"providers": [{"id": "openweathermap", "type": "openweathermap", "api_key_env": "TEST_OWM_KEY", "base_url": "\(server.baseURL)"}]}
        """)
        let binary = try #require(isobarExecutable())
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": temporaryDirectory("cooldown")]
        let first = try await runProcess(binary, ["compare", "Minsk", "--config", config, "--format", "jsonl"], environment: environment)
        #expect(first.code == ExitCode.noneAnswered.rawValue)
        let second = try await runProcess(binary, ["compare", "Minsk", "--config", config, "--format", "jsonl"], environment: environment)
        #expect(second.code == 0, "\(second.stdout)")
        let requests = server.requests
        #expect(requests.count == 2)
        // The second process waited out the cooldown before asking.
        if requests.count == 2 { #expect(requests[1].receivedAt - requests[0].receivedAt >= 1.9) }
    }

    @Test func aKilledWriterLeavesAUsableStore() async throws {
        let server = try providerServer()
        let config = try liveConfiguration(server)
        let cache = temporaryDirectory("killed-cache")
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": cache]
        for round in 0..<12 {
            let (process, _, _) = try launch(try #require(isobarExecutable()), ["compare", "\(round),\(round)", "--refresh", "--config", config],
                                             environment: environment)
            try await Task.sleep(for: .microseconds(5_000 + round * 4_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let after = try await runProcess(try #require(isobarExecutable()), ["compare", "Minsk", "--config", config], environment: environment)
        #expect(after.code == 0, "\(after.stderr)")
        #expect(!after.stderr.contains("locked"))
        let store = try await Store.open(directory: cache + "/isobar", warn: { Issue.record("unexpected warning: \($0)") })
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test func aDamagedCacheIsRebuiltAndTheCommandStillAnswers() async throws {
        let server = try providerServer()
        let config = try liveConfiguration(server)
        let cache = temporaryDirectory("damaged-cache")
        try FileManager.default.createDirectory(atPath: cache + "/isobar", withIntermediateDirectories: true)
        try Data(repeating: 0x17, count: 10_000).write(to: URL(fileURLWithPath: cache + "/isobar/isobar.sqlite"))
        let run = try await runProcess(try #require(isobarExecutable()), ["compare", "Minsk", "--config", config],
                                 environment: ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": cache])
        #expect(run.code == 0)
        #expect(run.stderr.contains("was damaged; moved it to"))
        #expect(run.stdout.contains("Consensus"))
    }
}

/// Answers true the first time only.
final class Atomic429: @unchecked Sendable {
    private let lock = NSLock()
    private var used = false

    func next() -> Bool {
        lock.withLock {
            defer { used = true }
            return !used
        }
    }
}
