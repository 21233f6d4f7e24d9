import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// One line of the `compare` table: its label, each provider's cell, then the consensus, its spread and its confidence.
struct CompareRow {
    /// The row's label (`Temperature (°C)`).
    let label: String
    /// Each provider's cell, in column order.
    let providers: [String]
    /// The consensus cell.
    let consensus: String
    /// The spread cell.
    let spread: String
    /// The confidence cell.
    let confidence: String

    /// A row.
    init(_ label: String, _ providers: [String], _ consensus: String, _ spread: String, _ confidence: String) {
        self.label = label
        self.providers = providers
        self.consensus = consensus
        self.spread = spread
        self.confidence = confidence
    }
}

extension TableRenderer {
    /// The columns of `compare`: each provider's short header is its initials, when they differ from its name.
    static func compareColumns(names: [String]) -> TableColumns<TableLayouts.Compare, CompareRow> {
        let initials = Abbreviation.initials(names)
        return TableColumns([ColumnSpec(.label, "Now", left: true) { $0.label }]
            + zip(names, initials).enumerated().map { index, pair in
                ColumnSpec(.provider(index), pair.0, short: pair.0 == pair.1 ? nil : pair.1) { $0.providers[index] }
            }
            + [ColumnSpec(.consensus, "Consensus") { $0.consensus }, ColumnSpec(.spread, "Spread") { $0.spread },
               ColumnSpec(.confidence, "Confidence", short: "Conf.") { $0.confidence }])
    }

    /// The columns of the daily forecast.
    var dailyColumns: TableColumns<TableLayouts.Daily, ConsensusDayV1> {
        let units = context.units
        return TableColumns([
            ColumnSpec(.day, "Day", left: true) { day in
                let (_, month, dayOfMonth) = day.date.components
                return "\(day.date.weekdayName) \(Self.monthName(month)) \(dayOfMonth)" + (abs(day.hours - 24) > 0.01 ? " (\(Int(day.hours)) h)" : "")
            },
            ColumnSpec(.condition, "Condition", short: "Weather", left: true) { Self.conditionCell($0.condition) },
            ColumnSpec(.max, "Max \(unit(.temperature))") { formatMerged($0[.temperatureMax], .temperature) },
            ColumnSpec(.min, "Min \(unit(.temperature))") { formatMerged($0[.temperatureMin], .temperature) },
            ColumnSpec(.precipitation, "Precip. \(unit(.precipitationAmount))", short: "Pcp \(units.symbol(.precipitationAmount))") {
                formatMerged($0[.precipitationSum], .precipitationAmount)
            },
            ColumnSpec(.chance, "Chance %", short: "PoP %") { formatMerged($0[.precipitationProbabilityMax], .percent) },
            ColumnSpec(.wind, "Wind \(unit(.speed))") { formatMerged($0[.windSpeedMax], .speed) },
            ColumnSpec(.gusts, "Gusts \(unit(.speed))", short: "Gust \(units.symbol(.speed))") { formatMerged($0[.windGustMax], .speed) },
            ColumnSpec(.sources, "Sources", short: "Src") { Self.sourcesCell($0.values) },
            ColumnSpec(.confidence, "Conf.") { Self.percent($0.confidence) },
        ])
    }

    /// The columns of the hourly forecast.
    var hourlyColumns: TableColumns<TableLayouts.Hourly, ConsensusHour> {
        let units = context.units
        return TableColumns([
            ColumnSpec(.time, "Time", left: true) { hour in
                "\(LocalDate(hour.time, utcOffsetSeconds: hour.utcOffsetSeconds).weekdayName) \(CivilTime.clock(hour.time, utcOffsetSeconds: hour.utcOffsetSeconds))"
            },
            ColumnSpec(.condition, "Condition", short: "Weather", left: true) { Self.conditionCell($0.condition) },
            ColumnSpec(.temperature, "Temp \(unit(.temperature))") { formatMerged($0[.temperature], .temperature) },
            ColumnSpec(.precipitation, "Precip. \(unit(.precipitationRate))", short: "Pcp \(units.symbol(.precipitationRate))") {
                formatMerged($0[.precipitationRate], .precipitationRate)
            },
            ColumnSpec(.chance, "Chance %", short: "PoP %") { formatMerged($0[.precipitationProbability], .percent) },
            ColumnSpec(.wind, "Wind \(unit(.speed))") { formatMerged($0[.windSpeed], .speed) },
            ColumnSpec(.gusts, "Gusts \(unit(.speed))", short: "Gust \(units.symbol(.speed))") { formatMerged($0[.windGust], .speed) },
            ColumnSpec(.dewPoint, "Dew pt \(unit(.temperature))", short: "Dew \(units.symbol(.temperature))") {
                formatMerged($0[.dewPoint], .temperature)
            },
            ColumnSpec(.uv, "UV") { formatMerged($0[.uvIndex], .index) },
            ColumnSpec(.sources, "Sources", short: "Src") { Self.sourcesCell($0.values) },
            ColumnSpec(.confidence, "Conf.") { Self.percent($0.confidence) },
        ])
    }

    /// The columns of the days' sun, UV and moon: sunrise and sunset on the place's clock (`*`: a provider left out as an outlier).
    var sunColumns: TableColumns<TableLayouts.Sun, ConsensusDayV1> {
        func clock(_ day: ConsensusDayV1, _ quantity: DailyQuantity) -> String {
            guard let merged = day[quantity] else { return "–" }
            let time = CivilTime.clock(Date(timeIntervalSince1970: merged.value.rounded()), utcOffsetSeconds: day.utcOffsetSeconds)
            return time + (merged.outliers.isEmpty ? "" : "*")
        }
        return TableColumns([
            ColumnSpec(.day, "Day", left: true) { day in
                let (_, month, dayOfMonth) = day.date.components
                return "\(day.date.weekdayName) \(Self.monthName(month)) \(dayOfMonth)"
            },
            ColumnSpec(.uv, "UV max") { formatMerged($0[.uvIndexMax], .index) },
            ColumnSpec(.sunrise, "Sunrise") { clock($0, .sunrise) },
            ColumnSpec(.sunset, "Sunset") { clock($0, .sunset) },
            ColumnSpec(.daylight, "Daylight") { $0[.daylightDuration].map { Self.hoursAndMinutes($0.value) } ?? "–" },
            ColumnSpec(.moon, "Moon", left: true) { day in
                let moon = day.moonPhase
                return "\(moon.name), \(Int((moon.illumination * 100).rounded())) % lit"
            },
        ])
    }

    /// A merged condition's cell: its label, `(?)` when implausible, `–` without one.
    static func conditionCell(_ condition: MergedConditionV1?) -> String {
        condition.map { $0.value.label + ($0.isImplausible ? " (?)" : "") } ?? "–"
    }

    /// How many sources made a row's merged values.
    static func sourcesCell<Key>(_ values: [Key: MergedField]) -> String { String(Set(values.values.flatMap(\.contributors)).count) }
}
