import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

/// `learn`'s two requests (Open-Meteo's previous runs, the IEM archive) through the cache, `--offline`, `--record` and
/// `--replay`, against the past world served on loopback (see `PastWorld`), and `learn --demo`.
@Suite(.tags(.realTime)) struct LearnEngineTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    /// The past world's configuration, its Open-Meteo entry with a key read from `OM_TEST_KEY`.
    func configuration(_ server: LoopbackServer) throws -> String {
        try temporaryConfiguration("""
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)", "previous_runs_url": "\(server.baseURL)",
           "models": ["ecmwf_ifs025", "gfs_seamless", "icon_seamless"], "api_key_env": "OM_TEST_KEY"}],
         "observations": {"type": "metar", "archive_url": "\(server.baseURL)"}}
        """)
    }

    static let key = "om-secret-4f1c9a"

    func environment() -> [String: String] { PastWorld.environment().merging(["OM_TEST_KEY": Self.key]) { $1 } }

    func learnedSkills(_ run: CLIRun) -> [String] {
        run.stdout.split(separator: "\n").filter { $0.contains(#""type":"learned_skill""#) }.map(String.init)
    }

    @Test func aSecondLearnWithinTheAnswersLifetimeAsksNobody() async throws {
        let server = try PastWorld.server()
        let config = try configuration(server)
        let environment = environment()
        let first = await runCLI(["learn", "Minsk", "--config", config, "--json"], environment: environment, transport: curl)
        #expect(first.code == 0, "\(first.stderr)")
        #expect(server.requests.count == 2)
        #expect(try parseLines(first).first?.int("from_cache") == 0)
        // Both answers are kept whole, as the kind `past` of each source.
        let stats = await runCLI(["cache", "stats", "--json"], environment: environment)
        let kept = try parseLines(stats).flatMap { line in
            try line.member("entries").elements().filter { try $0.string("kind") == "past" }.map { try $0.string("provider") }
        }
        #expect(kept.sorted() == ["metar", "open-meteo"], "\(stats.stdout)")
        let second = await runCLI(["learn", "Minsk", "--config", config, "--json"], environment: environment, transport: curl)
        #expect(second.code == 0, "\(second.stderr)")
        #expect(server.requests.count == 2)
        let line = try #require(try parseLines(second).first)
        #expect(try line.int("from_cache") == 2)
        // What was learned before is not folded twice.
        #expect(try line.int("pairs") == 0)
        let people = await runCLI(["learn", "Minsk", "--config", config], environment: environment, transport: curl)
        #expect(people.stdout.contains("2 answer(s) came from the cache, asking nobody"))
        #expect(server.requests.count == 2)
        // --refresh asks both again; --offline never asks.
        #expect(await runCLI(["learn", "Minsk", "--config", config, "--refresh"], environment: environment, transport: curl).code == 0)
        #expect(server.requests.count == 4)
        #expect(await runCLI(["learn", "Minsk", "--config", config, "--offline"], environment: environment, transport: curl).code == 0)
        #expect(server.requests.count == 4)
    }

    @Test func offlineWithNothingCachedIsAOneLineError() async throws {
        let server = try PastWorld.server()
        let run = await runCLI(["learn", "Minsk", "--config", try configuration(server), "--offline"], environment: environment(), transport: curl)
        expectOneLineError(run, code: .noneAnswered, containing: "offline, and no past forecasts near Minsk are cached")
        #expect(server.requests.isEmpty)
        #expect(run.stdout.isEmpty)
    }

    @Test func recordThenReplayLearnsTheSameRecordAndNoKeyIsWritten() async throws {
        let server = try PastWorld.server()
        let config = try configuration(server)
        let cassettes = temporaryDirectory("learn-cassettes")
        let recorded = await runCLI(["learn", "Minsk", "--config", config, "--json", "--record", cassettes], environment: environment(), transport: curl)
        #expect(recorded.code == 0, "\(recorded.stderr)")
        #expect(recorded.stderr.contains("recorded 1 exchange(s) of open-meteo to \(cassettes)/open-meteo/"))
        #expect(recorded.stderr.contains("recorded 1 exchange(s) of metar to \(cassettes)/metar/"))
        // The key went to the server, never to a cassette.
        #expect(server.requests.contains { $0.query.contains(Self.key) })
        let files = try FileManager.default.subpathsOfDirectory(atPath: cassettes).filter { $0.hasSuffix(".json") }
        #expect(files.count == 2)
        for file in files {
            let text = try String(contentsOfFile: cassettes + "/" + file, encoding: .utf8)
            #expect(!text.contains(Self.key), "\(file)")
        }
        let asked = server.requests.count
        let replayed = await runCLI(["learn", "Minsk", "--config", config, "--json", "--replay", cassettes], environment: environment())
        #expect(replayed.code == 0, "\(replayed.stderr)")
        #expect(server.requests.count == asked)
        #expect(learnedSkills(replayed) == learnedSkills(recorded))
        #expect(learnedSkills(replayed).count == 9)
        let line = try #require(try parseLines(replayed).first)
        #expect(try line.int("pairs") == parseLines(recorded).first?.int("pairs"))
        #expect(try line.member("source").string("kind") == "replay")
        #expect(try line.member("source").string("recorded_at").hasSuffix("+00:00"))
        #expect(try parseLines(recorded).first?.member("source").string("kind") == "live")
        let people = await runCLI(["learn", "Minsk", "--config", config, "--replay", cassettes], environment: environment())
        #expect(people.stdout.contains("Replayed data, not live: past forecasts and station reports recorded "))
    }

    /// An `observations` entry's own `replay` folder, relative to the configuration file, answers the archive request.
    @Test func aConfigurationReplaysBothSourcesFromItsOwnFolders() async throws {
        let server = try PastWorld.server()
        let folder = temporaryDirectory("learn-config-replay")
        let recorded = await runCLI(["learn", "Minsk", "--config", try configuration(server), "--json", "--record", folder + "/rec"],
                                    environment: environment(), transport: curl)
        #expect(recorded.code == 0, "\(recorded.stderr)")
        let file = folder + "/config.json"
        try """
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "models": ["ecmwf_ifs025", "gfs_seamless", "icon_seamless"],
           "replay": "rec/open-meteo"}],
         "observations": {"type": "metar", "replay": "rec/metar"}}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let replayed = await runCLI(["learn", "Minsk", "--config", file, "--json"], environment: environment())
        #expect(replayed.code == 0, "\(replayed.stderr)")
        #expect(learnedSkills(replayed) == learnedSkills(recorded))
        #expect(try parseLines(replayed).first?.member("source").string("kind") == "replay")
        // A folder that is not there is a configuration error naming it.
        try #"{"providers": [{"id": "open-meteo", "type": "open-meteo", "replay": "rec/open-meteo"}], "observations": {"type": "metar", "replay": "nowhere"}}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        expectOneLineError(await runCLI(["learn", "Minsk", "--config", file], environment: environment()), code: .configuration,
                           containing: "\(folder)/nowhere")
    }

    @Test func aDamagedRecordingIsAOneLineError() async throws {
        let server = try PastWorld.server()
        let config = try configuration(server)
        let cassettes = temporaryDirectory("learn-damaged")
        let recorded = await runCLI(["learn", "Minsk", "--config", config, "--record", cassettes], environment: environment(), transport: curl)
        #expect(recorded.code == 0, "\(recorded.stderr)")
        for folder in ["open-meteo", "metar"] {
            let copy = temporaryDirectory("learn-damaged-copy")
            try FileManager.default.copyItem(atPath: cassettes + "/open-meteo", toPath: copy + "/open-meteo")
            try FileManager.default.copyItem(atPath: cassettes + "/metar", toPath: copy + "/metar")
            let file = try #require(try FileManager.default.contentsOfDirectory(atPath: copy + "/" + folder).first)
            try Data(#"{"format": "isobar-cassette", "version": 1, "interactions": [{"request": "#.utf8).write(to: URL(fileURLWithPath: copy + "/" + folder + "/" + file))
            let run = await runCLI(["learn", "Minsk", "--config", config, "--replay", copy], environment: environment())
            expectOneLineError(run, code: .configuration, containing: "is not a valid cassette")
        }
        // A recording of another request is named as such.
        let elsewhere = await runCLI(["learn", "Minsk", "--config", config, "--replay", cassettes, "--days", "12"], environment: environment())
        #expect(elsewhere.code == ExitCode.noneAnswered.rawValue)
        #expect(elsewhere.stderr.contains("no recorded response"), "\(elsewhere.stderr)")
    }

    @Test func theDemoLearnsIntoAThrowawayRecord() async throws {
        let data = temporaryDirectory("learn-demo-data")
        let run = await runCLI(["learn", "Minsk", "--demo", "--json"], environment: ["XDG_DATA_HOME": data])
        #expect(run.code == 0, "\(run.stderr)")
        let lines = try parseLines(run)
        let learned = try #require(lines.first)
        #expect(try learned.member("throwaway").bool())
        #expect(try learned.string("station") == "UMLI")
        #expect(try learned.member("source").string("recorded_at") == "2026-11-28T09:00:00+00:00")
        #expect(try learned.member("learned_from").stringsOrNulls() == PastWorld.models.map { "open-meteo/\($0)" })
        let skills = Array(lines.dropFirst())
        #expect(skills.count == 9)
        #expect(try skills.allSatisfy { try $0.string("skill_basis") == "backfill" })
        // ECMWF, the best of the recording's three, weighs most at every lead.
        for lead in ["1-3d", "3-7d", "7-16d"] {
            let weights = try skills.filter { try $0.string("lead") == lead }.map { (try $0.string("provider"), try $0.double("weight")) }
            #expect(weights.max { $0.1 < $1.1 }?.0 == "open-meteo/ecmwf_ifs025", "\(weights)")
        }
        // --units gives the bias and error in Fahrenheit degrees.
        let imperial = try parseLines(await runCLI(["learn", "Minsk", "--demo", "--json", "--units", "imperial"], environment: ["XDG_DATA_HOME": data]))
        #expect(try imperial.dropFirst().allSatisfy { try $0.string("unit") == "°F" })
        let (metricRMSE, imperialRMSE) = (try skills[0].double("rmse"), try imperial[1].double("rmse"))
        #expect(abs(imperialRMSE - metricRMSE * 1.8) < 0.01)
        // The user's record and archive are neither read nor written.
        #expect(!FileManager.default.fileExists(atPath: data + "/isobar"))
        let again = await runCLI(["learn", "Minsk", "--demo", "--json"], environment: ["XDG_DATA_HOME": data])
        #expect(try parseLines(again).first?.int("pairs") == learned.int("pairs"))
        // The recording is of Minsk and of 30 days: anything else is one line naming what it holds, and nothing is asked.
        for arguments in [["learn", "London", "--demo"], ["learn", "Minsk", "--demo", "--days", "10"], ["learn", "53.9,27.6", "--demo"]] {
            let other = await runCLI(arguments, environment: ["XDG_DATA_HOME": data])
            #expect(other.code == ExitCode.usage.rawValue, "\(arguments)")
            #expect(other.stdout.isEmpty)
            #expect(other.stderr == "isobar: the demo's recording of past forecasts holds Minsk over 30 days; "
                    + "try 'isobar learn Minsk --demo' (without --demo, learn asks the live services)\n", "\(other.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: data + "/isobar"))
        // Its coordinates are the same place.
        let byCoordinates = await runCLI(["learn", "53.9,27.5667", "--demo", "--json"], environment: ["XDG_DATA_HOME": data])
        #expect(byCoordinates.code == 0, "\(byCoordinates.stderr)")
    }
}
