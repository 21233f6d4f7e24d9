import Foundation
import IsobarCLI
import IsobarCore
import Testing

@Suite struct CitiesFootnoteTests {
    @Test func eachDistinctFailureIsAFootnoteMarkedInItsRows() async throws {
        let config = try temporaryConfiguration("""
        {"providers": [
          {"id": "openweathermap", "type": "openweathermap", "api_key_env": "NO_SUCH_KEY_VARIABLE"},
          {"id": "open-meteo", "type": "open-meteo", "replay": "\(dataDirectory)/cassettes/open-meteo"}
        ]}
        """)
        let run = await runCLI(["cities", "--config", config])
        #expect(run.code == ExitCode.partial.rawValue)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasSuffix("[1]") }.count == 2, "\(run.stdout)")
        #expect(lines.contains("[1] OpenWeatherMap: not configured — OpenWeatherMap needs an API key: set NO_SUCH_KEY_VARIABLE (2 cities)"))
        #expect(lines.contains { $0.hasPrefix("Replayed data, not live: Open-Meteo recorded 2026-11-28 09:00 UTC") })
        let json = try parseLines(await runCLI(["cities", "--config", config, "--json"]))
        let failure = try #require(try json.first?.member("failures").elements().first)
        #expect(try failure.string("provider") == "openweathermap")
        #expect(try failure.string("code") == "not_configured")
    }

    @Test func theDemoTableSaysItIsReplayed() async {
        let run = await runCLI(["cities", "--demo"])
        #expect(run.stdout.contains("Replayed data, not live: OpenWeatherMap, Open-Meteo ECMWF IFS, Open-Meteo GFS,"))
        #expect(run.stdout.contains("recorded 2026-11-28 09:00 UTC"))
        // Every source counts among those asked; the NWS plug-in, outside its coverage, was not asked.
        #expect(run.stdout.contains(" 5/5 "))
        #expect(!run.stdout.contains("[1]"))
    }
}
