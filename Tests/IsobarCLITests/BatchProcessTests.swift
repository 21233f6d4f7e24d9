import Foundation
import IsobarCLI
import IsobarCore
import IsobarTestKit
import Testing

@Suite(.serialized) struct BatchProcessTests {
    @Test func ctrlCStopsPrintsTheSummaryAndExits130() async throws {
        let weather = try cassetteText(provider: "openweathermap", place: "minsk", pathSuffix: "/data/2.5/weather")
        let meteo = try cassetteText(provider: "open-meteo", place: "minsk", pathSuffix: "/v1/forecast")
        let server = try LoopbackServer { request in .init(request.path == "/v1/forecast" ? meteo : weather, delaySeconds: 0.05) }
        defer { server.stop() }
        let config = try temporaryConfiguration("""
        {"providers": [
          {"id": "openweathermap", "type": "openweathermap", "api_key_env": "TEST_OWM_KEY", "base_url": "\(server.baseURL)",
           "rate_limits": [{"limit": 100000, "per_s": 60}]},
          {"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)", "max_concurrent_calls": 8}]}
        """)
        let input = try MixedInput(places: 1000).file()
        let binary = try #require(isobarExecutable())
        let launched = try launch(binary, ["batch", input, "--config", config], environment: ["TEST_OWM_KEY": sentinelKey])
        // Read as it runs: a pipe left unread would stop the batch once full.
        let finished = Task { await finish(launched) }
        // Interrupted once it is under way: some places asked, most not yet.
        #expect(await eventually { server.requests.count >= 20 })
        launched.0.interrupt()
        let run = await finished.value
        #expect(run.code == 130, "\(run.stderr)")
        let lines = try parseLines(run)
        let summary = try #require(lines.last)
        #expect(try summary.string("type") == "summary")
        #expect(try summary.member("interrupted").bool())
        let places = try summary.int("places")
        #expect(places > 0 && places < 1000)
        #expect(try lines.filter { try $0.string("type") == "consensus" }.count == places)
        #expect(try summary.int("ok") + summary.int("partial") + summary.int("failed") == places)
    }

    @Test func aClosedPipeEndsTheRunQuietly() async throws {
        let input = try batchInput(String(repeating: "Minsk\nMoscow\n", count: 500))
        let binary = try #require(isobarExecutable())
        let run = try await runProcess("/bin/sh", ["-c", "'\(binary)' batch '\(input)' --demo | head -3; echo \"status=${PIPESTATUS:-}\""])
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.lines.count == 4)
        #expect(run.lines.prefix(3).allSatisfy { $0.hasPrefix(#"{"schema":1,"#) })
    }

    @Test func readsStandardInput() async throws {
        let binary = try #require(isobarExecutable())
        let run = try await runProcess("/bin/sh", ["-c", "printf 'Minsk\\n{oops\\n' | '\(binary)' batch --demo; echo \"exit=$?\""])
        #expect(run.stdout.contains(#""type":"input_error","input_line":2"#))
        #expect(run.stdout.contains(#""type":"consensus","input_line":1"#))
        #expect(run.lines.last == "exit=2")
    }
}
