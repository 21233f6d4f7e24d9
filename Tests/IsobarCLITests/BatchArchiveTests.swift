import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

@Suite struct BatchArchiveTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }
    /// Three places a kilometre or more apart, so that each is a place of its own in the archive.
    let places = "53.9,27.57\n52.1,23.7\n55.2,30.2\n"

    func configuration(_ server: LoopbackServer, observations: LoopbackServer? = nil) throws -> String {
        let entry = observations.map { #""observations": {"type": "metar", "base_url": "\#($0.baseURL)"}, "# } ?? ""
        return try temporaryConfiguration("""
        {\(entry)"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)"}]}
        """)
    }

    /// The archive's export, as JSON lines.
    func export(_ environment: [String: String], _ config: String) async throws -> [JSONValue] {
        let run = await runCLI(["archive", "export", "--config", config], environment: environment)
        #expect(run.code == 0, "\(run.stderr)")
        return try parseLines(run)
    }

    func places(of lines: [JSONValue], type: String) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in lines where try line.string("type") == type {
            counts["\(try line.double("latitude")),\(try line.double("longitude"))", default: 0] += 1
        }
        return counts
    }

    @Test func eachLiveAnswerIsArchivedAndACachedRunAddsNothing() async throws {
        let server = try providerServer()
        let config = try configuration(server)
        let environment = ["XDG_DATA_HOME": temporaryDirectory("batch-archive-data"), "XDG_CACHE_HOME": temporaryDirectory("batch-archive-cache")]
        let input = try batchInput(places)
        let first = await runCLI(["batch", input, "--config", config, "--kind", "hourly", "--days", "2"], environment: environment, transport: curl)
        #expect(first.code == 0, "\(first.stderr)")
        #expect(first.stderr.isEmpty)
        let lines = try await export(environment, config)
        let steps = try places(of: lines, type: "archived_step")
        #expect(steps.count == 3)
        // The same answer (the server gives one recording for every place) for each place, every step of it once.
        #expect(Set(steps.values).count == 1 && (steps.values.first ?? 0) > 24)
        #expect(try lines.allSatisfy { try $0.string("type") == "archived_step" && $0.string("provider") == "open-meteo" })
        #expect(server.requests.count == 3)

        // Emptied, then the same batch again: every answer comes from the cache, so nothing is archived.
        #expect(await runCLI(["archive", "clear", "--config", config], environment: environment).code == 0)
        let again = await runCLI(["batch", input, "--config", config, "--kind", "hourly", "--days", "2"], environment: environment, transport: curl)
        #expect(again.code == 0, "\(again.stderr)")
        #expect(server.requests.count == 3)
        #expect(try await export(environment, config).isEmpty)
    }

    @Test(arguments: [("daily", true), ("current", false)])
    func dailyAnswersKeepTheirHoursAndCurrentOnesHaveNone(kind: String, keeps: Bool) async throws {
        let server = try providerServer()
        let config = try configuration(server)
        let environment = ["XDG_DATA_HOME": temporaryDirectory("batch-kind-data"), "XDG_CACHE_HOME": temporaryDirectory("batch-kind-cache")]
        let run = await runCLI(["batch", try batchInput(places), "--config", config, "--kind", kind], environment: environment, transport: curl)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(try places(of: await export(environment, config), type: "archived_step").count == (keeps ? 3 : 0))
    }

    @Test func aReplayedBatchArchivesNothing() async throws {
        let data = temporaryDirectory("batch-archive-demo")
        let run = await runCLI(["batch", try batchInput("Minsk\nMoscow\n"), "--demo", "--kind", "hourly"], environment: ["XDG_DATA_HOME": data])
        #expect(run.code == 0, "\(run.stderr)")
        let stats = try parseLines(await runCLI(["archive", "stats", "--json"], environment: ["XDG_DATA_HOME": data]))
        #expect(try stats.first?.int("steps") == 0 && stats.first?.int("observations") == 0)
    }

    @Test func withObservationsConfiguredEachPlaceKeepsAProxyAndNoStationIsAsked() async throws {
        let server = try providerServer()
        let metar = try LoopbackServer { _ in .init("[]") }
        let config = try configuration(server, observations: metar)
        // Half an hour after the recording's current values, so that they stand in for an observation.
        let environment = ["XDG_DATA_HOME": temporaryDirectory("batch-proxy-data"), "XDG_CACHE_HOME": temporaryDirectory("batch-proxy-cache"),
                           "ISOBAR_TIME_SHIFT": String(Int(recordingTimeShift)! - 9_000)]
        let run = await runCLI(["batch", try batchInput(places), "--config", config], environment: environment, transport: curl)
        #expect(run.code == 0, "\(run.stderr)")
        let lines = try await export(environment, config)
        let observed = try lines.filter { try $0.string("type") == "archived_observation" }
        #expect(observed.count == 3)
        #expect(try observed.allSatisfy { try $0.string("observed_by") == "proxy" && $0.string("station") == "open-meteo" })
        #expect(try places(of: lines, type: "archived_observation").count == 3)
        #expect(metar.requests.isEmpty)

        // Three hours after the recording's current values, they are too old to stand in for an observation.
        let late = ["XDG_DATA_HOME": temporaryDirectory("batch-late-data"), "XDG_CACHE_HOME": temporaryDirectory("batch-late-cache")]
        #expect(await runCLI(["batch", try batchInput(places), "--config", config], environment: late, transport: curl).code == 0)
        #expect(try await export(late, config).allSatisfy { try $0.string("type") != "archived_observation" })

        // Without an observations entry, no proxy.
        let plain = ["XDG_DATA_HOME": temporaryDirectory("batch-noproxy-data"), "XDG_CACHE_HOME": temporaryDirectory("batch-noproxy-cache"),
                     "ISOBAR_TIME_SHIFT": String(Int(recordingTimeShift)! - 9_000)]
        let config2 = try configuration(server)
        #expect(await runCLI(["batch", try batchInput(places), "--config", config2], environment: plain, transport: curl).code == 0)
        #expect(try await export(plain, config2).allSatisfy { try $0.string("type") != "archived_observation" })
    }

    @Test func anArchiveThatCannotBeWrittenIsOneWarningAndTheBatchSucceeds() async throws {
        let server = try providerServer()
        let blocker = temporaryDirectory("batch-archive-blocked") + "/file"
        _ = FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8))
        let run = await runCLI(["batch", try batchInput(places), "--config", try configuration(server), "--kind", "hourly"],
                               environment: ["XDG_DATA_HOME": blocker], transport: curl)
        #expect(run.code == 0)
        #expect(run.stderr.hasPrefix("isobar: warning: the forecast archive was not updated: "))
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(try parseLines(run).filter { try $0.string("type") == "consensus" }.count == 3)
    }
}
