import FoundationEssentials
import IsobarCore

extension AlignedSeries {
    /// A local day computed from the grid hours, each field only when every hour of the day has it; nil when none has.
    ///
    /// Instantaneous values (temperature, wind, gusts, direction) belong to the day holding their instant, so a day
    /// uses those from its 00:00 to its last hour; hours' amounts, chances and conditions belong to the day holding
    /// the hour's start, so a day uses the hours ending 01:00 … 24:00. A DST day has 23 or 25 of each.
    /// Max/min temperature, total precipitation, highest chance, highest wind, gust and UV index, circular mean of the
    /// directions, and the most frequent condition (a tie goes to the more severe).
    public func derivedDay(_ date: LocalDate, interval: Range<Date>) -> DailyPoint? {
        let start = interval.lowerBound.timeIntervalSince1970 / 3600
        let end = interval.upperBound.timeIntervalSince1970 / 3600
        let instants = Int(start.rounded(.up))...(Int(end.rounded(.up)) - 1)
        let windows = (instants.lowerBound + 1)...(instants.upperBound + 1)
        var day = DailyPoint(date: date, isDerived: true)
        if let temperatures = summary(.temperature, instants) {
            day.temperatureMaxC = temperatures.max
            day.temperatureMinC = temperatures.min
        }
        day.precipitationMM = summary(.precipitationRate, windows)?.sum
        day.precipitationProbabilityMaxPercent = summary(.precipitationProbability, windows)?.max
        day.windSpeedMaxMS = summary(.windSpeed, instants)?.max
        day.windGustMaxMS = summary(.windGust, instants)?.max
        day.windDirectionDominantDeg = values(.windDirection, instants).flatMap { CircularStatistics.mean($0) }
        day.uvIndexMax = summary(.uvIndex, instants)?.max
        day.condition = conditionWinner(windows)
        let hasValue = QuantitySlot.allDaily.contains { day[$0] != nil } || day.condition != nil
        return hasValue ? day : nil
    }

    /// `Vote.winner` of the hours' conditions (the most frequent; a tie goes to the more severe), nil unless every hour has one.
    private func conditionWinner(_ hours: ClosedRange<Int>) -> Condition? {
        guard hours.lowerBound >= firstHour, hours.upperBound < firstHour + count else { return nil }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.conditionCases.count) { counts in
            counts.initialize(repeating: 0)
            for hour in hours {
                guard let condition = conditions[hour - firstHour] else { return nil }
                counts[condition.rawValue] += 1
            }
            var winner: Condition?
            for condition in Self.conditionCases where counts[condition.rawValue] > 0 {
                if let best = winner, counts[condition.rawValue] < counts[best.rawValue] { continue }
                winner = condition
            }
            return winner
        }
    }

    private static let conditionCases = Condition.allCases

    /// The highest, the lowest and the sum (from 0, in hour order) of every hour's value of a quantity, or nil when one
    /// is missing.
    private func summary(_ quantity: Quantity, _ hours: ClosedRange<Int>) -> (max: Double, min: Double, sum: Double)? {
        guard hours.lowerBound >= firstHour, hours.upperBound < firstHour + count else { return nil }
        let base = quantity.consensusSlot * count - firstHour
        return columns.withUnsafeBufferPointer { column in
            var (highest, lowest, sum) = (-Double.infinity, Double.infinity, 0.0)
            for hour in hours {
                let value = column[base + hour]
                if value.isNaN { return nil }
                if value > highest { highest = value }
                if value < lowest { lowest = value }
                sum += value
            }
            return (highest, lowest, sum)
        }
    }

    /// Every hour's value of a quantity, or nil when one is missing.
    private func values(_ quantity: Quantity, _ hours: ClosedRange<Int>) -> [Double]? {
        guard hours.lowerBound >= firstHour, hours.upperBound < firstHour + count else { return nil }
        let base = quantity.consensusSlot * count - firstHour
        var result: [Double] = []
        result.reserveCapacity(hours.count)
        for hour in hours {
            let value = columns[base + hour]
            if value.isNaN { return nil }
            result.append(value)
        }
        return result
    }
}
