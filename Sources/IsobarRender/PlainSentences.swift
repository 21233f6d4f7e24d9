import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// The sentences of each view, from the consensus.
public struct PlainSentences: Sendable {
    /// Units, providers and place.
    public let context: RenderContext
    /// The merge.
    public let consensus: ConsensusResult

    private var units: UnitSystem { context.units }

    private func measure(_ field: MergedField?, _ dimension: Dimension) -> String? {
        field.map { PlainWords.measure($0.value, dimension, units) }
    }

    private func number(_ value: Double, _ dimension: Dimension) -> String { PlainWords.number(value, dimension, units) }

    /// `Minsk, Minsk City, BY, now at 12:00: snow, minus 0.4 degrees Celsius, feels like minus 4.2.`, the wind, the rest,
    /// and how far the providers agree on the temperature.
    public func now() -> String {
        guard let current = consensus.current else { return "\(context.spokenPlace): no current conditions.\n" }
        let clock = CivilTime.clock(current.time, utcOffsetSeconds: current.utcOffsetSeconds)
        let values = current.values
        var opening = [current.condition?.value.label, measure(values[.temperature], .temperature)].compactMap { $0 }
        if let feels = values[.apparentTemperature] { opening.append("feels like \(number(feels.value, .temperature))") }
        var lines = ["\(context.spokenPlace), now at \(clock): \(opening.isEmpty ? "no values" : opening.joined(separator: ", "))."]
        if let speed = values[.windSpeed] {
            var wind = "Wind"
            if let direction = values[.windDirection] { wind += " from \(PlainWords.direction(direction.value))" }
            wind += " at \(PlainWords.measure(speed.value, .speed, units))"
            if let gust = values[.windGust] { wind += ", gusts \(number(gust.value, .speed))" }
            lines.append(wind + ".")
        }
        let rest = [(Quantity.humidity, "humidity"), (.pressure, "pressure"), (.cloudCover, "cloud cover"), (.visibility, "visibility"),
                    (.precipitationRate, "precipitation")].compactMap { quantity, name in
            values[quantity].map { "\(name) \(PlainWords.measure($0.value, quantity.dimension, units))" }
        }
        if !rest.isEmpty { lines.append(rest.joined(separator: ", ").capitalizedFirst + ".") }
        lines.append(agreement(values[.temperature], .temperature))
        if let temperature = values[.temperature], let learned = temperature.learned {
            let likely = PlainWords.likely(learned.low, learned.high, .temperature, units, withUnit: true)
            lines.append("The temperature is \(likely) (an 80 percent interval, \(PlainWords.basis([learned.basis]))).")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `Open-Meteo GFS, left out as an outlier` (`…, left out as outliers` for several).
    private func leftOut(_ field: MergedField) -> String {
        let names = field.outliers.map { context.name(of: $0) }
        return "\(PlainWords.list(names)), left out as \(names.count == 1 ? "an outlier" : "outliers")"
    }

    /// How far the providers agree on a field, in words.
    public func agreement(_ field: MergedField?, _ dimension: Dimension) -> String {
        guard let field else { return "No provider gave a \(dimension == .temperature ? "temperature" : "value")." }
        let names = field.inputs.map { context.name(of: $0.provider) }
        guard field.inputs.count > 1 else { return "From one provider, \(names.first ?? "")." }
        let each = field.inputs.map { "\(context.name(of: $0.provider)) \(number($0.value, dimension))" }
        if !field.outliers.isEmpty {
            let left = field.outliers.map { context.name(of: $0) }
            var text = "The providers differ: \(PlainWords.list(each)); \(PlainWords.list(left)) left out as "
                + (left.count == 1 ? "an outlier" : "outliers")
            let kept = field.inputs.count - left.count
            if kept > 1 {
                let within = Self.within(context.units.convertDifference(field.spreadWithoutOutliers(circular: dimension == .direction), dimension))
                text += ", the other \(kept) agree"
                if let within { text += " within \(within) \(PlainWords.differenceUnit(dimension, units, singular: within == 1))" }
            }
            return text + "."
        }
        let spread = context.units.convertDifference(field.spread, dimension)
        if field.disagreement?.exceedsFloor == true {
            let text = PlainWords.difference(field.spread, dimension, units)
            return "The providers disagree by \(text) \(PlainWords.differenceUnit(dimension, units, singular: text == "1")): "
                + "\(PlainWords.list(each))."
        }
        guard let within = Self.within(spread) else { return "The \(field.inputs.count) providers agree." }
        return "The \(field.inputs.count) providers agree within \(within) \(PlainWords.differenceUnit(dimension, units, singular: within == 1))."
    }

    /// A spread (in the user's units) rounded up to a whole unit, nil when it is below 0.05 (the providers agree).
    private static func within(_ spread: Double) -> Int? {
        spread >= 0.05 ? Int(spread.rounded(.up)) : nil
    }

    /// Every quantity of the compare table as a sentence: the consensus, each provider, the spread and outliers in words.
    public func compare() -> String {
        guard let current = consensus.current else { return "\(context.spokenPlace): no current conditions.\n" }
        let names = context.providers.filter { consensus.providers.contains($0.id) }.map(\.name)
        let clock = CivilTime.clock(current.time, utcOffsetSeconds: current.utcOffsetSeconds)
        var lines = ["\(context.spokenPlace), now at \(clock), from \(names.count) provider\(names.count == 1 ? "" : "s"): "
            + "\(PlainWords.list(names))."]
        if let condition = current.condition {
            let said = condition.votes.map { "\(context.name(of: $0.provider)) \($0.condition.label)" }
            let same = Set(condition.votes.map(\.condition)).count <= 1
            lines.append("Condition: \(condition.value.label)" + (same ? (said.count > 1 ? ", all agree." : ".") : "; \(PlainWords.list(said))."))
        }
        for quantity in Quantity.weather where quantity != .precipitationProbability {
            guard let field = current[quantity] else { continue }
            lines.append(quantity == .windDirection ? directionSentence(field) : quantitySentence(quantity, field))
        }
        if let confidence = current.confidence { lines.append("Confidence \(Int((confidence * 100).rounded())) percent.") }
        return lines.joined(separator: "\n") + "\n"
    }

    private func quantitySentence(_ quantity: Quantity, _ field: MergedField) -> String {
        let dimension = quantity.dimension
        var text = "\(quantity.label): \(PlainWords.measure(field.value, dimension, units))"
        if quantity == .temperature, let learned = field.learned {
            text += ", \(PlainWords.likely(learned.low, learned.high, dimension, units, withUnit: false)) "
                + "(an 80 percent interval, \(PlainWords.basis([learned.basis])))"
        }
        guard field.inputs.count > 1 else { return text + ", from \(field.inputs.first.map { context.name(of: $0.provider) } ?? "one provider")." }
        text += "; " + PlainWords.list(field.inputs.map { "\(context.name(of: $0.provider)) \(number($0.value, dimension))" })
        let spread = PlainWords.difference(field.spreadWithoutOutliers(circular: false), dimension, units)
        text += "; spread \(spread) \(PlainWords.differenceUnit(dimension, units, singular: spread == "1"))" + withoutOutliers(field, dimension) + "."
        if field.disagreement?.exceedsFloor == true { text += " More apart than usual for this quantity." }
        return text
    }

    /// After a spread that leaves outliers out: ` without Open-Meteo GFS, left out as an outlier (4.5 with it)`; empty without
    /// outliers.
    private func withoutOutliers(_ field: MergedField, _ dimension: Dimension) -> String {
        guard !field.outliers.isEmpty else { return "" }
        let all = dimension == .direction ? "\(Int(field.spread.rounded()))" : PlainWords.difference(field.spread, dimension, units)
        return " without \(leftOut(field)) (\(all) with \(field.outliers.count == 1 ? "it" : "them"))"
    }

    private func directionSentence(_ field: MergedField) -> String {
        func said(_ degrees: Double) -> String { "\(PlainWords.direction(degrees)) (\(Int(degrees.rounded()) % 360) degrees)" }
        var text = "Wind from \(said(field.value))"
        if field.inputs.count > 1 {
            text += "; " + PlainWords.list(field.inputs.map { "\(context.name(of: $0.provider)) from \(said($0.value))" })
            text += "; spread \(Int(field.spreadWithoutOutliers(circular: true).rounded())) degrees" + withoutOutliers(field, .direction)
        }
        return text + "."
    }

    /// `Forecast for …:`, then one sentence a day (and one an hour with `--hourly`).
    public func forecast(window: ForecastWindow, days: Int, hourly: Bool) -> String {
        let offset = consensus.current?.utcOffsetSeconds ?? consensus.daily.first?.utcOffsetSeconds ?? context.place.utcOffsetSeconds ?? 0
        let shown = window.dates(consensus.daily, utcOffsetSeconds: offset, date: \.date)
        let hours = hourly ? window.hours(consensus.hourly, time: \.time) : []
        let bases = Set(shown.flatMap { [$0[.temperatureMax], $0[.temperatureMin]] }.compactMap { $0?.learned?.basis }
            + hours.compactMap { $0[.temperature]?.learned?.basis })
        let intervals = bases.isEmpty ? "" : ", with 80 percent intervals \(PlainWords.basis(bases))"
        var lines = ["Forecast for \(context.spokenPlace), by local day in \(consensus.zone)\(intervals):"]
        lines += shown.map(daySentence)
        if shown.isEmpty { lines.append("No days to show.") }
        if hourly {
            lines.append("Hour by hour:")
            lines += hours.map(hourSentence)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `high 15.3 degrees Celsius (providers from 15.2 to 15.5)`, the range of the values that made it, or its 80 % interval
    /// when it has one (`likely between 14.1 and 16.4`), and the values left out (`; an outlier at 3.8 left out`); the
    /// unit only when `withUnit`.
    private func ranged(_ field: MergedField?, _ dimension: Dimension, _ name: String, withUnit: Bool = true) -> String? {
        guard let field else { return nil }
        let text = "\(name) \(withUnit ? PlainWords.measure(field.value, dimension, units) : number(field.value, dimension))"
        return text + bracket(field, dimension)
    }

    /// ` (likely between … and …)` or ` (providers from … to …)`, then any outliers; empty when there is nothing to say.
    private func bracket(_ field: MergedField, _ dimension: Dimension) -> String {
        var said: [String] = []
        if let learned = field.learned {
            said.append(PlainWords.likely(learned.low, learned.high, dimension, units, withUnit: false))
        } else {
            let kept = field.inputs.filter { !$0.isOutlier }.map(\.value)
            if kept.count > 1, let least = kept.min(), let most = kept.max() {
                let (low, high) = (number(least, dimension), number(most, dimension))
                if low != high { said.append("providers from \(low) to \(high)") }
            }
        }
        let outliers = field.inputs.filter(\.isOutlier).map { number($0.value, dimension) }
        if !outliers.isEmpty {
            said.append("\(outliers.count == 1 ? "an outlier" : "outliers") at \(PlainWords.list(outliers)) left out")
        }
        return said.isEmpty ? "" : " (\(said.joined(separator: "; ")))"
    }

    private func daySentence(_ day: ConsensusDayV1) -> String {
        let length = abs(day.hours - 24) > 0.01 ? " (\(Int(day.hours)) hours)" : ""
        let parts = [
            day.condition.map { $0.value.label },
            ranged(day[.temperatureMax], .temperature, "high"), ranged(day[.temperatureMin], .temperature, "low", withUnit: day[.temperatureMax] == nil),
            day[.precipitationSum].map { "precipitation \(PlainWords.measure($0.value, .precipitationAmount, units))" },
            day[.precipitationProbabilityMax].map { "chance \(PlainWords.measure($0.value, .percent, units))" },
            day[.windSpeedMax].map { "wind up to \(PlainWords.measure($0.value, .speed, units))" },
            day[.windGustMax].map { "gusts \(number($0.value, .speed))" },
        ].compactMap { $0 }
        return "\(PlainWords.day(day.date))\(length): \(parts.isEmpty ? "no values" : parts.joined(separator: ", "))."
    }

    private func hourSentence(_ hour: ConsensusHour) -> String {
        let date = LocalDate(hour.time, utcOffsetSeconds: hour.utcOffsetSeconds)
        let parts = [
            hour.condition.map { $0.value.label },
            hour[.temperature].map { PlainWords.measure($0.value, .temperature, units) + ($0.learned == nil ? "" : bracket($0, .temperature)) },
            hour[.precipitationRate].map { "precipitation \(PlainWords.measure($0.value, .precipitationRate, units))" },
            hour[.precipitationProbability].map { "chance \(PlainWords.measure($0.value, .percent, units))" },
            hour[.windSpeed].map { "wind \(PlainWords.measure($0.value, .speed, units))" },
        ].compactMap { $0 }
        let clock = CivilTime.clock(hour.time, utcOffsetSeconds: hour.utcOffsetSeconds)
        return "\(PlainWords.weekday(date)) \(clock): \(parts.isEmpty ? "no values" : parts.joined(separator: ", "))."
    }
}
