import Foundation
@testable import IsobarCLI
import IsobarCore
import IsobarEngine
import Testing

@Suite struct PlainOutputTests {
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
        // Sentences name the country, not its code.
        #expect(run.lines.first == "No provider answered for Minsk, Minsk City, Belarus.")
        #expect(run.lines.contains { $0.hasPrefix("OpenWeatherMap did not answer: not configured, ") && $0.hasSuffix(".") }, "\(run.stdout)")
    }

    @Test func nowInPlainWordsSaysTheSpreadAndTheUmbrella() async {
        let run = await runCLI(["now", "Minsk", "--demo", "--plain"])
        let lines = run.lines
        #expect(lines.first?.hasPrefix("Minsk, Minsk City, Belarus, now at 12:00: snow, minus 0.1 degrees Celsius, feels like minus 3.1.") == true,
                "\(lines)")
        #expect(lines.contains("Wind from the south-west at 2.6 metres per second, gusts 5.1."))
        // GFS's thaw is the demo's outlier, said in words; the others' agreement does not count it.
        #expect(lines.contains("The providers differ: OpenWeatherMap 0, Open-Meteo ECMWF IFS minus 0.5, Open-Meteo GFS 2.9, "
            + "Open-Meteo ICON minus 1.6 and MET Norway minus 0.1; Open-Meteo GFS left out as an outlier, the other 4 agree within 2 degrees."))
        #expect(!lines.contains { $0.contains("likely between") }, "no interval without learned weights")
        // With --demo, learned weights come from the bundled demo history, so the interval is the record's.
        let learned = await runCLI(["now", "Minsk", "--demo", "--plain", "--weights", "auto"]).lines
        #expect(learned.contains { $0.hasPrefix("The temperature is likely between ")
            && $0.hasSuffix(" degrees Celsius (an 80 percent interval, from the record of past forecasts).") }, "\(learned)")
        let compare = await runCLI(["compare", "Minsk", "--demo", "--plain", "--weights", "auto"]).lines
        #expect(compare.contains { $0.hasPrefix("Temperature: minus 0.1 degrees Celsius, likely between ")
            && $0.contains(" (an 80 percent interval, from the record of past forecasts); OpenWeatherMap 0, ") }, "\(compare)")
        #expect(lines.contains { $0.hasSuffix("percent chance.") || $0.hasPrefix("No rain is expected") })
    }
}
