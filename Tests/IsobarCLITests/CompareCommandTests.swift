import Foundation
import IsobarConsensus
import IsobarCore
import Testing

/// The six bundled places: command-line name and cassette file name.
let bundledPlaces: [(name: String, slug: String)] = [
    ("Minsk", "minsk"), ("Moscow", "moscow"), ("London", "london"),
    ("New York", "new-york"), ("Tokyo", "tokyo"), ("São Paulo", "sao-paulo"),
]

@Suite struct CompareCommandTests {
    @Test func demoTableShowsEveryProviderConsensusAndReplayNotice() async throws {
        let run = await runCLI(["compare", "Minsk", "--demo"])
        #expect(run.code == 0)
        #expect(run.stderr.isEmpty)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("Now") })
        for column in ["OpenWeatherMap", "Open-Meteo ECMWF IFS", "Open-Meteo GFS", "Open-Meteo ICON", "MET Norway", "Consensus", "Spread"] {
            #expect(header.contains(column))
        }
        // OWM main.temp 0.04 → 0.0; Open-Meteo's models −0.5, 2.9 and −1.6, a third of a source each; MET Norway −0.1. The
        // median is −0.1 and the MAD 0.1, so GFS, 3.0 °C off (more than the 2 °C floor), is left out as an outlier; the spread
        // of the values that count is 1.6 (max − min of every value: 4.5).
        let temperature = try #require(lines.first { $0.hasPrefix("Temperature (°C)") })
        #expect(temperature.split(separator: " ").suffix(11).prefix(10)
                == ["0.0", "-0.5", "2.9*", "-1.6", "-0.1", "-0.1", "1.6", "(4.5", "with", "*)"])
        #expect(run.stdout.contains("* left out of the consensus and of the Spread as an outlier"))
        let condition = try #require(lines.first { $0.hasPrefix("Condition") })
        #expect(condition.split(separator: " ").suffix(8).prefix(7) == ["snow", "snow", "rain", "snow", "snow", "snow", "differs"])
        #expect(run.stdout.contains("Data: OpenWeather (CC BY-SA 4.0); Open-Meteo.com (CC BY 4.0); MET Norway (CC BY 4.0)"))
        #expect(temperature.hasSuffix("%"))
        #expect(run.stdout.contains("Replayed data, not live"))
        #expect(run.stdout.contains("recorded 2026-11-28 09:00 UTC"))
        #expect(run.stdout.contains("Europe/Minsk UTC+03:00"))
    }

    @Test(arguments: bundledPlaces.map(\.name))
    func everyBundledPlaceComparesWithEveryProvider(place: String) async throws {
        // Not about deadlines: the roomy deadline `runCLI` gives alone bounds the NWS plug-in's run (a plug-in's own 30 s and
        // 10 s limits apply only without one), so a loaded machine cannot make it time out. A failure shows its error line.
        let run = await runCLI(["compare", place, "--demo", "--format", "jsonl"])
        #expect(run.code == 0, "\(run.stderr)\(run.stdout.split(separator: "\n").filter { $0.contains("provider_error") })")
        // The places with air recordings end with the air sources' comparison; the weather's lines come before it.
        var lines = try parseLines(run)
        if try lines.last?.string("type") == "air_comparison" { lines.removeLast() }
        let types = try lines.map { try $0.string("type") }
        // The NWS plug-in answers for New York; elsewhere, outside its declared coverage, it is skipped without being run.
        let inUS = place == "New York"
        // Open-Meteo's three models are a result each; warnings in force are written first: New York's three (the NWS's two,
        // one of them OpenWeatherMap's too, and OpenWeatherMap's own) and London's two (MeteoAlarm).
        let warnings = inUS ? 3 : place == "London" ? 2 : 0
        #expect(types.sorted() == Array(repeating: "alert", count: warnings) + ["consensus"] + (inUS ? [] : ["provider_error"])
                + Array(repeating: "provider_result", count: inUS ? 6 : 5))
        #expect(Array(types.prefix(warnings)) == Array(repeating: "alert", count: warnings))
        if !inUS {
            let skipped = try #require(lines.first { (try? $0.string("type")) == "provider_error" })
            #expect(try skipped.string("provider") == "nws")
            #expect(try skipped.string("status") == "skipped")
            #expect(try skipped.member("error").string("reason") == "outside_coverage")
        }
        let consensus = try #require(lines.last)
        #expect(try consensus.string("type") == "consensus")
        let models = ["open-meteo/ecmwf_ifs025", "open-meteo/gfs_seamless", "open-meteo/icon_seamless"]
        #expect(try consensus.member("providers").stringsOrNulls().compactMap { $0 }.sorted()
            == ["met-norway"] + (inUS ? ["nws"] : []) + models + ["openweathermap"])
        // Outside the US the plug-in was not asked: skipped, not failed.
        #expect(try consensus.member("failed_providers").stringsOrNulls() == [])
        #expect(try consensus.member("skipped_providers").stringsOrNulls() == (inUS ? [] : ["nws"]))
    }

    @Test func tableTimesAreLocalToThePlace() async throws {
        // New York is UTC−5: Open-Meteo's current time 04:00 local is 09:00 UTC.
        let run = await runCLI(["compare", "New York", "--demo"])
        let observed = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("Observed at") })
        #expect(observed.contains("04:00"))
        #expect(run.stdout.contains("UTC-05:00"))
    }

    @Test func colourOnlyOnATerminal() async throws {
        let run = await runCLI(["compare", "Minsk", "--demo"])
        #expect(!run.stdout.contains("\u{1B}["))
    }
}
