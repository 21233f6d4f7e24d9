import IsobarConsensus
import IsobarCore

/// Today's UV peak from the consensus, with its WHO category: the "do I need sunscreen?" clause of the glance line.
public enum Sunscreen: Sendable {
    /// The clause, or nil when no hour left today has a UV index; a peak below 0.5 is said without an hour.
    public static func clause(_ input: GlanceInput) -> GlanceClause? {
        let today = input.hoursAhead.filter { LocalDate($0.time, utcOffsetSeconds: $0.utcOffsetSeconds) == input.today }
        let values = today.compactMap { hour in hour[.uvIndex].map { (hour, $0.value) } }
        // The first hour of the highest value: the peak, said to a whole number as the WHO scale is.
        guard let (hour, peak) = values.reduce(nil, { (best: (ConsensusHour, Double)?, next) in
            guard let best else { return next }
            return next.1.rounded() > best.1.rounded() ? next : best
        }) else { return nil }
        let index = Int(peak.rounded())
        guard index > 0 else {
            return GlanceClause(short: "no UV for the rest of today", spoken: "The UV index stays at 0 for the rest of today.")
        }
        let category = category(index)
        let when = input.when(hour)
        return GlanceClause(short: "UV \(category.short) today (peak \(index) at \(when.short))",
                            spoken: "The UV index peaks at \(index) at \(when.spoken), \(category.spoken)\(category.advice)")
    }

    /// The WHO category of a UV index: low (0–2), moderate (3–5), high (6–7), very high (8–10), extreme (11+).
    public static func category(_ index: Int) -> (short: String, spoken: String, advice: String) {
        switch index {
        case ..<3: ("low", "low", ": no protection needed.")
        case 3...5: ("moderate", "moderate", ": sun protection is advised around midday.")
        case 6...7: ("high", "high", ": sun protection is needed.")
        case 8...10: ("very high", "very high", ": extra protection is needed.")
        default: ("extreme", "extreme", ": avoid the midday sun.")
        }
    }
}
