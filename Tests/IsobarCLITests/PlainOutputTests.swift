import Foundation
@testable import IsobarCLI
import IsobarCore
import IsobarEngine
import Testing

@Suite struct PlainOutputTests {
    @Test func numbersAreSpokenWithMinusAndWithoutTrailingZeros() {
        #expect(PlainWords.spoken(-0.43, decimals: 1) == "minus 0.4")
        #expect(PlainWords.spoken(3.0, decimals: 1) == "3")
        #expect(PlainWords.spoken(-0.04, decimals: 1) == "0", "never minus 0")
        #expect(PlainWords.spoken(0.125, decimals: 2) == "0.13")
        #expect(PlainWords.spoken(1020.8, decimals: 1) == "1020.8")
        #expect(PlainWords.spoken(.nan, decimals: 1) == "–")
    }

    @Test func unitsAreSpelledOutInEverySystem() {
        #expect(PlainWords.measure(-0.43, .temperature, .metric) == "minus 0.4 degrees Celsius")
        #expect(PlainWords.measure(-17.78, .temperature, .imperial) == "0 degrees Fahrenheit")
        #expect(PlainWords.measure(0, .temperature, .standard) == "273.1 kelvin" || PlainWords.measure(0, .temperature, .standard) == "273.2 kelvin")
        #expect(PlainWords.measure(1, .speed, .metric) == "1 metre per second", "singular for one")
        #expect(PlainWords.measure(4.4704, .speed, .imperial) == "10 miles per hour")
        #expect(PlainWords.measure(1609.344, .distance, .imperial) == "1 mile")
        #expect(PlainWords.measure(25.4, .precipitationAmount, .imperial) == "1 inch")
        #expect(PlainWords.measure(2, .precipitationRate, .metric) == "2 millimetres per hour")
        #expect(PlainWords.measure(33.8639, .pressure, .imperial) == "1 inch of mercury")
        #expect(PlainWords.measure(50, .percent, .metric) == "50 percent")
        #expect(PlainWords.differenceUnit(.temperature, .imperial, singular: false) == "degrees")
    }

    @Test func directionsDatesAndListsAreWords() {
        #expect(PlainWords.direction(227) == "the south-west")
        #expect(PlainWords.direction(0) == "the north")
        #expect(PlainWords.direction(-90) == "the west")
        #expect(PlainWords.day(LocalDate(year: 2026, month: 11, day: 28)!) == "Saturday 28 November")
        #expect(PlainWords.list([]) == "")
        #expect(PlainWords.list(["a"]) == "a")
        #expect(PlainWords.list(["a", "b", "c"]) == "a, b and c")
    }

    @Test func plainOutputHasNoTableBoxDrawingOrEscape() async {
        for arguments in [["now", "Minsk", "--demo", "--plain"], ["compare", "Minsk", "--demo", "--plain"],
                          ["forecast", "Minsk", "--demo", "--plain", "--hourly", "--days", "1"], ["cities", "--demo", "--plain"]] {
            let run = await runCLI(arguments, environment: ["COLUMNS": "60"])
            #expect(run.code == 0, "\(arguments): \(run.stderr)")
            #expect(!run.stdout.contains("  "), "\(arguments): no column padding")
            #expect(!run.stdout.contains("\u{1B}"))
            let drawing = run.stdout.unicodeScalars.filter { (0x2500...0x25FF).contains($0.value) || $0 == "·" || $0 == "°" || $0 == "…" }
            #expect(drawing.isEmpty, "\(arguments): \(String(String.UnicodeScalarView(drawing)))")
            #expect(run.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix(".") || $0.hasSuffix(":") }, "\(arguments): sentences")
        }
    }

    @Test func aDumbTerminalGetsSentencesUnlessAChartIsAskedFor() async {
        let dumb = await runCLI(["now", "Minsk", "--demo"], environment: ["TERM": "dumb"])
        let plain = await runCLI(["now", "Minsk", "--demo", "--plain"])
        #expect(dumb.code == 0)
        #expect(dumb.stdout == plain.stdout)
        let chart = await runCLI(["forecast", "Minsk", "--demo", "--days", "1", "--chart"], environment: ["TERM": "dumb"])
        #expect(chart.stdout.contains("Daily consensus") && chart.stdout.contains("Next 48 hours"))
        let json = await runCLI(["now", "Minsk", "--demo", "--json"], environment: ["TERM": "dumb"])
        #expect(json.stdout.hasPrefix("{"), "TERM=dumb changes only output for people")
    }

    @Test(arguments: [
        (["now", "Minsk", "--plain", "--json"], "--plain is for people reading; it cannot be used with --format jsonl"),
        (["compare", "Minsk", "--chart", "--format", "csv"], "--chart is for people reading; it cannot be used with --format csv"),
        (["forecast", "Minsk", "--chart", "--plain"], "--plain writes sentences without charts; it cannot be used with --chart"),
        (["forecast", "Minsk", "--ascii"], "--ascii chooses the characters of a chart; it needs --chart"),
        (["now", "Minsk", "--chart"], "unknown option"),
    ])
    func badCombinationsAreUsageErrors(_ arguments: [String], _ message: String) async {
        let run = await runCLI(arguments + ["--demo"])
        #expect(run.code == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test func failuresAreSentencesToo() async {
        let run = await runCLI(["now", "Minsk", "--config", dataDirectory + "/isobar.json", "--plain"])
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        #expect(run.lines.first == "No provider answered for Minsk, Minsk City, BY.")
        #expect(run.lines.contains { $0.hasPrefix("OpenWeatherMap did not answer: not configured, ") && $0.hasSuffix(".") }, "\(run.stdout)")
    }

    @Test func nowInPlainWordsSaysTheSpreadAndTheUmbrella() async {
        let run = await runCLI(["now", "Minsk", "--demo", "--plain"])
        let lines = run.lines
        #expect(lines.first?.hasPrefix("Minsk, Minsk City, BY, now at 12:00: snow, minus 0.1 degrees Celsius, feels like minus 4.2.") == true,
                "\(lines)")
        #expect(lines.contains("Wind from the south-west at 2.6 metres per second, gusts 6."))
        #expect(lines.contains("The 3 providers agree within 1 degree."))
        #expect(lines.contains { $0.hasSuffix("percent chance.") || $0.hasPrefix("No rain is expected") })
    }
}
