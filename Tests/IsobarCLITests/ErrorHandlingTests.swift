import Foundation
import IsobarCLI
import Testing

/// Asserts a run failed with `code`, printed nothing on stdout and exactly one line on stderr containing `fragment`.
func expectOneLineError(_ run: CLIRun, code: ExitCode, containing fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(run.code == code.rawValue, "exit \(run.code): \(run.stderr)", sourceLocation: sourceLocation)
    #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
    #expect(run.stderr.hasPrefix("isobar: "), sourceLocation: sourceLocation)
    #expect(run.stderr.filter { $0 == "\n" }.count == 1, "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(run.stderr.contains(fragment), "\(run.stderr)", sourceLocation: sourceLocation)
}

@Suite struct ErrorHandlingTests {
    @Test func aMisspelledPlaceIsCorrectedAndSaysSo() async throws {
        let run = await runCLI(["compare", "Minks", "--demo", "--format", "jsonl"])
        #expect(run.code == 0)
        #expect(run.stderr == "isobar: note: no place is called 'Minks'; using Minsk, Minsk City, BY\n")
        #expect(try parseLines(run).last?.member("place").string("name") == "Minsk")
    }

    @Test func anUnknownPlaceIsADataError() async {
        expectOneLineError(await runCLI(["compare", "Xqzzyvv", "--demo"]), code: .badPlace, containing: "unknown place 'Xqzzyvv'")
    }

    @Test(arguments: [
        ("91,0", "latitude 91 is out of range"),
        ("0,181", "longitude 181 is out of range"),
        ("-90.5,10", "latitude -90.5 is out of range"),
        ("53.9,abc", "not a coordinate pair"),
        ("53.9,", "not a coordinate pair"),
        ("1e999,0", "not a coordinate pair"),
        ("", "a place is needed"),
        ("   ", "a place is needed"),
        ("Minsk\u{7}", "control characters"),
    ])
    func badPlacesAreDataErrors(place: String, message: String) async {
        expectOneLineError(await runCLI(["compare", place, "--demo"]), code: .badPlace, containing: message)
    }

    @Test func hugePlaceTextIsRefusedNotEchoed() async {
        let run = await runCLI(["compare", String(repeating: "x", count: 10_000), "--demo"])
        expectOneLineError(run, code: .badPlace, containing: "too long")
        #expect(run.stderr.count < 200)
    }

    @Test func quotesAndSQLLookingTextAreJustUnknownPlaces() async {
        expectOneLineError(await runCLI(["compare", "x'; DROP TABLE places; --", "--demo"]), code: .badPlace, containing: "unknown place")
    }

    @Test func coordinatesAreAccepted() async throws {
        // Coordinates of a bundled place match its recordings by value.
        let run = await runCLI(["compare", "53.9,27.5667", "--demo", "--format", "jsonl"])
        #expect(run.code == 0, "\(run.stderr)")
        let lines = try parseLines(run)
        #expect(try lines.last?.member("place").string("name") == "near Minsk")
    }

    @Test func unrecordedCoordinatesNameTheMissingRecording() async throws {
        // The table says it in short; the JSON lines keep the request that found no recording, for whoever records.
        let run = await runCLI(["compare", "10,10", "--demo"])
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        #expect(run.stdout.contains("OpenWeatherMap: not recorded — the demo has no recording of 10,10"), "\(run.stdout)")
        let lines = await runCLI(["compare", "10,10", "--demo", "--format", "jsonl"])
        #expect(lines.stdout.contains("no recorded response for GET"))
        #expect(lines.stdout.contains("/data/2.5/weather"))
    }

    @Test func unknownOptionSuggestsTheClosestSpelling() async {
        expectOneLineError(await runCLI(["compare", "Minsk", "--unit", "metric"]), code: .usage, containing: "did you mean --units?")
        expectOneLineError(await runCLI(["compare", "Minsk", "--dmeo"]), code: .usage, containing: "did you mean --demo?")
    }

    @Test func unknownCommandSuggestsTheClosestSpelling() async {
        expectOneLineError(await runCLI(["comapre", "Minsk"]), code: .usage, containing: "did you mean 'compare'?")
    }

    @Test func badOptionValues() async {
        expectOneLineError(await runCLI(["compare", "Minsk", "--units", "kelvin"]), code: .usage, containing: "expected metric, imperial, standard")
        expectOneLineError(await runCLI(["compare", "Minsk", "--format", "jsn"]), code: .usage, containing: "did you mean 'json")
        expectOneLineError(await runCLI(["forecast", "Minsk", "--days", "0"]), code: .usage, containing: "1 to 16")
        expectOneLineError(await runCLI(["forecast", "Minsk", "--days", "seven"]), code: .usage, containing: "1 to 16")
        expectOneLineError(await runCLI(["compare", "Minsk", "--units"]), code: .usage, containing: "needs a value")
        expectOneLineError(await runCLI(["compare", "Minsk", "--demo=yes"]), code: .usage, containing: "takes no value")
    }

    @Test func missingAndExtraArguments() async {
        expectOneLineError(await runCLI(["compare"]), code: .usage, containing: "needs PLACE")
        expectOneLineError(await runCLI(["compare", "New", "York"]), code: .usage, containing: "quote a place name")
    }

    @Test func unknownProviderSuggestsAConfiguredOne() async {
        expectOneLineError(await runCLI(["compare", "Minsk", "--demo", "--providers", "open-meteoo"]), code: .usage,
                           containing: "did you mean 'open-meteo'?")
        expectOneLineError(await runCLI(["compare", "Minsk", "--demo", "--providers", ","]), code: .usage, containing: "at least one")
    }

    @Test func demoAndConfigTogetherIsAUsageError() async {
        expectOneLineError(await runCLI(["compare", "Minsk", "--demo", "--config", dataDirectory + "/demo.json"]), code: .usage,
                           containing: "cannot be used together")
    }

    @Test func providerSubsetAsksOnlyThose() async throws {
        let run = await runCLI(["compare", "Minsk", "--demo", "--providers", "open-meteo", "--format", "jsonl"])
        #expect(run.code == 0)
        // The demo's Open-Meteo entry asks for three models: a result each, then the consensus of the three (then the air
        // sources' comparison, which --providers, naming weather providers, leaves alone).
        let lines = try parseLines(run).filter { try $0.string("type") != "air_comparison" }
        #expect(lines.count == 4)
        #expect(try lines.last?.member("providers").stringsOrNulls()
            == ["open-meteo/ecmwf_ifs025", "open-meteo/gfs_seamless", "open-meteo/icon_seamless"])
    }
}
