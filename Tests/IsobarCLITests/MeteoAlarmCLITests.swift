import Foundation
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

/// MeteoAlarm in the command line: the London demo (a warning placed by its polygon, one by the configured area code, the
/// rest counted in a note), `providers check`, places outside the configured country, and a bad entry.
@Suite struct MeteoAlarmCLITests {
    @Test func theLondonDemoShowsTheTwoPlacedWarningsAndCountsTheOthers() async {
        let run = await runCLI(["alerts", "London", "--demo"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.lines.contains("MODERATE Yellow wind warning until Sat Nov 28 21:00 · MeteoAlarm"))
        #expect(run.lines.contains("MODERATE Yellow rain warning until Sun Nov 29 15:00 · MeteoAlarm"))
        #expect(run.lines.contains("  Placed here by its polygon"))
        #expect(run.lines.contains("  Placed here by the configured area code EMMA_ID:UK012"))
        #expect(run.stdout.contains("MeteoAlarm: 2 warnings in force in the United Kingdom could not be placed at London"))
        #expect(!run.stdout.contains("ice warning") && !run.stdout.contains("fog warning") && !run.stdout.contains("No special awareness"))
    }

    @Test func nowInLondonShowsTheWarningsFirst() async {
        let run = await runCLI(["now", "London", "--demo"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(Array(run.lines.prefix(3)) == ["MODERATE Yellow wind warning until Sat Nov 28 21:00 · MeteoAlarm",
                                               "MODERATE Yellow rain warning until Sun Nov 29 15:00 · MeteoAlarm",
                                               "London, England, GB  51.5085, -0.1257  Europe/London UTC+00:00"])
        #expect(await runCLI(["now", "London", "--demo", "--fail-on", "moderate"]).code == 10)
        #expect(await runCLI(["now", "London", "--demo", "--fail-on", "severe"]).code == 0)
    }

    @Test func theJSONLinesSayHowEachWarningWasPlacedAndCarryTheAwarenessAsSent() async throws {
        let run = await runCLI(["alerts", "London", "--demo", "--format", "jsonl"])
        #expect(run.code == 0, "\(run.stderr)")
        let alerts = try parseLines(run).filter { (try? $0.string("type")) == "alert" }
        #expect(try alerts.map { try $0.string("placed_by") } == ["its polygon", "the configured area code EMMA_ID:UK012"])
        #expect(try alerts.map { try $0.string("awareness_type") } == ["1; Wind", "10; Rain"])
        #expect(try alerts.map { try $0.string("awareness_level") } == ["2; yellow; Moderate", "2; yellow; Moderate"])
    }

    @Test func aPlaceInAnotherCountryIsNotAskedNeverAFailure() async {
        let run = await runCLI(["alerts", "Oslo", "--demo"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.lines.contains("MeteoAlarm: not asked — Oslo is outside its coverage"))
    }

    @Test func providersCheckPicksLondonAndPassesEveryRule() async {
        let run = await runCLI(["providers", "check", "meteoalarm", "--demo"])
        #expect(run.code == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("Checking meteoalarm (MeteoAlarm, replay "))
        #expect(run.stdout.contains(" on London, GB:"))
        #expect(!run.stdout.contains("FAIL"))
        let oslo = await runCLI(["providers", "check", "meteoalarm", "Oslo", "--demo"])
        #expect(oslo.stdout.contains("Oslo, NO lies outside its coverage"))
    }

    @Test func anEntryWithoutACountryIsAOneLineConfigurationError() async throws {
        let configuration = try temporaryConfiguration(#"{"providers": [{"id": "meteoalarm", "type": "meteoalarm"}]}"#)
        expectOneLineError(await runCLI(["alerts", "London", "--config", configuration]), code: .configuration,
                           containing: "a meteoalarm entry reads one country's feed")
    }
}

/// MeteoAlarm asked live (over loopback): the feed, each CAP file once, and no second poll of the place within the floor.
@Suite(.serialized, .tags(.realTime)) struct MeteoAlarmLiveTests {
    @Test func aSecondRunWithinTheFloorSendsNothingAndShowsTheSameWarningsAndNote() async throws {
        let text = try String(contentsOfFile: "\(dataDirectory)/cassettes/meteoalarm/london.json", encoding: .utf8)
        var bodies: [String: String] = [:]
        for interaction in try JSONDocument(parsing: text).rootValue.member("interactions").elements() {
            let url = try #require(RequestURL(string: try interaction.member("request").string("url")))
            bodies[url.path] = try interaction.member("response").string("body")
        }
        let recorded = bodies
        let server = try LoopbackServer { request in
            recorded[request.path].map { .init($0, headers: [("Content-Type", "application/xml")]) } ?? .init(status: 404, "none")
        }
        defer { server.stop() }
        let configuration = try temporaryConfiguration(#"""
            {"providers": [{"id": "meteoalarm", "type": "meteoalarm", "base_url": "\#(server.baseURL)", "country": "united-kingdom",
                            "areas": {"51.5085,-0.1257": ["UK012"]}}]}
            """#)
        let cache = temporaryDirectory("meteoalarm-cache")
        let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }
        let first = await runCLI(["alerts", "London", "--config", configuration], environment: ["XDG_CACHE_HOME": cache], transport: curl)
        #expect(first.code == 0, "\(first.stderr)")
        #expect(server.requests.count == 11)
        #expect(server.requests.first?.path == "/feeds/meteoalarm-legacy-atom-united-kingdom")
        #expect(server.requests.allSatisfy { $0.headers["user-agent"]?.hasPrefix("isobar/") == true })
        let second = await runCLI(["alerts", "London", "--config", configuration], environment: ["XDG_CACHE_HOME": cache], transport: curl)
        #expect(second.code == 0, "\(second.stderr)")
        #expect(server.requests.count == 11, "the second run is within the floor: nothing is sent")
        #expect(second.stdout == first.stdout)
        #expect(second.lines.contains("MODERATE Yellow rain warning until Sun Nov 29 15:00 · MeteoAlarm"))
        #expect(second.stdout.contains("MeteoAlarm: 2 warnings in force in the United Kingdom could not be placed at London"))
    }
}
