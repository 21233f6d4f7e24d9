import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// What the glance line is worked out from: the consensus hours ahead and the place's local clock.
public struct GlanceInput: Sendable {
    /// Consensus hours after the present hour, in time order.
    public let hoursAhead: [ConsensusHour]
    /// The local day of the present hour, to tell today's hours from later ones.
    public let today: LocalDate

    /// The hours of `consensus` after the hour the view starts at (see `ForecastWindow`).
    public init(consensus: ConsensusResult, window: ForecastWindow) {
        hoursAhead = consensus.hourly.filter { $0.time > window.start }
        today = LocalDate(window.start, utcOffsetSeconds: consensus.current?.utcOffsetSeconds ?? hoursAhead.first?.utcOffsetSeconds ?? 0)
    }

    /// Creates an input from hours (for tests).
    public init(hoursAhead: [ConsensusHour], today: LocalDate) {
        self.hoursAhead = hoursAhead
        self.today = today
    }

    /// An hour's local clock, with its weekday when it is not today: `15:00`, `Sun 03:00`.
    public func when(_ hour: ConsensusHour) -> (short: String, spoken: String) {
        let clock = CivilTime.clock(hour.time, utcOffsetSeconds: hour.utcOffsetSeconds)
        let date = LocalDate(hour.time, utcOffsetSeconds: hour.utcOffsetSeconds)
        guard date != today else { return (clock, clock) }
        return ("\(date.weekdayName) \(clock)", "\(clock) on \(PlainWords.weekday(date))")
    }
}

/// One part of the glance line, in a table's short words and in a spoken sentence.
public struct GlanceClause: Equatable, Sendable {
    /// For the line under a table: `rain likely at 15:00 (chance 60 %)`.
    public let short: String
    /// For plain output, a whole sentence: `Rain is likely at 15:00, a 60 percent chance.`
    public let spoken: String
}

/// The line that answers "do I need sunscreen? an umbrella?" from the consensus: one clause each.
public enum Glance: Sendable {
    /// The clauses in the order they are said; each may have nothing to say. A new question is one more entry.
    public static let clauses: [@Sendable (GlanceInput) -> GlanceClause?] = [Sunscreen.clause, Umbrella.clause]

    /// `At a glance: …; …`, or nil when no clause has anything to say.
    public static func line(_ input: GlanceInput) -> String? {
        let parts = clauses.compactMap { $0(input) }
        return parts.isEmpty ? nil : "At a glance: " + parts.map(\.short).joined(separator: "; ") + "\n"
    }

    /// The clauses as sentences, or nil when none has anything to say.
    public static func sentences(_ input: GlanceInput) -> String? {
        let parts = clauses.compactMap { $0(input) }
        return parts.isEmpty ? nil : parts.map(\.spoken).joined(separator: " ") + "\n"
    }
}

/// The first of the next 12 hours whose consensus chance of precipitation is 50 % or more.
public enum Umbrella: Sendable {
    /// Hours looked at.
    public static let hours = 12
    /// The chance, in percent, from which precipitation counts as likely.
    public static let likely = 50.0

    /// The clause, or nil when there are no hours ahead at all.
    public static func clause(_ input: GlanceInput) -> GlanceClause? {
        let ahead = Array(input.hoursAhead.prefix(hours))
        guard !ahead.isEmpty else { return nil }
        let chances = ahead.compactMap { hour in hour[.precipitationProbability].map { (hour, $0.value) } }
        guard !chances.isEmpty else {
            return GlanceClause(short: "no chance of precipitation given for the next \(ahead.count) hours",
                                spoken: "No provider gives a chance of precipitation for the next \(ahead.count) hours.")
        }
        guard let (hour, chance) = chances.first(where: { $0.1 >= likely }) else {
            let span = ahead.count == 1 ? "hour" : "\(ahead.count) hours"
            return GlanceClause(short: "no rain expected in the next \(span)", spoken: "No rain is expected in the next \(span).")
        }
        let what = kind(hour.condition?.value)
        let when = input.when(hour)
        let percent = Int(chance.rounded())
        return GlanceClause(short: "\(what) likely at \(when.short) (chance \(percent) %)",
                            spoken: "\(what.capitalizedFirst) is likely at \(when.spoken), a \(percent) percent chance.")
    }

    /// `snow` for the snowy conditions, else `rain`.
    public static func kind(_ condition: Condition?) -> String {
        switch condition {
        case .snow?, .snowShowers?, .snowGrains?: "snow"
        case .rainAndSnow?: "sleet"
        default: "rain"
        }
    }
}
