import Foundation
@testable import IsobarCLI
@testable import IsobarRender
import Testing

/// Under a locale that is not UTF-8, every command's output is ASCII: tables and sentences folded cell for cell, JSON
/// lines escaped, errors folded; under a UTF-8 locale nothing changes (the goldens pin that).
@Suite struct ASCIILocaleTests {
    /// The arguments that show `command` in the demo: its required arguments filled with a place whose name is not ASCII
    /// (Minsk for `learn`, whose recording of past forecasts and reports is of Minsk alone; its table's °C still is not ASCII).
    static func demoArguments(_ spec: CommandSpec) throws -> [String] {
        let place = spec.name == LearnCommand.spec.name ? "Minsk" : "São Paulo"
        var arguments = [spec.name] + spec.arguments.map { $0 == "PLACE" || $0 == "TEXT" ? place : $0 }
        if spec.name == Commands.batch.name {
            let file = temporaryDirectory("ascii-batch") + "/places.txt"
            try "São Paulo\nTokyo\nnowhere at all\n".write(toFile: file, atomically: true, encoding: .utf8)
            arguments.append(file)
        }
        // The longest deadline where there is one: both runs must see every provider answer, however loaded the machine.
        let deadline = spec.options.contains { $0.name == "timeout" } ? ["--timeout", "600"] : []
        return arguments + ["--demo"] + deadline
    }

    /// Every command of the table that has demo output, with each of its presentations for people and JSON.
    static func demoRuns() throws -> [[String]] {
        var runs: [[String]] = []
        for spec in CommandTable.specs where spec.options.contains(where: { $0.name == "demo" }) {
            let base = try demoArguments(spec)
            runs.append(base)
            let names = Set(spec.options.map(\.name))
            if names.contains("plain") { runs.append(base + ["--plain"]) }
            if names.contains("chart") { runs.append(base + ["--chart"]) }
            if names.contains("json") { runs.append(base + ["--json"]) }
        }
        return runs
    }

    @Test func theDemoRunsCoverEveryCommandWithDemoOutput() throws {
        let covered = Set(try Self.demoRuns().map { $0[0] })
        let expected = Set(CommandTable.specs.filter { $0.options.contains { $0.name == "demo" } }.map(\.name))
        #expect(covered == expected)
        #expect(covered.isSuperset(of: ["compare", "now", "forecast", "batch", "cities", "home", "verify", "providers", "search"]))
    }

    @Test(arguments: try demoRuns())
    func everyDemoOutputIsASCIIUnderTheCLocale(arguments: [String]) async throws {
        let ascii = await runCLI(arguments, environment: ["LANG": "C", "COLUMNS": "80"])
        let unicode = await runCLI(arguments, environment: ["LANG": "C.UTF-8", "COLUMNS": "80"])
        #expect(ascii.code == unicode.code, "\(arguments)")
        #expect(!ascii.stdout.isEmpty, "\(arguments)")
        #expect(ASCIIText.isASCII(ascii.stdout), "\(arguments): \(ascii.stdout.filter { !$0.isASCII })")
        #expect(ASCIIText.isASCII(ascii.stderr), "\(arguments): \(ascii.stderr)")
        let asciiLines = ascii.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let unicodeLines = unicode.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(asciiLines.count == unicodeLines.count, "\(arguments)")
        if arguments.contains("--json") || arguments[0] == "batch" {
            // The same JSON values, only written with escapes (lines of providers come in the order they answer).
            #expect(try Self.values(asciiLines) == Self.values(unicodeLines), "\(arguments)")
        } else {
            // Each column starts in the same cell: tables stay aligned (a chart in ASCII is drawn, not folded).
            let chart = Set(ChartGlyphs.unicode.marks + ChartGlyphs.unicode.barParts + [ChartGlyphs.unicode.band, ChartGlyphs.unicode.rule])
            for (folded, original) in zip(asciiLines, unicodeLines) where !original.contains(where: chart.contains) {
                #expect(Self.columnStarts(String(folded)) == Self.columnStarts(String(original)), "\(arguments):\n\(folded)\n\(original)")
            }
        }
    }

    @Test func theLocaleIsReadAsTheChartReadsIt() {
        #expect(TextCharset(environment: [:]) == .ascii)
        #expect(TextCharset(environment: ["LANG": "C"]) == .ascii)
        #expect(TextCharset(environment: ["LANG": "POSIX"]) == .ascii)
        #expect(TextCharset(environment: ["LANG": "en_US.ISO-8859-1"]) == .ascii)
        #expect(TextCharset(environment: ["LANG": "en_GB.UTF-8"]) == .utf8)
        #expect(TextCharset(environment: ["LANG": "C.utf8"]) == .utf8)
        #expect(TextCharset(environment: ["LANG": "en_GB.UTF-8", "LC_ALL": "C"]) == .ascii, "LC_ALL wins")
        #expect(TextCharset(environment: ["LANG": "C", "LC_CTYPE": "de_DE.UTF-8"]) == .utf8)
        #expect(TextCharset(environment: ["LC_ALL": "", "LANG": "C.UTF-8"]) == .utf8, "an empty one is skipped")
        for environment in [["LANG": "C"], ["LANG": "en_GB.UTF-8"], [:]] {
            #expect((ChartGlyphs.choose(ascii: false, environment: environment) == .ascii) == (TextCharset(environment: environment) == .ascii))
        }
    }

    @Test func foldingKeepsEveryLineAsWideAsItWas() {
        #expect(ASCIIText.fold("Temp °C        -0.1") == "Temp C         -0.1")
        #expect(ASCIIText.fold("Wind  SW 227°  3.1") == "Wind  SW 227   3.1")
        #expect(ASCIIText.fold("from WNW 283°, gusts 6.7") == "from WNW 283, gusts 6.7", "prose closes up")
        #expect(ASCIIText.fold("0.5 (-0.6…3.8)  x") == "0.5 (-0.6~3.8)  x")
        #expect(ASCIIText.fold("asking 2 providers…\r") == "asking 2 providers...\r")
        #expect(ASCIIText.fold("cut…\nnext") == "cut...\nnext")
        #expect(ASCIIText.fold("UV  –  0.2 · Wind — calm") == "UV  -  0.2 | Wind - calm")
        #expect(ASCIIText.fold("São Paulo, Zu\u{308}rich, ÉCOLE") == "Sao Paulo, Zurich, ECOLE")
        #expect(ASCIIText.fold("Минск 東京") == "????? ????")
        #expect(ASCIIText.fold("●○◆◇■□ ≡ ░ █▄ ┤│└─") == "*o+x#@ = : ## ||+-")
        #expect(ASCIIText.fold("\u{1B}[1mbold\u{1B}[0m") == "\u{1B}[1mbold\u{1B}[0m")
        #expect(ASCIIText.fold("") == "")
        for text in ["Feels °C  -3.1  x", "Sat Nov 28  snow  0.5 (-0.6…3.8)", "東京, 東京都, JP  4.2", "Mińsk  ·  x"] {
            let folded = ASCIIText.fold(text)
            #expect(ASCIIText.isASCII(folded), "\(text)")
            #expect(folded.count == text.cellWidth, "\(text) -> \(folded)")
        }
    }

    @Test func jsonEscapesMeanTheSameValues() throws {
        let line = #"{"name":"São Paulo","unit":"°C","emoji":"☀️🌧","tokyo":"東京","plain":"a\"b"}"#
        let escaped = ASCIIText.escapingJSON(line)
        #expect(ASCIIText.isASCII(escaped))
        #expect(escaped.contains(#"S\u00e3o"#) && escaped.contains(#"\ud83c\udf27"#))
        let parsed = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? NSDictionary
        let original = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary
        #expect(parsed != nil && parsed == original)
        #expect(ASCIIText.escapingJSON(#"{"a":1}"#) == #"{"a":1}"#)
    }

    @Test func errorsAndHelpAreASCIIToo() async {
        let unknown = await runCLI(["compare", "Мінскк Ўё", "--demo"], environment: ["LANG": "C"])
        #expect(unknown.code != 0)
        #expect(unknown.stderr.hasPrefix("isobar: ") && unknown.stderr.split(separator: "\n").count == 1)
        #expect(ASCIIText.isASCII(unknown.stderr), "\(unknown.stderr)")
        let help = await runCLI(["search", "--help"], environment: ["LC_ALL": "POSIX", "LANG": "en_GB.UTF-8"])
        #expect(help.code == 0)
        #expect(ASCIIText.isASCII(help.stdout))
        #expect(help.stdout.contains("(?????, ????)"), "the other scripts' examples become question marks, one per cell")
        let version = await runCLI(["--version"], environment: ["LANG": "C"])
        #expect(version.stdout == "isobar \(IsobarCommandLine.version)\n")
    }

    @Test func csvIsLeftAsItIs() async {
        let utf8 = await runCLI(["verify", "--demo", "--format", "csv"], environment: ["LANG": "C.UTF-8"])
        let ascii = await runCLI(["verify", "--demo", "--format", "csv"], environment: ["LANG": "C"])
        #expect(utf8.code == 0)
        #expect(ascii.stdout == utf8.stdout)
    }

    /// Each JSON line's values with sorted keys, in byte order, without the run's wall time.
    static func values(_ lines: [Substring]) throws -> [String] {
        try lines.filter { !$0.isEmpty }.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let data = try JSONSerialization.data(withJSONObject: object.filter { $0.key != "wall_s" }, options: [.sortedKeys])
            return String(decoding: data, as: UTF8.self)
        }.sorted()
    }

    /// The cells where a column starts: a character other than a space after two spaces or more.
    static func columnStarts(_ line: String) -> [Int] {
        var starts: [Int] = []
        var spaces = 0
        var cell = 0
        for character in line {
            if character == " " {
                spaces += 1
            } else {
                if spaces >= 2 { starts.append(cell) }
                spaces = 0
            }
            cell += String(character).cellWidth
        }
        return starts
    }
}
