import FoundationEssentials
import IsobarCore

/// One merged number: the consensus value, the range of the inputs and who contributed.
public struct MergedValue: Sendable, Equatable {
    /// The consensus value (median; for directions, the circular mean).
    public var value: Double
    /// Lowest input (for directions, the start of the smallest arc holding every input).
    public var min: Double
    /// Highest input (for directions, the end of that arc).
    public var max: Double
    /// `max − min` (for directions, the width of the arc).
    public var spread: Double
    /// Providers whose values were merged, in input order.
    public var providers: [String]
}

/// A merged condition: the winner of the vote and every provider's vote.
public struct MergedCondition: Sendable, Equatable {
    /// The winning condition.
    public var condition: Condition
    /// Each provider's condition, in input order.
    public var votes: [(provider: String, condition: Condition)]

    public static func == (lhs: MergedCondition, rhs: MergedCondition) -> Bool {
        lhs.condition == rhs.condition && lhs.votes.map(\.provider) == rhs.votes.map(\.provider)
            && lhs.votes.map(\.condition) == rhs.votes.map(\.condition)
    }
}

/// Merged values at one instant.
public struct ConsensusSample: Sendable, Equatable {
    /// The instant (UTC).
    public var time: Date
    /// Merged quantities; a quantity no provider gave is absent.
    public var values: [Quantity: MergedValue]
    /// The merged condition, when any provider gave one.
    public var condition: MergedCondition?
}

/// Merged values for one local day.
public struct ConsensusDay: Sendable, Equatable {
    /// The local day.
    public var date: LocalDate
    /// Merged daily quantities.
    public var values: [DailyQuantity: MergedValue]
    /// The merged condition.
    public var condition: MergedCondition?
}

/// The merge of every provider's answer for one place.
public struct Consensus: Sendable, Equatable {
    /// The place.
    public var place: Place
    /// Providers that answered, in display order.
    public var providers: [String]
    /// UTC offset used for local times and days.
    public var utcOffsetSeconds: Int
    /// IANA zone, when a provider or the place names one.
    public var timeZoneIdentifier: String?
    /// Merged current conditions.
    public var current: ConsensusSample?
    /// Merged forecast steps on the union of the providers' instants.
    public var hourly: [ConsensusSample]
    /// Merged local days.
    public var daily: [ConsensusDay]
}

/// The first merge: median per field, spread as max − min, condition by vote. The full robust merge replaces it later.
public enum ConsensusV0 {
    /// Merges the reports; days come from each provider's own days, or are computed from its steps when it has none.
    public static func merge(_ reports: [WeatherReport], place: Place) -> Consensus {
        let offset = reports.lazy.compactMap(\.utcOffsetSeconds).first ?? place.utcOffsetSeconds ?? 0
        let zone = reports.lazy.compactMap(\.timeZoneIdentifier).first ?? place.timeZoneIdentifier
        let currents = reports.compactMap { report in report.current.map { (report.providerID, $0) } }
        let current = currents.isEmpty ? nil : mergeSamples(currents, time: currents.map(\.1.time).max()!)

        var byInstant: [Date: [(String, WeatherSample)]] = [:]
        for report in reports {
            for step in report.hourly { byInstant[step.time, default: []].append((report.providerID, step)) }
        }
        let hourly = byInstant.keys.sorted().map { mergeSamples(byInstant[$0]!, time: $0) }

        var byDay: [LocalDate: [(String, DailyPoint)]] = [:]
        for report in reports {
            let days = report.daily.isEmpty
                ? DailyAggregation.days(from: report.hourly, utcOffsetSeconds: report.utcOffsetSeconds ?? offset)
                : report.daily
            for day in days { byDay[day.date, default: []].append((report.providerID, day)) }
        }
        let daily = byDay.keys.sorted().map { date in
            let entries = byDay[date]!
            var values: [DailyQuantity: MergedValue] = [:]
            for quantity in DailyQuantity.allCases {
                let inputs = entries.compactMap { entry in entry.1[quantity].map { (entry.0, $0) } }
                values[quantity] = merge(inputs, circular: quantity == .windDirectionDominant)
            }
            return ConsensusDay(date: date, values: values, condition: vote(entries.map { ($0.0, $0.1.condition) }))
        }
        return Consensus(
            place: place, providers: reports.map(\.providerID), utcOffsetSeconds: offset, timeZoneIdentifier: zone,
            current: current, hourly: hourly, daily: daily)
    }

    /// Merges one number per provider; nil for no inputs.
    public static func merge(_ inputs: [(String, Double)], circular: Bool = false) -> MergedValue? {
        guard !inputs.isEmpty else { return nil }
        let values = inputs.map(\.1)
        let providers = inputs.map(\.0)
        if circular, let arc = CircularStatistics.arc(values) {
            let mean = CircularStatistics.mean(values) ?? arc.start
            return MergedValue(value: mean, min: arc.start, max: arc.end, spread: arc.width, providers: providers)
        }
        let low = values.min()!
        let high = values.max()!
        return MergedValue(value: median(values), min: low, max: high, spread: high - low, providers: providers)
    }

    /// The median; the mean of the two middle values for an even count.
    public static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    private static func mergeSamples(_ entries: [(String, WeatherSample)], time: Date) -> ConsensusSample {
        var values: [Quantity: MergedValue] = [:]
        for quantity in Quantity.allCases {
            let inputs = entries.compactMap { entry in entry.1[quantity].map { (entry.0, $0) } }
            values[quantity] = merge(inputs, circular: quantity == .windDirection)
        }
        return ConsensusSample(time: time, values: values, condition: vote(entries.map { ($0.0, $0.1.condition) }))
    }

    private static func vote(_ entries: [(String, Condition?)]) -> MergedCondition? {
        let votes = entries.compactMap { entry in entry.1.map { (provider: entry.0, condition: $0) } }
        return Vote.winner(votes.map(\.condition)).map { MergedCondition(condition: $0, votes: votes) }
    }
}
