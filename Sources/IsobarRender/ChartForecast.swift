import IsobarConsensus
import IsobarCore

/// What every chart of the next hours shares: the hours, the units, the width and the characters.
public struct ChartSetting: Sendable {
    /// The consensus hours charted, in time order.
    public let hours: [ConsensusHour]
    /// Units to show.
    public let units: UnitSystem
    /// The zone the times are in, for the title.
    public let zone: String
    /// Cells each line may take.
    public let width: Int
    /// The characters.
    public let glyphs: ChartGlyphs
    /// The colours.
    public let palette: ChartPalette

    /// The narrowest label column: room for `-10.5`.
    public static let minimumLabelWidth = 5

    /// The column layout when labels take `labelWidth` cells (the axis takes one more, and one is kept free).
    public func columns(labelWidth: Int) -> ChartColumns {
        ChartColumns(hours: hours.count, width: width - labelWidth - 2)
    }

    /// Rows of the temperature chart: 10, or 8 below 80 cells.
    public var temperatureRows: Int { width >= 80 ? 10 : 8 }

    /// The time axis under the chart.
    public func axis(labelWidth: Int) -> [String] {
        ChartTimeAxis(hours: hours.map { ($0.time, $0.utcOffsetSeconds) }, columns: columns(labelWidth: labelWidth))
            .lines(indent: labelWidth + 1, glyphs: glyphs)
    }

    /// The title: how many hours, in which zone.
    public var title: String { "Next \(hours.count) hours in \(zone)" }

    /// Labels for every row of a scale.
    public static func labels(_ scale: ChartScale) -> [String?] {
        (0..<scale.rows).map { TableRenderer.fixed(scale.value(ofRow: $0), decimals: scale.decimals) }
    }

    /// Draws a line chart at the narrowest label width that holds its labels.
    public func lineChart(_ lines: [[Double?]], band: [ClosedRange<Double>?] = []) -> (rows: [String], labelWidth: Int) {
        var labelWidth = Self.minimumLabelWidth
        while true {
            let (canvas, scale) = ChartPlot.lines(lines, band: band, columns: columns(labelWidth: labelWidth), maxRows: temperatureRows,
                                                  glyphs: glyphs)
            let labels = Self.labels(scale)
            let widest = labels.map { $0?.count ?? 0 }.max() ?? 0
            if widest <= labelWidth {
                return (ChartPlot.framed(canvas, labels: labels, labelWidth: labelWidth, glyphs: glyphs, palette: palette), labelWidth)
            }
            labelWidth = widest
        }
    }

    /// Legend text fitted to the width (chart rows are drawn to fit already).
    public func prose(_ text: String) -> String { TextWrap.fit(text, width: width) + "\n" }
}

/// The next 48 hours of the consensus: temperature as a line over the providers' range, precipitation as bars over
/// its chance, on one local time axis.
public struct ForecastChart: Sendable {
    /// The hours, units, width and characters.
    public let setting: ChartSetting

    /// Rows of the precipitation bars.
    public static let barRows = 3

    /// The chart as lines of text.
    public func render() -> String {
        let units = setting.units
        guard !setting.hours.isEmpty else { return "No hourly forecast to chart.\n" }
        let temperature = setting.hours.map { $0[.temperature].map { units.convert($0.value, .temperature) } }
        let band = setting.hours.map { hour in
            hour[.temperature].map { units.convert($0.min, .temperature)...units.convert($0.max, .temperature) }
        }
        let (lineRows, labelWidth) = setting.lineChart([temperature], band: band)
        let glyphs = setting.glyphs
        var text = setting.prose("\(setting.title): temperature \(units.symbol(.temperature)) "
            + "(\(setting.palette.line(0, String(glyphs.mark(0)))) consensus, \(setting.palette.dim(String(glyphs.band))) range of the providers)")
        text += lineRows.joined(separator: "\n") + "\n"
        let amounts = setting.hours.map { $0[.precipitationRate].map { units.convert($0.value, .precipitationRate) } }
        let top = ChartScale.roundStep(atLeast: max(amounts.compactMap { $0 }.max() ?? 0, units.convert(1, .precipitationRate)))
        let decimals = ChartScale(low: 0, high: top, maxRows: 2).decimals
        let topText = TableRenderer.fixed(top, decimals: decimals)
        text += setting.prose("Precipitation \(units.symbol(.precipitationAmount)) in the hour (bars, the top row up to \(topText)) "
            + "and its chance in tens of percent (row %: 6 = 60 to 69 %, X = 100 %)")
        let columns = setting.columns(labelWidth: labelWidth)
        let bars = ChartPlot.bars(amounts, top: top, rows: Self.barRows, columns: columns, glyphs: glyphs)
        let labels: [String?] = [topText] + Array(repeating: nil, count: Self.barRows - 1)
        text += ChartPlot.framed(bars, labels: labels, labelWidth: labelWidth, glyphs: glyphs, palette: setting.palette).joined(separator: "\n")
        let chances = setting.hours.map { $0[.precipitationProbability]?.value }
        let chanceRow = (0..<columns.count).map { Self.chanceDigit(columns.highest(chances, at: $0)) }
        text += "\n" + String(repeating: " ", count: labelWidth - 1) + "% " + String(glyphs.rule)
            + String(chanceRow).trimmingTrailingSpaces() + "\n"
        text += setting.axis(labelWidth: labelWidth).map { $0.trimmingTrailingSpaces() }.joined(separator: "\n") + "\n"
        return text
    }

    /// A chance of precipitation as one character: its tens (`0` below 10 %, `6` for 60–69 %), `X` for 100 %, blank for none.
    public static func chanceDigit(_ percent: Double?) -> Character {
        guard let percent, percent.isFinite else { return " " }
        if percent >= 99.5 { return "X" }
        return Character(String(Int(max(0, percent) / 10)))
    }
}

/// Each provider's temperature over the next 48 hours as its own line, with a legend, so a disagreement shows at a glance.
public struct CompareChart: Sendable {
    /// The hours, units, width and characters.
    public let setting: ChartSetting
    /// Providers in display order: id and name.
    public let providers: [(id: String, name: String)]

    /// The chart as lines of text.
    public func render() -> String {
        let units = setting.units
        let shown = providers.filter { provider in setting.hours.contains { $0[.temperature]?.inputs.contains { $0.provider == provider.id } == true } }
        guard !shown.isEmpty else { return "No hourly forecast to chart.\n" }
        let lines = shown.map { provider in
            setting.hours.map { hour in
                hour[.temperature]?.inputs.first { $0.provider == provider.id }.map { units.convert($0.value, .temperature) }
            }
        }
        let (rows, labelWidth) = setting.lineChart(lines)
        let glyphs = setting.glyphs
        let legend = shown.enumerated().map { index, provider in setting.palette.line(index, String(glyphs.mark(index))) + " " + provider.name }
        var text = setting.prose("\(setting.title): temperature \(units.symbol(.temperature)) by provider")
        text += setting.prose((legend + ["\(glyphs.overlap) several in one place"]).joined(separator: "  "))
        text += rows.joined(separator: "\n") + "\n"
        text += setting.axis(labelWidth: labelWidth).map { $0.trimmingTrailingSpaces() }.joined(separator: "\n") + "\n"
        return text
    }
}
