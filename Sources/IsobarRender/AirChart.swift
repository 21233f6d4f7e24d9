import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// `isobar air --chart`: the merged PM2.5 of the next 48 hours as a line over the sources' range, with the US AQI category
/// of each column under it, on the place's local time axis (ASCII when the charset is).
public struct AirChart: Sendable {
    /// The gathered report.
    public let report: AirReport
    /// Cells each line may take.
    public let width: Int
    /// The characters.
    public let glyphs: ChartGlyphs
    /// The colours.
    public let palette: ChartPalette

    /// Hours charted at most.
    public static let hours = 48

    /// Rows of the PM2.5 chart: 10, or 8 below 80 cells.
    var rows: Int { width >= 80 ? 10 : 8 }

    /// The chart of `report`, `width` cells wide, in `glyphs` and `palette`.
    public init(report: AirReport, width: Int, glyphs: ChartGlyphs, palette: ChartPalette) {
        self.report = report
        self.width = width
        self.glyphs = glyphs
        self.palette = palette
    }

    /// The chart as lines of text.
    public func render() -> String {
        let moments = Array(report.hourly.filter { $0.values[.pm25] != nil }.prefix(Self.hours))
        guard !moments.isEmpty else { return "No hourly PM2.5 to chart.\n" }
        let values = moments.map { $0.values[.pm25]?.value }
        let band = moments.map { moment in moment.values[.pm25].map { $0.min...$0.max } }
        var labelWidth = ChartSetting.minimumLabelWidth
        var drawn: (canvas: ChartCanvas, scale: ChartScale, columns: ChartColumns)
        while true {
            let columns = ChartColumns(hours: moments.count, width: width - labelWidth - 2)
            let (canvas, scale) = ChartPlot.lines([values], band: band, columns: columns, maxRows: rows, glyphs: glyphs)
            let widest = ChartSetting.labels(scale).map { $0?.count ?? 0 }.max() ?? 0
            drawn = (canvas, scale, columns)
            if widest <= labelWidth { break }
            labelWidth = widest
        }
        let offset = report.utcOffsetSeconds
        var text = TextWrap.fit("Next \(moments.count) hours in UTC\(CivilTime.offsetText(offset)): PM2.5 µg/m³ "
            + "(\(palette.line(0, String(glyphs.mark(0)))) merged, \(palette.dim(String(glyphs.band))) range of the sources)", width: width) + "\n"
        text += ChartPlot.framed(drawn.canvas, labels: ChartSetting.labels(drawn.scale), labelWidth: labelWidth, glyphs: glyphs, palette: palette)
            .joined(separator: "\n") + "\n"
        // The worst US AQI category of each column's hours, as its level (1 Good … 6 Hazardous).
        let levels = moments.map { $0.index(.usAQI).map { Double($0.category.level) } }
        let digits = (0..<drawn.columns.count).map { column -> Character in
            drawn.columns.highest(levels, at: column).map { Character(String(Int($0))) } ?? " "
        }
        text += String(repeating: " ", count: max(0, labelWidth - 3)) + "AQI " + String(glyphs.rule) + String(digits).trimmingTrailingSpaces() + "\n"
        text += ChartTimeAxis(hours: moments.map { ($0.time, offset) }, columns: drawn.columns).lines(indent: labelWidth + 1, glyphs: glyphs)
            .map { $0.trimmingTrailingSpaces() }.joined(separator: "\n") + "\n"
        let legend = AirIndexScale.usAQI.categories.map { "\($0.level) \($0.name)" }.joined(separator: ", ")
        text += TextWrap.fit("AQI row: the worst \(AirIndexScale.usAQI.name) category of the hours above it: \(legend).", width: width) + "\n"
        return text
    }
}
