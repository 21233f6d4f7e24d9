import IsobarConsensus
import IsobarCore

/// How output for people looks: tables (with charts under them when asked) or sentences, and which characters charts use.
public struct Presentation: Sendable, Equatable {
    /// Sentences instead of tables (`--plain`, or `TERM=dumb` without `--chart`).
    public var plain: Bool
    /// The next 48 hours drawn under the tables (`--chart`).
    public var chart: Bool
    /// Unicode or ASCII (`--ascii`, or a locale that is not UTF-8).
    public var glyphs: ChartGlyphs

    /// A presentation: sentences or tables, a chart under them or none, and the chart's characters.
    public init(plain: Bool, chart: Bool, glyphs: ChartGlyphs) {
        self.plain = plain
        self.chart = chart
        self.glyphs = glyphs
    }

    /// The data a view needs in `format` (see `RendererFactory.kinds`).
    public func kinds(for view: View, format: OutputFormat) -> Set<DataKind> {
        RendererFactory.kinds(for: view, format: format, presentation: self)
    }

    /// The renderer of a view's events in `format` (see `RendererFactory.make`).
    public func renderer(_ format: OutputFormat, context: RenderContext, output: any OutputSink) -> any Renderer {
        RendererFactory.make(format, presentation: self, context: context, output: output)
    }
}

/// The tables, then what goes under them: the glance line of `now` and the home view, and the chart when asked.
public struct TableExtrasRenderer: Renderer, Sendable {
    private let context: RenderContext
    private let chart: ChartGlyphs?
    private let output: any OutputSink
    private let tables = BufferedSink()
    private var inner: TableRenderer
    private var reports: [WeatherReport] = []
    private var consensus: ConsensusResult?

    /// Draws the tables of `context`, then the extras; `chart` gives the chart's characters, nil for no chart.
    public init(context: RenderContext, chart: ChartGlyphs?, output: any OutputSink) {
        self.context = context
        self.chart = chart
        self.output = output
        inner = TableRenderer(context: context, output: tables)
    }

    /// Passes the event to the tables and keeps what the extras need.
    public mutating func handle(_ event: EngineEvent<ConsensusResult>) {
        inner.handle(event)
        if case .result(_, let result) = event { reports.append(result.report) }
        if case .consensus(_, let merged) = event { consensus = merged }
    }

    /// Writes the tables, the glance line, then the chart.
    public mutating func finish() {
        inner.finish()
        var text = tables.text
        if let consensus, !reports.isEmpty {
            let window = ForecastWindow(reports: reports, now: context.now, days: 2)
            if context.view == .now || context.view == .detail, let line = Glance.line(GlanceInput(consensus: consensus, window: window)) {
                text += TextWrap.fit(line, width: context.width)
            }
            if let chart { text += "\n" + chartText(consensus, window: window, glyphs: chart) }
        }
        output.write(text)
        output.flush()
    }

    /// The chart of the view: each provider's temperature for `compare`, the consensus for the others.
    private func chartText(_ consensus: ConsensusResult, window: ForecastWindow, glyphs: ChartGlyphs) -> String {
        let hours = Array(window.hours(consensus.hourly, time: \.time).prefix(48))
        let setting = ChartSetting(hours: hours, units: context.units, zone: "\(consensus.zone)", width: context.width ?? 80, glyphs: glyphs,
                                   palette: ChartPalette(enabled: context.color))
        if context.view == .compare {
            return CompareChart(setting: setting, providers: context.providers).render()
        }
        return ForecastChart(setting: setting).render()
    }
}
