import Foundation
@testable import IsobarCLI
@testable import IsobarConsensus
import IsobarCore
import IsobarEngine
@testable import IsobarRender
import Testing

@Suite struct ChartTests {
    /// The canvas as plain rows, trailing spaces removed.
    func rows(_ canvas: ChartCanvas) -> [String] {
        (0..<canvas.rows).map { canvas.text(row: $0, palette: ChartPalette(enabled: false)) }
    }

    @Test func scaleHoldsTheValuesInRoundSteps() {
        let scale = ChartScale(low: -3.2, high: 4.9, maxRows: 10)
        #expect(scale.step == 1)
        #expect(scale.top == 5)
        #expect(scale.rows == 9, "-3 to 5: -3.2 is nearest the -3 row")
        #expect(scale.row(of: 4.9) == 0)
        #expect(scale.row(of: -3.2) == 8)
        #expect(scale.row(of: 0.4) == 5 && scale.row(of: 0.6) == 4, "the nearest row")
        #expect(scale.row(of: 100) == 0, "values beyond the scale stay on it")
        #expect(scale.row(of: -100) == 8)
    }

    @Test func scaleGrowsItsStepRatherThanItsRows() {
        let scale = ChartScale(low: 0, high: 37, maxRows: 8)
        #expect(scale.rows <= 8)
        #expect(scale.step == 10)
        #expect(scale.top == 40 && scale.row(of: 37) == 0)
        let fine = ChartScale(low: 0.1, high: 0.6, maxRows: 10)
        #expect(fine.step == 0.1)
        #expect(fine.decimals == 1)
    }

    @Test func valuesNoChartCanHoldAreNoCrash() {
        for (low, high) in [(-1e308, 1e308), (.nan, 1), (-.infinity, 0), (5, 1), (1e300, 1e300)] {
            let scale = ChartScale(low: low, high: high, maxRows: 10)
            #expect((2...10).contains(scale.rows) && scale.step.isFinite && scale.step > 0, "\(low)…\(high)")
        }
        #expect(abs(ChartScale.roundStep(atLeast: .leastNonzeroMagnitude) - 1e-9) < 1e-15, "a subnormal step ends, at the smallest step drawn")
        #expect(ChartScale.roundStep(atLeast: 0.3) == 0.5 && ChartScale.roundStep(atLeast: 20) == 20 && ChartScale.roundStep(atLeast: 21) == 50)
        let huge = ChartScale(low: -1e307, high: 1e307, maxRows: 10)
        #expect(huge.row(of: 1e307) == 0 && huge.row(of: -1e307) == huge.rows - 1)
    }

    @Test func aFlatSeriesGetsRoomAroundIt() {
        let scale = ChartScale(low: 2, high: 2, maxRows: 10)
        #expect(scale.top == 3 && scale.row(of: 2) * 2 == scale.rows - 1, "the value in the middle, a unit either side")
        let (canvas, _) = ChartPlot.lines([[2, 2, 2, 2]], columns: ChartColumns(hours: 4, width: 4), maxRows: 10, glyphs: .ascii)
        let drawn = rows(canvas)
        let lineRows = drawn.filter { $0 == "****" }.count
        #expect(lineRows == 1, "\(drawn)")
        #expect(drawn.first != "****" && drawn.last != "****", "the flat line sits inside the chart: \(drawn)")
    }

    @Test func noValuesAtAllStillDrawsAnEmptyChart() {
        let (canvas, scale) = ChartPlot.lines([[nil, nil]], columns: ChartColumns(hours: 2, width: 10), maxRows: 6, glyphs: .ascii)
        #expect(scale.rows >= 2)
        #expect(rows(canvas).allSatisfy { $0.isEmpty })
    }

    @Test func negativeValuesAreScaledAndLabelled() {
        let (canvas, scale) = ChartPlot.lines([[-12.5, -8, -3]], columns: ChartColumns(hours: 3, width: 3), maxRows: 10, glyphs: .ascii)
        #expect(scale.row(of: -3) == 0 && scale.row(of: -12.5) == scale.rows - 1)
        let drawn = rows(canvas)
        #expect(drawn[scale.row(of: -12.5)] == "*")
        #expect(drawn[scale.row(of: -3)] == "  *")
        let labels = ChartSetting.labels(scale).compactMap { $0 }
        #expect(labels.contains("-12") || labels.contains("-14"), "\(labels)")
        #expect(labels.allSatisfy { !$0.contains(".") }, "whole steps, whole labels: \(labels)")
    }

    @Test func theBandSpansTheProvidersAndTheLineIsDrawnOverIt() {
        let (canvas, scale) = ChartPlot.lines([[1, 1]], band: [0...3, nil], columns: ChartColumns(hours: 2, width: 2), maxRows: 4, glyphs: .ascii)
        let drawn = rows(canvas)
        #expect(scale.step == 1)
        #expect(drawn[scale.row(of: 3)] == ":")
        #expect(drawn[scale.row(of: 2)] == ":")
        #expect(drawn[scale.row(of: 1)] == "**", "the line wins over the band; the second hour has no band")
        #expect(drawn[scale.row(of: 0)] == ":")
        #expect(canvas.ink(row: scale.row(of: 3), column: 0) == .band)
    }

    @Test func aProviderWithoutAValueLeavesAGap() {
        let (canvas, _) = ChartPlot.lines([[5, nil, 5, 5]], columns: ChartColumns(hours: 4, width: 4), maxRows: 5, glyphs: .ascii)
        #expect(rows(canvas).contains("* **"))
    }

    @Test func eachLineHasItsOwnMarkAndSharedCellsSaySo() {
        let (canvas, scale) = ChartPlot.lines([[0, 0, 0], [0, 4, 8]], columns: ChartColumns(hours: 3, width: 3), maxRows: 9,
                                              glyphs: .unicode)
        let drawn = rows(canvas)
        #expect(drawn[scale.row(of: 0)] == "≡●●")
        #expect(drawn[scale.row(of: 8)] == "  ○")
        #expect(canvas.ink(row: scale.row(of: 8), column: 2) == .line(1))
        #expect(canvas.ink(row: scale.row(of: 0), column: 1) == .line(0))
    }

    @Test func columnsInterpolateWhenWideAndAverageWhenNarrow() {
        let wide = ChartColumns(hours: 3, width: 7)
        #expect(wide.columnsPerHour == 2 && wide.count == 6)
        #expect(wide.value([0, 4, nil], at: 1) == 2)
        #expect(wide.value([0, 4, nil], at: 3) == 4, "held when the next hour has no value")
        #expect(wide.value([0, 4, nil], at: 4) == nil)
        let narrow = ChartColumns(hours: 48, width: 20)
        #expect(narrow.hoursPerColumn == 3 && narrow.count == 16)
        let values: [Double?] = (0..<48).map { Double($0) }
        #expect(narrow.value(values, at: 0) == 1)
        #expect(narrow.highest(values, at: 15) == 47)
        #expect(narrow.range([0...1, 2...5, nil], at: 0) == 0...5)
        #expect(narrow.column(ofHour: 7) == 2)
    }

    @Test func barsFillFromZeroWithPartialTops() {
        let columns = ChartColumns(hours: 4, width: 4)
        let unicode = rows(ChartPlot.bars([0, 0.05, 0.5, 1], top: 1, rows: 2, columns: columns, glyphs: .unicode))
        #expect(unicode == ["   █", " ▁██"])
        let ascii = rows(ChartPlot.bars([0, 0.05, 0.5, 1], top: 1, rows: 2, columns: columns, glyphs: .ascii))
        #expect(ascii == ["   #", " .##"])
        let over = rows(ChartPlot.bars([5], top: 1, rows: 2, columns: ChartColumns(hours: 1, width: 1), glyphs: .ascii))
        #expect(over == ["#", "#"], "an amount over the top fills the column, no more")
    }

    @Test func chanceOfPrecipitationIsOneCharacter() {
        #expect(ForecastChart.chanceDigit(nil) == " ")
        #expect(ForecastChart.chanceDigit(4) == "0")
        #expect(ForecastChart.chanceDigit(65) == "6")
        #expect(ForecastChart.chanceDigit(100) == "X")
        #expect(ForecastChart.chanceDigit(-3) == "0")
    }

    @Test func asciiWhenTheLocaleIsNotUTF8() {
        #expect(ChartGlyphs.choose(ascii: false, environment: [:]) == .ascii)
        #expect(ChartGlyphs.choose(ascii: false, environment: ["LANG": "en_GB.UTF-8"]) == .unicode)
        #expect(ChartGlyphs.choose(ascii: false, environment: ["LANG": "C.utf8"]) == .unicode)
        #expect(ChartGlyphs.choose(ascii: false, environment: ["LANG": "en_GB.UTF-8", "LC_ALL": "C"]) == .ascii, "LC_ALL wins")
        #expect(ChartGlyphs.choose(ascii: false, environment: ["LANG": "C", "LC_CTYPE": "de_DE.UTF-8"]) == .unicode)
        #expect(ChartGlyphs.choose(ascii: false, environment: ["LC_ALL": "", "LANG": "C.UTF-8"]) == .unicode, "an empty one is skipped")
        #expect(ChartGlyphs.choose(ascii: true, environment: ["LANG": "en_GB.UTF-8"]) == .ascii)
    }

    @Test func asciiChartsUseOnlyASCII() {
        let setting = Self.setting(width: 60, glyphs: .ascii)
        let text = ForecastChart(setting: setting).render() + CompareChart(setting: setting, providers: Self.providers).render()
        let others = text.unicodeScalars.filter { !$0.isASCII && $0 != "°" }
        #expect(others.isEmpty, "only the unit's degree sign is not ASCII: \(text)")
    }

    @Test(arguments: [20, 40, 60, 80, 120, 200])
    func chartsFitTheirWidth(_ width: Int) {
        for glyphs in [ChartGlyphs.ascii, .unicode] {
            let setting = Self.setting(width: width, glyphs: glyphs)
            let text = ForecastChart(setting: setting).render() + CompareChart(setting: setting, providers: Self.providers).render()
            for line in text.split(separator: "\n") { #expect(String(line).cellWidth <= width, "\(width): \(line)") }
        }
    }

    @Test func hourAndDayLabelsAreOnTheLocalClock() {
        // 48 hours ending at 13:00 UTC onwards, shown at UTC+3: the first hour ends at 16:00 local.
        let setting = Self.setting(width: 60, glyphs: .ascii)
        let axis = setting.axis(labelWidth: 5)
        #expect(axis[0] == "      +" + String(repeating: "-", count: 48))
        #expect(axis[1].hasPrefix("         18    00    06    12"), "\(axis[1])")
        #expect(axis[2].contains("Sun 29"), "\(axis[2])")
        #expect(axis[2].contains("Mon 30"), "\(axis[2])")
        let midnight = axis[1].distance(from: axis[1].startIndex, to: axis[1].range(of: "00")!.lowerBound)
        #expect(axis[2].dropFirst(midnight).hasPrefix("Sun 29"), "the day starts under its midnight")
    }

    @Test func compareChartHasALegendWithEachProvidersMark() {
        let text = CompareChart(setting: Self.setting(width: 80, glyphs: .ascii), providers: Self.providers).render()
        #expect(text.contains("* Alpha  o Beta  = several in one place"))
        #expect(text.contains("o"))
        let colour = CompareChart(setting: Self.setting(width: 80, glyphs: .ascii, colour: true), providers: Self.providers).render()
        #expect(colour.contains("\u{1B}[36m*\u{1B}[0m Alpha"))
    }

    @Test func noHoursSaySo() {
        let setting = ChartSetting(hours: [], units: .metric, zone: "UTC", width: 80, glyphs: .ascii, palette: ChartPalette(enabled: false))
        #expect(ForecastChart(setting: setting).render() == "No hourly forecast to chart.\n")
        #expect(CompareChart(setting: setting, providers: Self.providers).render() == "No hourly forecast to chart.\n")
    }

    // MARK: Fixtures

    static let providers = [(id: "alpha", name: "Alpha"), (id: "beta", name: "Beta")]

    /// 48 hours at UTC+3 from 2026-11-28 13:00 UTC: a daily swing, Beta 3 degrees warmer and missing every fifth hour,
    /// rain with its chance in the second half.
    static func setting(width: Int, glyphs: ChartGlyphs, colour: Bool = false) -> ChartSetting {
        let start = Date(timeIntervalSince1970: 1_795_870_800)
        let hours = (0..<48).map { index -> ConsensusHour in
            let alpha = -2 + 4 * sin(Double(index) / 24 * 2 * .pi)
            var inputs = [ProviderValue(provider: "alpha", value: alpha)]
            if index % 5 != 0 { inputs.append(ProviderValue(provider: "beta", value: alpha + 3)) }
            let low = inputs.map(\.value).min()!, high = inputs.map(\.value).max()!
            let temperature = MergedField(value: (low + high) / 2, min: low, max: high, spread: high - low, medianAbsoluteDeviation: 0,
                                          inputs: inputs, confidence: 0.7)
            var values: [Quantity: MergedField] = [.temperature: temperature]
            if index >= 24 {
                let amount = Double(index - 24) / 10
                values[.precipitationRate] = MergedField(value: amount, min: amount, max: amount, spread: 0, medianAbsoluteDeviation: 0,
                                                         inputs: [ProviderValue(provider: "alpha", value: amount)], confidence: 0.5)
                values[.precipitationProbability] = MergedField(value: Double(index * 2), min: 0, max: 100, spread: 0,
                                                                medianAbsoluteDeviation: 0, inputs: [], confidence: 0.5)
            }
            return ConsensusHour(time: start.addingTimeInterval(Double(index) * 3600), utcOffsetSeconds: 10_800, leadHours: Double(index),
                                 values: values, condition: nil, confidence: 0.7)
        }
        return ChartSetting(hours: hours, units: .metric, zone: "Europe/Minsk", width: width, glyphs: glyphs, palette: ChartPalette(enabled: colour))
    }
}
