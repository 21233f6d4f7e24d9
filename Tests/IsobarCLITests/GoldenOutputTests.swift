// Pins, byte for byte, what the weather commands print for the bundled demo: every number, every column, every JSON key.
//
// The goldens are Tests/IsobarCLITests/Golden/demo-<command>-<variant>.jsonl|.txt; those ending in -60, -80 or -120 are
// the tables on a terminal of that many columns (COLUMNS set), the others have no width limit; -chart- ones draw the chart
// in Unicode (LANG=C.UTF-8) unless they say -ascii- (--ascii), and -plain ones are the sentences of --plain. To rewrite them from the
// current output (then review the diff):
//
//     ISOBAR_UPDATE_GOLDEN=1 swift test --disable-xctest --filter GoldenOutputTests
//
// Normalisation, the only one applied before comparing: in JSON lines, the `provider_result` and `provider_error` lines
// are written in the order the providers answer, which changes from run to run; each unbroken run of such lines is put
// in byte order. Nothing else varies in these outputs (replayed answers carry their recording time, `fetched_at`
// included, and lead times count from it, not from the wall clock), so nothing else is touched.
import Foundation
import Testing

/// One pinned command: its arguments, the terminal width, and the golden file holding its stdout.
struct GoldenCase: Sendable, CustomTestStringConvertible {
    /// The file name under Golden/.
    let file: String
    /// The command line.
    let arguments: [String]
    /// `COLUMNS`, or nil for no width limit.
    var columns: Int?
    /// More environment (a UTF-8 `LANG` for Unicode charts).
    var environment: [String: String] = [:]

    var testDescription: String {
        let width = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value) " }.joined()
            + (columns.map { "COLUMNS=" + String($0) + " " } ?? "")
        return "\(width)isobar \(arguments.joined(separator: " ")) → \(file)"
    }

    /// The tables fitted to 60, 80 and 120 columns.
    static let widths = [60, 80, 120].flatMap { (columns: Int) in
        [("compare", ["compare", "Minsk", "--demo"]), ("forecast", ["forecast", "Minsk", "--demo"]),
         ("forecast-hourly-2", ["forecast", "Minsk", "--demo", "--hourly", "--days", "2"]), ("cities", ["cities", "--demo"])]
            .map { GoldenCase(file: "demo-\($0.0)-table-\(columns).txt", arguments: $0.1, columns: columns) }
    }

    /// `compare` with six sources (the demo's four, and Open-Meteo and OpenWeatherMap replayed again under other ids) at 60, 80
    /// and 120 columns: the table is split into parts rather than cutting a value.
    static let sixSources = [60, 80, 120].map { (width: Int) in
        GoldenCase(file: "six-sources-compare-table-\(width).txt", arguments: ["compare", "New York", "--config", sixSourceConfiguration],
                   columns: width)
    }

    /// Charts in Unicode (a UTF-8 locale) at 60, 80 and 120 columns, and in ASCII.
    static let charts = [60, 80, 120].flatMap { (columns: Int) in
        [("forecast", ["forecast", "Minsk", "--demo", "--days", "2", "--chart"]), ("compare", ["compare", "Minsk", "--demo", "--chart"])]
            .map { GoldenCase(file: "demo-\($0.0)-chart-\(columns).txt", arguments: $0.1, columns: columns, environment: ["LANG": "C.UTF-8"]) }
    } + [
        GoldenCase(file: "demo-forecast-chart-ascii-80.txt", arguments: ["forecast", "Minsk", "--demo", "--days", "2", "--chart", "--ascii"], columns: 80),
        GoldenCase(file: "demo-home-chart-80.txt", arguments: ["Tokyo", "--demo", "--chart"], columns: 80, environment: ["LANG": "C.UTF-8"]),
    ]

    /// Sentences (`--plain`) of every command that has them, metric and imperial.
    static let plain = [
        GoldenCase(file: "demo-now-plain.txt", arguments: ["now", "Minsk", "--demo", "--plain"]),
        GoldenCase(file: "demo-compare-plain.txt", arguments: ["compare", "Minsk", "--demo", "--plain"]),
        GoldenCase(file: "demo-forecast-plain.txt", arguments: ["forecast", "Minsk", "--demo", "--plain"]),
        GoldenCase(file: "demo-cities-plain.txt", arguments: ["cities", "--demo", "--plain"]),
        GoldenCase(file: "demo-home-plain.txt", arguments: ["Tokyo", "--demo", "--plain"]),
        GoldenCase(file: "demo-alerts-plain.txt", arguments: ["alerts", "New York", "--demo", "--plain"]),
        GoldenCase(file: "demo-oslo-alerts-plain.txt", arguments: ["alerts", "Oslo", "--demo", "--plain"]),
        GoldenCase(file: "demo-oslo-now-alerts-plain.txt", arguments: ["now", "Oslo", "--demo", "--plain"]),
        GoldenCase(file: "demo-now-plain-imperial.txt", arguments: ["now", "New York", "--demo", "--plain", "--units", "imperial"]),
        GoldenCase(file: "demo-forecast-plain-imperial.txt", arguments: ["forecast", "New York", "--demo", "--plain", "--units", "imperial"]),
        // With learned weights: --demo learns from the bundled demo history (Minsk), so Minsk's intervals come from the record;
        // New York has no history there, so its interval is the providers' spread.
        GoldenCase(file: "demo-compare-plain-learned.txt", arguments: ["compare", "Minsk", "--demo", "--plain", "--weights", "auto"]),
        GoldenCase(file: "demo-now-plain-learned-imperial.txt",
                   arguments: ["now", "New York", "--demo", "--plain", "--units", "imperial", "--weights", "auto"]),
        GoldenCase(file: "demo-forecast-plain-learned.txt",
                   arguments: ["forecast", "Minsk", "--demo", "--plain", "--days", "2", "--hourly", "--weights", "auto"]),
    ]

    /// `air`: the tables at 60, 80 and 120 columns, the sentences, JSON lines and CSV; New York has a smoky afternoon,
    /// London a birch-pollen day.
    static let air = [60, 80, 120].map { (columns: Int) in
        GoldenCase(file: "demo-air-table-\(columns).txt", arguments: ["air", "Minsk", "--demo", "--hourly"], columns: columns)
    } + [
        GoldenCase(file: "demo-air-plain.txt", arguments: ["air", "Minsk", "--demo", "--plain"]),
        GoldenCase(file: "demo-air-jsonl.jsonl", arguments: ["air", "Minsk", "--demo", "--format", "jsonl"]),
        GoldenCase(file: "demo-air-smoke-days-table-80.txt", arguments: ["air", "New York", "--demo", "--days", "2"], columns: 80),
        // The day's US AQI on the EPA's averages beside the worst hour, with the driving pollutants where there is room.
        GoldenCase(file: "demo-air-smoke-days-table-120.txt", arguments: ["air", "New York", "--demo", "--days", "2"], columns: 120),
        GoldenCase(file: "demo-air-smoke-days-plain.txt", arguments: ["air", "New York", "--demo", "--days", "2", "--plain"]),
        GoldenCase(file: "demo-air-smoke-csv.csv", arguments: ["air", "New York", "--demo", "--hourly", "--format", "csv"]),
        GoldenCase(file: "demo-air-pollen-plain.txt", arguments: ["air", "London", "--demo", "--plain"]),
    ] + [60, 80, 120].map { (columns: Int) in
        // The smoky afternoon's PM2.5 as a chart, in Unicode and in ASCII.
        GoldenCase(file: "demo-air-smoke-chart-\(columns).txt", arguments: ["air", "New York", "--demo", "--chart"], columns: columns,
                   environment: ["LANG": "C.UTF-8"])
    } + [
        GoldenCase(file: "demo-air-smoke-chart-ascii-80.txt", arguments: ["air", "New York", "--demo", "--chart", "--ascii"], columns: 80),
    ]

    static let all = [
        GoldenCase(file: "demo-compare-jsonl.jsonl", arguments: ["compare", "Minsk", "--demo", "--format", "jsonl"]),
        GoldenCase(file: "demo-compare-table.txt", arguments: ["compare", "Minsk", "--demo"]),
        GoldenCase(file: "demo-forecast-hourly-jsonl.jsonl", arguments: ["forecast", "Minsk", "--demo", "--hourly", "--format", "jsonl"]),
        GoldenCase(file: "demo-forecast-hourly-table.txt", arguments: ["forecast", "Minsk", "--demo", "--hourly"]),
        GoldenCase(file: "demo-cities-jsonl.jsonl", arguments: ["cities", "--demo", "--format", "jsonl"]),
        GoldenCase(file: "demo-cities-table.txt", arguments: ["cities", "--demo"]),
        GoldenCase(file: "demo-now-jsonl.jsonl", arguments: ["now", "Tokyo", "--demo", "--format", "jsonl"]),
        GoldenCase(file: "demo-now-table.txt", arguments: ["now", "Tokyo", "--demo"]),
    ] + widths + sixSources + alerts + air + learn

    /// The warnings of the New York recording: `alerts` at 60, 80 and 120 columns, as JSON lines, and above `now`.
    static let alerts = [60, 80, 120].map { (columns: Int) in
        GoldenCase(file: "demo-alerts-table-\(columns).txt", arguments: ["alerts", "New York", "--demo"], columns: columns)
    } + [
        GoldenCase(file: "demo-alerts-jsonl.jsonl", arguments: ["alerts", "New York", "--demo", "--format", "jsonl"]),
        GoldenCase(file: "demo-now-alerts-table-80.txt", arguments: ["now", "New York", "--demo"], columns: 80),
        GoldenCase(file: "demo-now-alerts-jsonl.jsonl", arguments: ["now", "New York", "--demo", "--format", "jsonl"]),
    ] + osloAlerts

    /// The MetAlerts recording of Oslo (an Update replacing a yellow warning, a Cancel, an expired warning): `alerts` at 60,
    /// `learn Minsk --demo`: the bundled recording of 30 days of past forecasts and station reports learned into a
    /// throwaway record, its table at 60, 80 and 120 columns, its sentences and its JSON lines.
    static let learn = [60, 80, 120].map { (columns: Int) in
        GoldenCase(file: "demo-learn-table-\(columns).txt", arguments: ["learn", "Minsk", "--demo"], columns: columns)
    } + [
        GoldenCase(file: "demo-learn-plain.txt", arguments: ["learn", "Minsk", "--demo", "--plain"]),
        GoldenCase(file: "demo-learn-jsonl.jsonl", arguments: ["learn", "Minsk", "--demo", "--format", "jsonl"]),
    ]

    /// 80 and 120 columns and as JSON lines, and above `now` at each width.
    static let osloAlerts = [60, 80, 120].flatMap { (columns: Int) in
        [GoldenCase(file: "demo-oslo-alerts-table-\(columns).txt", arguments: ["alerts", "Oslo", "--demo"], columns: columns),
         GoldenCase(file: "demo-oslo-now-alerts-table-\(columns).txt", arguments: ["now", "Oslo", "--demo"], columns: columns)]
    } + [
        GoldenCase(file: "demo-oslo-alerts-jsonl.jsonl", arguments: ["alerts", "Oslo", "--demo", "--format", "jsonl"]),
    ] + londonAlerts

    /// MeteoAlarm's United Kingdom recording at London (a warning placed by its polygon, one by the configured area code and
    /// its Update, a Cancel, an expired warning, warnings that cannot be placed): `alerts` at 60, 80 and 120 columns, as
    /// sentences and as JSON lines.
    static let londonAlerts = [60, 80, 120].map { (columns: Int) in
        GoldenCase(file: "demo-london-alerts-table-\(columns).txt", arguments: ["alerts", "London", "--demo"], columns: columns)
    } + [
        GoldenCase(file: "demo-london-alerts-plain.txt", arguments: ["alerts", "London", "--demo", "--plain"]),
        GoldenCase(file: "demo-london-alerts-jsonl.jsonl", arguments: ["alerts", "London", "--demo", "--format", "jsonl"]),
    ]
}

/// A configuration of six sources replaying the bundled recordings, written once per test process.
let sixSourceConfiguration: String = {
    let replays = [("openweathermap", "openweathermap"), ("open-meteo", "open-meteo"), ("met-norway", "met-norway"),
                   ("open-meteo-2", "open-meteo"), ("openweathermap-2", "openweathermap")]
        .map { id, type in #"{"id": "\#(id)", "type": "\#(type)", "replay": "\#(dataDirectory)/cassettes/\#(type)"}"# }
    let nws = #"{"id": "nws", "type": "exec", "command": ["\#(dataDirectory)/plugins/nws.py"], "replay": "\#(dataDirectory)/cassettes/nws"}"#
    let entries = Array(replays[0..<3]) + [nws] + Array(replays[3...])
    let path = temporaryDirectory("six-sources") + "/config.json"
    _ = FileManager.default.createFile(atPath: path, contents: Data(#"{"providers": [\#(entries.joined(separator: ", "))]}"#.utf8))
    return path
}()

@Suite struct GoldenOutputTests {
    @Test(arguments: GoldenCase.all)
    func demoOutputMatchesItsGolden(_ golden: GoldenCase) async throws {
        try await check(golden)
    }

    /// Charts and sentences, one at a time: all at once beside the cases above, the replays would crowd the machine's
    /// threads past the commands' deadline.
    @Test(.serialized, arguments: GoldenCase.charts + GoldenCase.plain)
    func chartsAndSentencesMatchTheirGolden(_ golden: GoldenCase) async throws {
        try await check(golden)
    }

    /// Runs the command and compares its stdout with the golden (or rewrites the golden with ISOBAR_UPDATE_GOLDEN=1).
    func check(_ golden: GoldenCase) async throws {
        // runCLI gives every run a fresh cache, so `cities` starts from the seeded Minsk and Moscow.
        let run = await runCLI(golden.arguments, environment: golden.environment.merging(golden.columns.map { ["COLUMNS": String($0)] } ?? [:]) { $1 })
        #expect(run.code == 0, "\(run.stderr)")
        let actual = Self.normalized(Array(run.stdout.utf8))
        let path = packageRoot + "/Tests/IsobarCLITests/Golden/" + golden.file
        if ProcessInfo.processInfo.environment["ISOBAR_UPDATE_GOLDEN"] == "1" {
            try Data(actual).write(to: URL(fileURLWithPath: path))
        }
        guard let expected = FileManager.default.contents(atPath: path).map(Array.init) else {
            Issue.record("\(golden.file) is missing; write it with ISOBAR_UPDATE_GOLDEN=1")
            return
        }
        if let difference = Self.firstDifference(expected: expected, actual: actual) {
            Issue.record("""
                \(golden.file): \(difference)
                If the change is intended: ISOBAR_UPDATE_GOLDEN=1 swift test --disable-xctest --filter GoldenOutputTests
                """)
        }
    }

    /// Puts each unbroken run of `provider_result` / `provider_error` lines in byte order; other bytes are kept as they are.
    static func normalized(_ bytes: [UInt8]) -> [UInt8] {
        let providerTypes = [#""type":"provider_result""#, #""type":"provider_error""#].map { Array($0.utf8) }
        func isProviderLine(_ line: ArraySlice<UInt8>) -> Bool {
            line.first == UInt8(ascii: "{") && providerTypes.contains { line.firstRange(of: $0) != nil }
        }
        var lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
        var start = 0
        while start < lines.count {
            guard isProviderLine(lines[start]) else {
                start += 1
                continue
            }
            var end = start
            while end < lines.count && isProviderLine(lines[end]) { end += 1 }
            lines[start..<end].sort { $0.lexicographicallyPrecedes($1) }
            start = end
        }
        return Array(lines.joined(separator: [10]))
    }

    /// Where two outputs first differ, as a readable message, or nil when they are the same bytes.
    static func firstDifference(expected: [UInt8], actual: [UInt8]) -> String? {
        guard expected != actual else { return nil }
        let want = expected.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
        let got = actual.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
        let sizes = "(golden: \(expected.filter { $0 == 10 }.count) newlines, \(expected.count) bytes; "
            + "output: \(actual.filter { $0 == 10 }.count) newlines, \(actual.count) bytes)"
        let shared = min(want.count, got.count)
        guard let index = (0..<shared).first(where: { want[$0] != got[$0] }) else {
            // Every shared line is the same: one of them goes on past the other's end.
            let (side, line) = want.count > got.count ? ("the golden goes on", want[shared]) : ("the output goes on", got[shared])
            let text = line.isEmpty ? "(an empty line, or the final newline)" : excerpt(line, around: 0)
            return "\(side) after line \(shared), with: \(text) \(sizes)"
        }
        let column = (0..<min(want[index].count, got[index].count)).first { want[index][$0] != got[index][$0] }
            ?? min(want[index].count, got[index].count)
        return """
            first difference at line \(index + 1), byte \(column + 1) of the line \(sizes)
              golden: \(index == want.count - 1 && want[index].isEmpty ? "(end of the golden)" : excerpt(want[index], around: column))
              output: \(index == got.count - 1 && got[index].isEmpty ? "(end of the output)" : excerpt(got[index], around: column))
            """
    }

    /// The line, or about 120 bytes of it around `column` for long lines, cut on character boundaries.
    static func excerpt(_ bytes: [UInt8], around column: Int) -> String {
        guard bytes.count > 160 else { return String(decoding: bytes, as: UTF8.self) }
        func isContinuation(_ index: Int) -> Bool { index < bytes.count && bytes[index] & 0xC0 == 0x80 }
        var lower = max(0, column - 60)
        var upper = min(bytes.count, column + 60)
        while lower > 0 && isContinuation(lower) { lower -= 1 }
        while isContinuation(upper) { upper += 1 }
        let text = String(decoding: bytes[lower..<upper], as: UTF8.self)
        return (lower > 0 ? "…" : "") + text + (upper < bytes.count ? "…" : "")
    }
}
