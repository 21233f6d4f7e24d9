import FoundationEssentials
import IsobarCore

/// Builds local calendar days from forecast steps, for providers that give no days of their own.
public enum DailyAggregation {
    /// Complete local days (steps covering all 24 hours) computed from `steps` at a fixed UTC offset.
    ///
    /// A step belongs to the day in which its period ends (a step ending at 00:00 closes the previous day).
    public static func days(from steps: [WeatherSample], utcOffsetSeconds offset: Int) -> [DailyPoint] {
        var byDay: [LocalDate: [WeatherSample]] = [:]
        for step in steps {
            let instantBeforeEnd = step.time.addingTimeInterval(-1)
            byDay[LocalDate(instantBeforeEnd, utcOffsetSeconds: offset), default: []].append(step)
        }
        return byDay.keys.sorted().compactMap { date in
            let members = byDay[date]!
            let coveredHours = members.reduce(0) { $0 + $1.periodHours }
            guard coveredHours >= 24 - 1e-9 else { return nil }
            var day = DailyPoint(date: date, isDerived: true)
            day.temperatureMaxC = members.compactMap(\.temperatureC).max()
            day.temperatureMinC = members.compactMap(\.temperatureC).min()
            let amounts = members.compactMap(\.precipitationMM)
            day.precipitationMM = amounts.count == members.count ? amounts.reduce(0, +) : nil
            day.precipitationProbabilityMaxPercent = members.compactMap(\.precipitationProbabilityPercent).max()
            day.windSpeedMaxMS = members.compactMap(\.windSpeedMS).max()
            day.windGustMaxMS = members.compactMap(\.windGustMS).max()
            day.windDirectionDominantDeg = CircularStatistics.mean(members.compactMap(\.windDirectionDeg))
            day.condition = Vote.winner(members.compactMap(\.condition))
            return day
        }
    }
}

/// Majority vote over conditions.
public enum Vote {
    /// The most frequent condition; a tie goes to the more severe one. Nil for no votes.
    public static func winner(_ votes: [Condition]) -> Condition? {
        var counts: [Condition: Int] = [:]
        for vote in votes { counts[vote, default: 0] += 1 }
        return counts.max { ($0.value, $0.key) < ($1.value, $1.key) }?.key
    }
}
