import Foundation
@testable import IsobarCLI
import IsobarConsensus
import IsobarCore
import IsobarEngine
@testable import IsobarRender
import Testing

/// No line of table output is wider than the terminal, whatever its width. One test at a time: together they keep both
/// of the pool's threads busy for seconds, which the tests that time the pool would take for a stall.
@Suite(.serialized) struct FitTheTerminalTests {
    /// The weather commands pinned by the goldens, and `now`.
    static let weather: [[String]] = [
        ["compare", "Minsk", "--demo"], ["now", "Tokyo", "--demo"], ["forecast", "Minsk", "--demo"],
        ["forecast", "Minsk", "--demo", "--hourly", "--days", "2"], ["compare", "New York", "--config", sixSourceConfiguration],
    ]

    /// The weather commands with a chart under their tables.
    static let charts: [[String]] = [["forecast", "Minsk", "--demo", "--chart"], ["compare", "Minsk", "--demo", "--chart"]]

    /// Every other command that prints tables or text for people, `cities` first.
    static let others: [[String]] = [
        ["cities", "--demo"], ["search", "Paris"], ["search", "東京"], ["providers", "--demo"],
        ["cache", "stats", "--cache-dir", temporaryDirectory("cache")],
    ]

    /// The lines of `text` wider than `width` cells, as messages.
    static func tooWide(_ text: String, _ width: Int, _ arguments: [String]) -> [String] {
        text.split(separator: "\n").filter { String($0).cellWidth > width }.map { line in
            "COLUMNS=\(width) isobar \(arguments.joined(separator: " ")): \(String(line).cellWidth) cells: \(line)"
        }
    }

    /// The weather views drawn at every width from 40 to 160 from one run of the engine (the width changes only the
    /// drawing): the same code the command runs, without asking the providers 121 times.
    @Test(arguments: weather)
    func weatherTablesFitEveryWidth(_ arguments: [String]) async throws {
        for (width, text) in try await Self.drawings(arguments, widths: Array(40...160)) {
            for problem in Self.tooWide(text, width, arguments) { Issue.record("\(problem)") }
        }
    }

    /// Charts fit at the widths around each change of their layout (an hour a column from 55 cells, two from 103, three
    /// from 151) and some others; the tables above them are checked at every width above.
    @Test(arguments: charts)
    func chartsFitTheirWidths(_ arguments: [String]) async throws {
        let widths = [40, 47, 53, 54, 55, 56, 60, 73, 80, 102, 103, 104, 120, 150, 151, 152, 160]
        for (width, text) in try await Self.drawings(arguments, widths: widths) {
            for problem in Self.tooWide(text, width, arguments) { Issue.record("\(problem)") }
            #expect(text.contains("Next 48 hours"), "COLUMNS=\(width)")
        }
    }

    /// The drawings above are what the command prints.
    @Test(arguments: weather + charts)
    func drawingsAreWhatTheCommandPrints(_ arguments: [String]) async throws {
        for (width, text) in try await Self.drawings(arguments, widths: [40, 59, 60, 61, 120]) {
            let run = await runCLI(arguments, environment: ["COLUMNS": String(width)])
            #expect(run.stdout == text, "COLUMNS=\(width)")
        }
    }

    /// Every width below the table's natural width is run (there it must narrow); from that width up the output must be
    /// the unlimited one, which fits, and that is checked at its edge and at some widths up to 160 (each run asks the
    /// providers about two places).
    @Test func citiesFitEveryWidth() async {
        let unlimited = await runCLI(["cities", "--demo"])
        let natural = unlimited.stdout.split(separator: "\n").map { String($0).cellWidth }.max() ?? 0
        for width in 40...160 where width <= natural || [natural + 1, 80, 100, 120, 140, 160].contains(width) {
            let run = await runCLI(["cities", "--demo"], environment: ["COLUMNS": String(width)])
            #expect(run.code == 0, "\(width): \(run.stderr)")
            for problem in Self.tooWide(run.stdout, width, ["cities", "--demo"]) { Issue.record("\(problem)") }
            if width >= natural { #expect(run.stdout == unlimited.stdout, "COLUMNS=\(width)") }
        }
    }

    /// The commands not covered above, at some widths (each run of `search` reads the gazetteer).
    @Test(arguments: others.dropFirst())
    func otherCommandsFitNarrowAndWideTerminals(_ arguments: [String]) async {
        for width in [40, 47, 60, 73, 80, 120, 160] {
            let run = await runCLI(arguments, environment: ["COLUMNS": String(width)])
            #expect(run.code == 0, "\(width): \(run.stderr)")
            for problem in Self.tooWide(run.stdout, width, arguments) { Issue.record("\(problem)") }
        }
    }

    @Test(arguments: weather + others)
    func aWideEnoughTerminalChangesNothing(_ arguments: [String]) async {
        let unlimited = await runCLI(arguments)
        let wide = await runCLI(arguments, environment: ["COLUMNS": "1000"])
        #expect(wide.stdout == unlimited.stdout)
    }

    /// Runs a weather command's engine once, as the command does, and draws its tables (and chart) at each width.
    static func drawings(_ arguments: [String], widths: [Int]) async throws -> [(width: Int, text: String)] {
        let environment = ["LANG": "C.UTF-8", "ISOBAR_DATA_DIR": dataDirectory, "HOME": "/nonexistent-home",
                           "XDG_CONFIG_HOME": "/nonexistent-config", "XDG_CACHE_HOME": temporaryDirectory("cache")]
        let cli = IsobarCommandLine(environment: environment, output: BufferedSink(), errors: BufferedSink(), liveTransport: { NoNetworkTransport() })
        let command = try #require(CommandTable.named(arguments[0]))
        let parsed = try command.invocation(Array(arguments.dropFirst()))
        let view: View = switch arguments[0] {
        case "compare": .compare
        case "now": .now
        default: .forecast(days: parsed.own(HorizonOptions.self).days, hourly: parsed.own(HorizonOptions.self).hourly)
        }
        let setup = try await cli.context.weatherSetup(parsed)
        let resolution = try await cli.context.resolvePlace(parsed.positionals[0], setup: setup, parsed: parsed)
        var events: [EngineEvent<ConsensusResult>] = []
        let presentation = Presentation(parsed.options, environment: environment)
        let kinds = presentation.kinds(for: view, format: .table)
        for await event in cli.context.engine(setup).run(WeatherRequest(place: resolution.place, kinds: kinds)) { events.append(event) }
        // `compare` shows the air sources after the weather, when they answered.
        let air = view == .compare ? await cli.context.airReport(resolution.place, setup, parsed).flatMap { $0.sources.isEmpty ? nil : $0 } : nil
        var drawings: [(width: Int, text: String)] = []
        for width in widths {
            var context = RenderContext(view: view, place: resolution.place, units: setup.units,
                                        providers: RenderContext.names(of: setup.bindings.map(\.provider)).sources,
                                        attributions: RenderContext.attributions(of: setup.bindings.map(\.provider)), color: false,
                                        now: Date(), query: parsed.positionals[0], runnersUp: resolution.runnersUp, width: width)
            context.air = air
            let sink = BufferedSink()
            var renderer = presentation.renderer(.table, context: context, output: sink)
            for event in events { renderer.handle(event) }
            renderer.finish()
            drawings.append((width, sink.text))
            // Let other tests' tasks run: some of them measure how long the shared threads go unanswered.
            await Task.yield()
        }
        return drawings
    }
}
