import IsobarCore

/// What `isobar verify` shows: the scores as a table (with the chart under it when asked), as JSON lines, or as CSV.
public struct VerifyReport: CommandReport {
    /// The scores.
    public let scores: VerifyScores
    /// Units of the errors.
    public let units: UnitSystem
    /// The place the scores are limited to, as people name it; nil for every place.
    public let place: String?
    /// True when the scores come from the demo's recorded history.
    public let demo: Bool
    /// The chart's characters and colours, when the chart is asked for.
    public let chart: (glyphs: ChartGlyphs, palette: ChartPalette)?

    /// The report of `scores`.
    public init(scores: VerifyScores, units: UnitSystem, place: String?, demo: Bool, chart: (glyphs: ChartGlyphs, palette: ChartPalette)?) {
        self.scores = scores
        self.units = units
        self.place = place
        self.demo = demo
        self.chart = chart
    }

    /// The table, then the chart when asked.
    public func text(width: Int?) -> String {
        let table = VerifyTable(scores: scores, units: units, place: place, demo: demo, width: width).text
        guard let chart else { return table }
        return table + "\n" + VerifyChart(scores: scores, units: units, width: width ?? 80, glyphs: chart.glyphs, palette: chart.palette).render()
    }

    /// One `score` line per score.
    public func jsonLines() -> String { scores.lines(units: units).map { JSONLine.text("score", $0) }.joined() }

    /// One row per score.
    public func csv() -> String { VerifyCSV(scores: scores, units: units, place: place).text }
}
