import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Confidence in 0…1 of a merged value: agreement × sources × lead time.
///
///     confidence = A × S × L
///     A = 1 / (1 + (s / f)²)    agreement: s = max − min of the values that made the consensus
///                               (outliers left out; for conditions see below), f = the quantity's floor
///     S = 1 − 2^(−n)            sources: n = total weight of the values that made the consensus
///                               (1 per provider by default: 1 → 0.5, 2 → 0.75, 3 → 0.875, 4 → 0.94)
///     L = 2^(−h / H)            lead time: h = hours from the reference time to the value's time
///                               (0 for the past and for current conditions; a day's middle for a day),
///                               H = the half-life, 168 h by default
///
/// For a condition, A is the share of the vote weight behind the final condition and n the total vote weight.
/// The overall confidence of an hour or a day is the mean of the confidences of its fields and its condition.
public enum ConsensusConfidence {
    /// Agreement of values whose range is `spread`, for a quantity with `floor`: 1 at no spread, ½ at the floor.
    public static func agreement(spread: Double, floor: Double) -> Double {
        guard floor > 0 else { return spread == 0 ? 1 : 0 }
        let ratio = spread / floor
        return 1 / (1 + ratio * ratio)
    }

    /// The sources factor for a total weight `n`: 1 − 2^(−n).
    public static func sources(weight n: Double) -> Double { n > 0 ? 1 - pow(2, -n) : 0 }

    /// `sources(weight:)`, looked up rather than computed for the whole weights 1…16 most merges have.
    static func wholeSources(weight n: Double) -> Double {
        if n >= 1, n <= 16, n == n.rounded(.down) { return sourcesOfWholeWeights[Int(n)] }
        return sources(weight: n)
    }

    private static let sourcesOfWholeWeights = (0...16).map { sources(weight: Double($0)) }

    /// The lead-time factor for `hours` ahead: 2^(−hours / halfLife), 1 for the past.
    public static func leadTime(hours: Double, halfLifeHours: Double) -> Double {
        guard hours > 0, halfLifeHours > 0 else { return 1 }
        return pow(2, -hours / halfLifeHours)
    }

    /// The product of the three factors.
    public static func confidence(agreement: Double, sourceWeight: Double, leadHours: Double, halfLifeHours: Double) -> Double {
        agreement * sources(weight: sourceWeight) * leadTime(hours: leadHours, halfLifeHours: halfLifeHours)
    }
}
