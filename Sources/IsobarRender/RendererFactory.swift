import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// A command's result in its two forms, text for people and JSON lines: a command gathers one and hands it to
/// `RendererFactory.write`, never choosing between the forms itself.
public protocol CommandReport {
    /// The text for people, fitted to `width` terminal cells (nil: no limit).
    func text(width: Int?) -> String
    /// One JSON object per line.
    func jsonLines() -> String
    /// Comma-separated values, for the reports that have them.
    func csv() -> String
}

extension CommandReport {
    /// The JSON lines: a command without CSV never gets `--format csv` past its options.
    public func csv() -> String { jsonLines() }
}

/// A report whose two forms are made on demand by the closures given (only the one the format asks for is made).
public struct TextReport: CommandReport {
    private let people: (Int?) -> String
    private let lines: () -> String

    /// The report whose text for people `people` makes for a width, and whose JSON lines `lines` makes.
    public init(people: @escaping (Int?) -> String, lines: @escaping () -> String) {
        self.people = people
        self.lines = lines
    }

    /// The text for people.
    public func text(width: Int?) -> String { people(width) }
    /// The JSON lines.
    public func jsonLines() -> String { lines() }
}

/// The one place an output format picks what is written: the renderer of a weather view's events, the form of a
/// command's report, and what the table format alone brings (sentences, charts, the glance line).
public enum RendererFactory {
    /// The renderer writing the events of a weather view in `format` to `output`: for people, sentences or tables with
    /// their extras as `presentation` says; else JSON lines or CSV.
    public static func make(_ format: OutputFormat, presentation: Presentation, context: RenderContext, output: any OutputSink) -> any Renderer {
        switch format {
        case .table where presentation.plain: PlainRenderer(context: context, output: output)
        case .table: TableExtrasRenderer(context: context, chart: presentation.chart ? presentation.glyphs : nil, output: output)
        case .jsonl: JSONLinesRenderer(context: context, output: output)
        case .csv: CSVRenderer(context: context, output: output)
        }
    }

    /// Writes `report` in `format` to `output`: its text for people fitted to `width`, its JSON lines or its CSV.
    public static func write(_ report: some CommandReport, as format: OutputFormat, width: Int?, to output: any OutputSink) {
        switch format {
        case .table: output.write(report.text(width: width))
        case .jsonl: output.write(report.jsonLines())
        case .csv: output.write(report.csv())
        }
    }

    /// How output for people looks, from `--plain`, `--chart`, `--ascii` and the environment; only table output has sentences or a chart.
    public static func presentation(_ format: OutputFormat, plain: Bool, chart: Bool, ascii: Bool, environment: [String: String]) -> Presentation {
        Presentation(plain: format == .table && (plain || (environment["TERM"] == "dumb" && !chart)), chart: format == .table && chart,
                     glyphs: ChartGlyphs.choose(ascii: ascii, environment: environment))
    }

    /// The data a view needs in `format`: its own, and the hours the chart of `compare` and the glance line of `now` are drawn from.
    public static func kinds(for view: View, format: OutputFormat, presentation: Presentation) -> Set<DataKind> {
        switch view {
        case .compare where presentation.chart: view.kinds.union([.hourly])
        case .now where format == .table: view.kinds.union([.hourly])
        default: view.kinds
        }
    }

    /// What a batch writes in `format`: CSV when asked, else JSON lines (a batch has no table).
    public static func batchText(_ format: OutputFormat) -> OutputText { format == .csv ? .csv : .jsonLines }

    /// The CSV rows of a batch when `format` is CSV (each row led by `leadingColumns`); nil for JSON lines.
    public static func batchRows(_ format: OutputFormat, view: View, units: UnitSystem, now: Date, leadingColumns: [String]) -> CSVRows? {
        format == .csv ? CSVRows(view: view, units: units, now: now, leadingColumns: leadingColumns) : nil
    }
}

extension OutputFormat {
    /// True for the format people read (tables and sentences), false for those programs read.
    public var isForPeople: Bool { self == .table }
}
