import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

@Suite struct ArchiveCLITests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    func configuration(_ server: LoopbackServer, archiveDays: Int? = nil) throws -> String {
        let days = archiveDays.map { #""archive_days": \#($0), "# } ?? ""
        return try temporaryConfiguration("""
        {\(days)"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)"}]}
        """)
    }

    func stats(_ environment: [String: String], _ config: String) async throws -> JSONValue {
        let run = await runCLI(["archive", "stats", "--json", "--config", config], environment: environment)
        #expect(run.code == 0, "\(run.stderr)")
        return try #require(try parseLines(run).first)
    }

    @Test func liveForecastsAreArchivedOncePerHourAndExported() async throws {
        let server = try providerServer()
        let config = try configuration(server)
        let environment = ["XDG_DATA_HOME": temporaryDirectory("archive-data")]
        let first = await runCLI(["forecast", "Minsk", "--config", config, "--hourly"], environment: environment, transport: curl)
        #expect(first.code == 0, "\(first.stderr)")
        let counted = try await stats(environment, config)
        let steps = try counted.int("steps")
        let providers = try counted.member("providers").elements().map { try $0.string() }
        #expect(steps > 24 && providers == ["open-meteo"])
        #expect(try counted.int("places") == 1 && counted.int("archive_days") == 60)
        // The same hour again, through a fresh cache so that it is fetched live: replaced, not added.
        let again = await runCLI(["forecast", "Minsk", "--config", config, "--hourly"], environment: environment, transport: curl)
        #expect(again.code == 0)
        #expect(try await stats(environment, config).int("steps") == steps)
        let export = await runCLI(["archive", "export", "--config", config, "--units", "imperial"], environment: environment)
        let lines = try parseLines(export)
        #expect(lines.count == steps)
        let line = try #require(lines.first)
        #expect(try line.string("type") == "archived_step" && line.int("schema") == 1 && line.string("provider") == "open-meteo")
        #expect(try line.double("latitude") == 53.9 && line.double("lead_h") >= 0)
        #expect(try line.member("units").string("temperature") == "°F")
        let celsius = try #require(try parseLines(await runCLI(["archive", "export", "--config", config], environment: environment)).first)
        let fahrenheit = try line.member("values").double("temperature")
        #expect(abs(fahrenheit - (try celsius.member("values").double("temperature") * 9 / 5 + 32)) < 1e-9)
    }

    @Test func repliesFromRecordingsAndTheCacheAreNotArchived() async throws {
        let environment = ["XDG_DATA_HOME": temporaryDirectory("archive-demo")]
        #expect(await runCLI(["compare", "Minsk", "--demo"], environment: environment).code == 0)
        let run = await runCLI(["archive", "--json"], environment: environment)
        #expect(try parseLines(run).first?.int("steps") == 0)
    }

    @Test func archiveDaysZeroKeepsNothingAndPruneRemovesWhatIsOld() async throws {
        let server = try providerServer()
        let environment = ["XDG_DATA_HOME": temporaryDirectory("archive-off")]
        let off = try configuration(server, archiveDays: 0)
        #expect(await runCLI(["forecast", "Minsk", "--config", off], environment: environment, transport: curl).code == 0)
        #expect(try await stats(environment, off).int("steps") == 0)
        let table = await runCLI(["archive", "--config", off], environment: environment)
        #expect(table.stdout.contains("archiving is off (archive_days is 0)"))

        let on = try configuration(server)
        #expect(await runCLI(["forecast", "Minsk", "--config", on], environment: environment, transport: curl).code == 0)
        let steps = try await stats(environment, on).int("steps")
        let pruned = try parseLines(await runCLI(["archive", "prune", "--older-than", "0", "--json", "--config", on], environment: environment))
        // Steps valid before now go; the rest stay.
        let removed = try #require(pruned.first).int("removed")
        #expect(removed >= 0 && removed < steps)
        #expect(try await stats(environment, on).int("steps") == steps - removed)
        let again = await runCLI(["archive", "prune", "--older-than", "0", "--config", on], environment: environment)
        #expect(again.stdout.hasPrefix("Removed 0 archived forecast step(s)"))
        #expect(await runCLI(["cities", "add", "Tokyo", "--demo"], environment: environment).code == 0)
        let cleared = await runCLI(["archive", "clear", "--config", on], environment: environment)
        #expect(cleared.stdout.hasPrefix("Removed \(steps - removed) archived forecast step(s) and observation(s) from "))
        #expect(try await stats(environment, on).int("steps") == 0)
        // The cities are in the same file and stay.
        #expect(await runCLI(["cities", "--demo", "--json"], environment: environment).stdout.contains("Tokyo"))
    }

    @Test func anArchiveThatCannotBeWrittenIsAWarningNotAFailure() async throws {
        let server = try providerServer()
        let blocker = temporaryDirectory("archive-blocked") + "/file"
        _ = FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8))
        let run = await runCLI(["forecast", "Minsk", "--config", try configuration(server)], environment: ["XDG_DATA_HOME": blocker], transport: curl)
        #expect(run.code == 0)
        #expect(run.stderr.hasPrefix("isobar: warning: the forecast archive was not updated: "))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test func eachLiveCommandKeepsTheNearestStationsObservation() async throws {
        let server = try providerServer()
        // Half an hour before the moment the tests run at (2026-11-28 12:00 UTC).
        let report = #"[{"icaoId":"UMMS","obsTime":1795865400,"temp":-2,"dewp":-4,"wdir":240,"wspd":12,"altim":1013,"rawOb":"UMMS 281130Z 24006MPS 9999 -SN OVC010 M02/M04 Q1013"}]"#
        let metar = try LoopbackServer { request in
            request.path == "/api/data/metar" && request.parameter("ids") == "UMLI,UMMS,UMMB" ? .init(report) : .init(status: 400, "[]")
        }
        let config = try temporaryConfiguration("""
        {"observations": {"type": "metar", "base_url": "\(metar.baseURL)"},
         "providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)"}]}
        """)
        let environment = ["XDG_DATA_HOME": temporaryDirectory("archive-observed"), "XDG_CACHE_HOME": temporaryDirectory("archive-observed-cache")]
        let run = await runCLI(["forecast", "Minsk", "--config", config, "--json"], environment: environment, transport: curl)
        #expect(run.code == 0, "\(run.stderr)")
        // The observation is archived, never shown as a provider.
        #expect(!run.stdout.contains("UMMS") && run.stderr.isEmpty)
        let lines = try parseLines(await runCLI(["archive", "export", "--config", config], environment: environment))
        let observed = try #require(lines.first { try $0.string("type") == "archived_observation" })
        #expect(try observed.string("observed_by") == "metar" && observed.string("station") == "UMMS")
        #expect(try observed.string("observed_at") == "2026-11-28T11:30:00+00:00" && observed.member("values").double("temperature") == -2)
        #expect(metar.requests.count == 1)
        // A second command within the half hour takes the cached answer.
        #expect(await runCLI(["now", "Minsk", "--config", config], environment: environment, transport: curl).code == 0)
        #expect(metar.requests.count == 1)
    }

    @Test func aBadObservationsEntryIsAConfigurationError() async throws {
        for (entry, message) in [(#"{"type": "synop"}"#, "type must be metar, not 'synop'"),
                                 (#"{"type": "metar", "base_url": "http://example.org"}"#, "base_url must be an https URL"),
                                 (#"{"type": "metar", "max_distance_km": 9000}"#, "max_distance_km must be between 1 and 500"),
                                 (#"{"type": "metar", "radius": 5}"#, "radius")] {
            let config = try temporaryConfiguration(#"{"observations": \#(entry), "providers": []}"#)
            expectOneLineError(await runCLI(["archive", "--config", config]), code: .configuration, containing: message)
        }
    }

    @Test func badActionsAndOptionsAreUsageErrors() async {
        expectOneLineError(await runCLI(["archive", "statz"]), code: .usage, containing: "unknown archive action 'statz'; did you mean 'stats'?")
        expectOneLineError(await runCLI(["archive", "prune", "--older-than", "soon"]), code: .usage, containing: "--older-than takes a duration")
        let config = try? temporaryConfiguration(#"{"archive_days": -1, "providers": []}"#)
        expectOneLineError(await runCLI(["archive", "--config", config ?? ""]), code: .configuration, containing: "archive_days")
    }
}
