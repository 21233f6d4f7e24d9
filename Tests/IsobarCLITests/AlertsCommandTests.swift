import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

/// A loopback NWS API answering the bundled New York recording's alerts (a Warning that updates a Watch, an Advisory, an
/// expired advisory, a statement and its Cancel), or a failure status.
private final class AlertsOrigin: Sendable {
    let server: LoopbackServer

    init(status: Int = 200) throws {
        let body = try cassetteText(provider: "nws-alerts", place: "new-york", pathSuffix: "/alerts/active")
        server = try LoopbackServer { request in
            guard status == 200 else { return .init(status: status, #"{"title":"Service Unavailable","detail":"try later"}"#) }
            return request.path == "/alerts/active" && request.parameter("point") == "40.7143,-74.006"
                ? .init(body, headers: [("Content-Type", "application/geo+json")]) : .init(status: 404, #"{"detail":"no such point"}"#)
        }
    }

    /// A configuration with one `nws-alerts` entry per origin, ids `nws-1`, `nws-2`…
    static func configuration(_ origins: [AlertsOrigin], contact: String? = "ops@example.org") throws -> String {
        let entries = origins.enumerated().map { index, origin in
            #"{"id": "nws-\#(index + 1)", "type": "nws-alerts", "base_url": "\#(origin.server.baseURL)""#
                + (contact.map { #", "contact": "\#($0)""# } ?? "") + "}"
        }
        return try temporaryConfiguration(#"{"providers": [\#(entries.joined(separator: ", "))]}"#)
    }
}

@Suite(.serialized, .tags(.realTime)) struct AlertsCommandTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    @Test func onlyTheWarningAndTheAdvisoryAreInForceWithTheirSeverityAndExpiry() async throws {
        let origin = try AlertsOrigin()
        defer { origin.server.stop() }
        let run = await runCLI(["alerts", "New York", "--config", try AlertsOrigin.configuration([origin]), "--format", "jsonl"], transport: curl)
        #expect(run.code == 0, "\(run.stderr)")
        let lines = try parseLines(run)
        #expect(try lines.map { try $0.string("type") } == ["alert", "alert"])
        #expect(try lines.map { try $0.string("event") } == ["Winter Storm Warning", "Wind Advisory"])
        #expect(try lines.map { try $0.string("severity") } == ["Severe", "Moderate"])
        #expect(try lines.map { try $0.string("expires") } == ["2026-11-28T16:00:00-05:00", "2026-11-28T16:00:00-05:00"])
        #expect(try lines[0].string("message_type") == "Update")
        #expect(try lines[0].member("providers").elements().map { try $0.string() } == ["nws-1"])
        let request = try #require(origin.server.requests.first)
        #expect(request.headers["user-agent"]?.contains("ops@example.org") == true)
    }

    @Test func failOnSevereExitsTenWithTheWarningAndZeroElsewhere() async throws {
        let origin = try AlertsOrigin()
        defer { origin.server.stop() }
        let configuration = try AlertsOrigin.configuration([origin])
        let severe = await runCLI(["alerts", "New York", "--config", configuration, "--fail-on", "severe"], transport: curl)
        #expect(severe.code == 10)
        #expect(severe.lines.contains { $0.hasPrefix("SEVERE Winter Storm Warning until Sun Nov 29 18:00") })
        let extreme = await runCLI(["alerts", "New York", "--config", configuration, "--fail-on", "extreme"], transport: curl)
        #expect(extreme.code == 0)
        let oslo = await runCLI(["alerts", "Oslo", "--config", configuration, "--fail-on", "minor"], transport: curl)
        #expect(oslo.code == 0)
        #expect(oslo.lines.contains("NWS: not asked — Oslo is outside its coverage"))
        #expect(origin.server.requests.count == 2, "Oslo is outside the NWS coverage: nothing is sent for it")
    }

    @Test func aSourceThatIsDownIsNamedAndTheOthersAlertsAreStillShown() async throws {
        let up = try AlertsOrigin()
        let down = try AlertsOrigin(status: 503)
        defer { up.server.stop(); down.server.stop() }
        let run = await runCLI(["alerts", "New York", "--config", try AlertsOrigin.configuration([up, down])], transport: curl)
        #expect(run.code == 2)
        #expect(run.lines.contains { $0.hasPrefix("SEVERE Winter Storm Warning") })
        #expect(run.lines.contains { $0.hasPrefix("NWS: no answer — ") && $0.contains("503") || $0.contains("try later") })
        let alone = await runCLI(["alerts", "New York", "--config", try AlertsOrigin.configuration([down]), "--json"],
                                 transport: curl)
        #expect(alone.code == 3)
        #expect(try parseLines(alone).map { try $0.string("type") } == ["provider_error"])
    }

    @Test func aLiveSourceWithoutAContactSendsNothing() async throws {
        let origin = try AlertsOrigin()
        defer { origin.server.stop() }
        let run = await runCLI(["alerts", "New York", "--config", try AlertsOrigin.configuration([origin], contact: nil)], transport: curl)
        #expect(run.code == 3)
        #expect(run.stdout.contains("ISOBAR_CONTACT"))
        #expect(origin.server.requests.isEmpty)
    }

    @Test func aContactWithALineBreakIsNoContactAndNothingIsSent() async throws {
        let origin = try AlertsOrigin()
        defer { origin.server.stop() }
        // `\r\n` in the JSON string: a second header would follow the User-Agent if this were sent.
        let config = try AlertsOrigin.configuration([origin], contact: #"ops@example.org\r\nX-Injected: 1"#)
        let run = await runCLI(["alerts", "New York", "--config", config], transport: curl)
        #expect(run.code == 3)
        #expect(run.stdout.contains("ISOBAR_CONTACT"))
        #expect(origin.server.requests.isEmpty)
    }
}

/// `isobar alerts` with no network: the demo recording, bad options and a configuration without alert sources.
@Suite struct AlertsDemoTests {
    @Test func theDemoShowsTheRecordedWarningsFirstMostSevereFirst() async throws {
        let run = await runCLI(["alerts", "New York", "--demo"])
        #expect(run.code == 0, "\(run.stderr)")
        let warnings = run.lines.filter { ["SEVERE ", "MODERATE ", "MINOR ", "ALERT "].contains(where: $0.hasPrefix) }
        #expect(warnings == ["SEVERE Winter Storm Warning until Sun Nov 29 18:00 · NWS, OpenWeatherMap",
                             "MODERATE Wind Advisory until Sat Nov 28 18:00 · NWS", "ALERT Coastal Flood Advisory until Sat Nov 28 14:00 · OpenWeatherMap"])
        #expect(run.lines.contains("3 warnings in force"))
        #expect(!run.stdout.contains("Winter Storm Watch") && !run.stdout.contains("Dense Fog") && !run.stdout.contains("Exercise"))
    }

    @Test func csvHasOneRowPerWarningInForce() async throws {
        let run = await runCLI(["alerts", "New York", "--demo", "--format", "csv"])
        #expect(run.code == 0)
        #expect(run.lines.count == 4)
        #expect(run.lines[0].hasPrefix("place,latitude,longitude,provider,providers,identifier"))
        #expect(run.lines[1].contains(",Update,Winter Storm Warning,Severe,Expected,Likely,"))
    }

    @Test func plainSentencesReadTheWarningsFirst() async throws {
        let run = await runCLI(["alerts", "New York", "--demo", "--plain"])
        #expect(run.lines.first == "3 warnings are in force for New York.")
        #expect(run.lines.dropFirst().first?.hasPrefix("Severe warning from NWS and OpenWeatherMap: Winter Storm Warning, until Sun Nov 29 18:00;") == true)
    }

    @Test func aBadSeverityIsAUsageError() async {
        let run = await runCLI(["alerts", "New York", "--demo", "--fail-on", "catastrophic"])
        #expect(run.code == 64)
        #expect(run.stderr.contains("--fail-on"))
        #expect(run.stdout.isEmpty)
    }

    @Test func noAlertSourceIsAConfigurationError() async throws {
        let replayed = try temporaryConfiguration(#"{"providers": [{"id": "open-meteo", "type": "open-meteo", "replay": "\#(dataDirectory)/cassettes/open-meteo"}]}"#)
        let run = await runCLI(["alerts", "Minsk", "--config", replayed])
        #expect(run.code == 78)
        #expect(run.stderr.contains("no alert source"))
    }

    @Test func weatherViewsDoNotAskAlertSources() async throws {
        let run = await runCLI(["now", "Minsk", "--demo", "--providers", "open-meteo,nws-alerts"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("cannot answer"))
    }
}

/// `providers check` over an alert source.
@Suite struct AlertSourceCheckTests {
    @Test func theRecordedAlertSourcePassesEveryRule() async throws {
        let run = await runCLI(["providers", "check", "nws-alerts", "New York", "--demo"])
        #expect(run.code == 0, "\(run.stdout)\(run.stderr)")
        #expect(!run.stdout.contains("FAIL"))
    }
}

/// The warnings above the weather views.
@Suite(.serialized, .tags(.realTime)) struct AlertsFirstTests {
    @Test func nowFailsOnASevereWarningOnlyWhereOneIsInForce() async {
        let newYork = await runCLI(["now", "New York", "--demo", "--fail-on", "severe"])
        #expect(newYork.code == 10)
        #expect(newYork.lines.first == "SEVERE Winter Storm Warning until Sun Nov 29 18:00 · NWS, OpenWeatherMap")
        #expect(await runCLI(["now", "New York", "--demo", "--fail-on", "extreme"]).code == 0)
        let minsk = await runCLI(["now", "Minsk", "--demo", "--fail-on", "minor"])
        #expect(minsk.code == 0)
        #expect(!minsk.stdout.contains("warning") && !minsk.stdout.contains("Warnings"))
    }

    @Test func anAlertSourceThatIsDownIsNamedAboveTheWeatherAndChangesNoExitCode() async throws {
        let down = try AlertsOrigin(status: 503)
        defer { down.server.stop() }
        let configuration = try temporaryConfiguration(#"""
            {"providers": [{"id": "met-norway", "type": "met-norway", "replay": "\#(dataDirectory)/cassettes/met-norway"},
                           {"id": "nws-alerts", "type": "nws-alerts", "base_url": "\#(down.server.baseURL)", "contact": "ops@example.org"}]}
            """#)
        let run = await runCLI(["now", "New York", "--config", configuration], transport: { CurlTransport(userAgent: "isobar/test") })
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.lines.first?.hasPrefix("Warnings from NWS unknown: ") == true)
        #expect(run.stdout.contains("New York, New York, US"))
        #expect(down.server.requests.count >= 1)
    }
}

/// `batch` writes each place's warnings first, labelled with its input line.
@Suite struct BatchAlertLinesTests {
    @Test func eachPlacesWarningsComeBeforeItsOtherLines() async throws {
        let run = await runCLI(["batch", try batchInput("New York\nMinsk\n"), "--demo", "--order", "input"])
        #expect(run.code == 0, "\(run.stderr)")
        let lines = try parseLines(run)
        let alerts = lines.filter { (try? $0.string("type")) == "alert" }
        #expect(try alerts.map { try $0.string("event") } == ["Winter Storm Warning", "Wind Advisory", "Coastal Flood Advisory"])
        #expect(try alerts.allSatisfy { try $0.int("input_line") == 1 })
        #expect(try lines.first?.string("type") == "alert")
        #expect(try lines.filter { try $0.optionalInt("input_line") == 2 }.allSatisfy { try $0.string("type") != "alert" })
    }
}
