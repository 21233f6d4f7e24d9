import FoundationEssentials
import IsobarCore

extension ConsensusMerger {
    /// Every local day some provider has a value for, merged: each provider's own day where it gives the field,
    /// else the day computed from its hours.
    func daily() -> [ConsensusDayV1] {
        let native = reports.map { report in Dictionary(report.daily.map { ($0.date, $0) }, uniquingKeysWith: { _, later in later }) }
        // A day holding only the sun's times (OpenWeatherMap's today) adds no day of its own.
        var dates = Set(native.flatMap { $0.values.filter { !$0.holdsOnlySunTimes }.map(\.date) })
        for aligned in series where aligned.count > 0 {
            let first = calendar.localDate(of: aligned.time(ofHour: aligned.firstHour))
            let last = calendar.localDate(of: aligned.time(ofHour: aligned.firstHour + aligned.count - 1))
            for day in first.daysSinceEpoch...last.daysSinceEpoch { dates.insert(LocalDate(daysSinceEpoch: day)) }
        }
        return dates.sorted().compactMap { date in
            let interval = calendar.interval(of: date)
            let days = series.indices.map { index in
                let own = native[index][date]
                // A day computed from the hours only stands in for what the provider's own day lacks.
                return DayInputs(native: own, derived: DayInputs.isComplete(own) ? nil : series[index].derivedDay(date, interval: interval))
            }
            return day(date, interval: interval, inputs: days)
        }
    }

    /// The merge of one local day, nil when no provider has anything for it.
    private func day(_ date: LocalDate, interval: Range<Date>, inputs days: [DayInputs]) -> ConsensusDayV1? {
        let middle = interval.lowerBound.addingTimeInterval(interval.upperBound.timeIntervalSince(interval.lowerBound) / 2)
        let lead = leadHours(middle)
        let factor = leadFactor(lead)
        var values: [DailyQuantity: MergedField] = [:]
        // The mean confidence's sum, in the order `meanConfidence` adds it; and whether some field is more than the sun's times.
        var confidenceSum = 0.0
        var confidenceCount = 0
        var anyForecast = false
        for (slot, quantity) in QuantitySlot.allDaily.enumerated() {
            var inputs: [ProviderValue] = []
            var missing: [String] = []
            for (index, day) in days.enumerated() {
                if let (value, origin) = day.values[slot] {
                    inputs.append(ProviderValue(provider: ids[index], value: value, weight: weights[index], origin: origin))
                } else {
                    missing.append(ids[index])
                }
            }
            guard let merged = field(inputs, missing: missing, floor: dailyFloors[slot], circular: quantity.spec.circular, leadFactor: factor) else { continue }
            confidenceSum += merged.confidence
            confidenceCount += 1
            // The sun's times alone (OpenWeatherMap's today before its first complete day) are no forecast day.
            if quantity != .sunrise && quantity != .sunset && quantity != .daylightDuration { anyForecast = true }
            values[quantity] = merged
        }
        var votes: [ConditionVote] = []
        var missing: [String] = []
        var evidence: [PrecipitationEvidence] = []
        for (index, day) in days.enumerated() {
            if let (condition, origin) = day.condition {
                votes.append(ConditionVote(provider: ids[index], condition: condition, weight: weights[index], origin: origin))
            } else {
                missing.append(ids[index])
            }
            let amount = day.values[DayInputs.amountSlot]?.0
            let probability = day.values[DayInputs.chanceSlot]?.0
            if amount != nil || probability != nil { evidence.append(PrecipitationEvidence(amountMM: amount, probabilityPercent: probability)) }
        }
        let merged = condition(votes, dry: ConditionMerge.isDry(evidence, configuration: configuration), missing: missing, leadFactor: factor)
        guard anyForecast || merged != nil else { return nil }
        if let merged {
            confidenceSum += merged.confidence
            confidenceCount += 1
        }
        return ConsensusDayV1(
            date: date, start: interval.lowerBound, end: interval.upperBound, utcOffsetSeconds: calendar.utcOffsetSeconds(at: interval.lowerBound),
            leadHours: lead, values: values, condition: merged,
            confidence: confidenceCount > 0 ? confidenceSum / Double(confidenceCount) : nil)
    }
}

/// One provider's day, resolved once: for each daily quantity its own value where it gives one, else the one computed from
/// its hours; the same for its condition.
private struct DayInputs {
    /// By position in `QuantitySlot.allDaily`: the value and where it came from.
    var values: [(Double, ValueOrigin)?]
    /// The condition and where it came from.
    var condition: (Condition, ValueOrigin)?

    /// Positions of the day's amount and highest chance of precipitation in `values`.
    static let amountSlot = QuantitySlot.allDaily.firstIndex(of: .precipitationSum)!
    static let chanceSlot = QuantitySlot.allDaily.firstIndex(of: .precipitationProbabilityMax)!

    init(native: DailyPoint?, derived: DailyPoint?) {
        if let native {
            let dayIsDerived = native.isDerived
            let someDerived = !native.derivedQuantities.isEmpty
            values = QuantitySlot.allDaily.map { quantity in
                if let value = native[quantity] {
                    return (value, dayIsDerived || (someDerived && native.derivedQuantities.contains(quantity)) ? .derived : .given)
                }
                return derived?[quantity].map { ($0, .derived) }
            }
            if let condition = native.condition {
                self.condition = (condition, dayIsDerived ? .derived : .given)
                return
            }
        } else {
            values = QuantitySlot.allDaily.map { quantity in derived?[quantity].map { ($0, .derived) } }
        }
        condition = derived?.condition.map { ($0, .derived) }
    }

    /// True when a provider's own day gives every daily quantity and a condition, so none is taken from its hours.
    static func isComplete(_ day: DailyPoint?) -> Bool {
        guard let day, day.condition != nil else { return false }
        return !QuantitySlot.allDaily.contains { day[$0] == nil }
    }
}
