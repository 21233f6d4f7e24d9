import Foundation
import IsobarCore
@testable import IsobarRender
import Synchronization
import Testing

/// The one place a format picks what is written: a report's forms, the batch's output, and what only tables bring.
@Suite struct RendererFactoryTests {
    /// Counts the forms of a report that were made.
    final class Made: Sendable {
        private let counts = Mutex<(people: Int, lines: Int)>((0, 0))
        var people: Int { counts.withLock { $0.people } }
        var lines: Int { counts.withLock { $0.lines } }
        func report() -> TextReport {
            TextReport(people: { width in
                self.counts.withLock { $0.people += 1 }
                return "people at \(width.map(String.init) ?? "any width")\n"
            }, lines: {
                self.counts.withLock { $0.lines += 1 }
                return "{\"line\": 1}\n"
            })
        }
    }

    /// A report with a CSV form of its own.
    struct TabularReport: CommandReport {
        func text(width: Int?) -> String { "table\n" }
        func jsonLines() -> String { "{}\n" }
        func csv() -> String { "a,b\n1,2\n" }
    }

    @Test func tablesGetTheTextForPeopleFittedToTheWidth() {
        let made = Made()
        let sink = BufferedSink()
        RendererFactory.write(made.report(), as: .table, width: 42, to: sink)
        #expect(sink.text == "people at 42\n")
        #expect(made.people == 1 && made.lines == 0, "the JSON lines are never made for people")
    }

    @Test func jsonLinesGetTheLinesAndNeverTheText() {
        let made = Made()
        let sink = BufferedSink()
        RendererFactory.write(made.report(), as: .jsonl, width: 42, to: sink)
        #expect(sink.text == "{\"line\": 1}\n")
        #expect(made.people == 0 && made.lines == 1)
    }

    @Test func csvIsTheReportsOwnOrElseItsLines() {
        let own = BufferedSink()
        RendererFactory.write(TabularReport(), as: .csv, width: nil, to: own)
        #expect(own.text == "a,b\n1,2\n")
        let fallback = BufferedSink()
        RendererFactory.write(Made().report(), as: .csv, width: nil, to: fallback)
        #expect(fallback.text == "{\"line\": 1}\n", "a report without CSV falls back to its JSON lines")
        let table = BufferedSink()
        RendererFactory.write(TabularReport(), as: .table, width: nil, to: table)
        #expect(table.text == "table\n")
    }

    @Test func sentencesAndChartsBelongToTablesAlone() {
        let dumb = ["TERM": "dumb"]
        #expect(RendererFactory.presentation(.table, plain: false, chart: false, ascii: false, environment: dumb).plain)
        #expect(!RendererFactory.presentation(.jsonl, plain: true, chart: false, ascii: false, environment: [:]).plain)
        #expect(!RendererFactory.presentation(.csv, plain: false, chart: true, ascii: false, environment: [:]).chart)
        let chart = RendererFactory.presentation(.table, plain: false, chart: true, ascii: true, environment: dumb)
        #expect(chart.chart && !chart.plain, "a chart asked for on a dumb terminal is drawn, not spoken")
        #expect(chart.glyphs == ChartGlyphs.choose(ascii: true, environment: dumb))
    }

    @Test func theFormatPicksTheRendererOfAView() throws {
        let place = Place(name: "Minsk", coordinate: try #require(Coordinate(latitude: 53.9, longitude: 27.57)))
        let context = RenderContext(view: .now, place: place, units: .metric, providers: [], color: false, now: Date(timeIntervalSince1970: 0))
        let people = Presentation(plain: false, chart: false, glyphs: ChartGlyphs.choose(ascii: true, environment: [:]))
        var spoken = people
        spoken.plain = true
        let sink = BufferedSink()
        #expect(RendererFactory.make(.table, presentation: people, context: context, output: sink) is TableExtrasRenderer)
        #expect(RendererFactory.make(.table, presentation: spoken, context: context, output: sink) is PlainRenderer)
        #expect(RendererFactory.make(.jsonl, presentation: spoken, context: context, output: sink) is JSONLinesRenderer)
        #expect(RendererFactory.make(.csv, presentation: spoken, context: context, output: sink) is CSVRenderer)
    }

    @Test func aBatchWritesCSVOnlyWhenAskedAndJSONLinesOtherwise() {
        #expect(RendererFactory.batchText(.csv) == .csv)
        #expect(RendererFactory.batchText(.jsonl) == .jsonLines)
        #expect(RendererFactory.batchText(.table) == .jsonLines, "a batch has no table")
        let now = Date(timeIntervalSince1970: 0)
        #expect(RendererFactory.batchRows(.csv, view: .now, units: .metric, now: now, leadingColumns: ["input_line", "id"])?.columns.prefix(2)
                == ["input_line", "id"])
        #expect(RendererFactory.batchRows(.jsonl, view: .now, units: .metric, now: now, leadingColumns: []) == nil)
    }

    @Test func theGlanceLineHoursAreAskedForTablesOnly() {
        let people = Presentation(plain: false, chart: false, glyphs: ChartGlyphs.choose(ascii: true, environment: [:]))
        #expect(RendererFactory.kinds(for: .now, format: .table, presentation: people) == [.current, .hourly])
        #expect(RendererFactory.kinds(for: .now, format: .jsonl, presentation: people) == [.current])
        #expect(RendererFactory.kinds(for: .compare, format: .table, presentation: people) == [.current])
    }
}
