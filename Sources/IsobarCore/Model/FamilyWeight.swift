/// How much the sources of one family (one upstream, e.g. every Open-Meteo model) weigh together in the consensus.
///
/// Each source's weight is multiplied by `factor(members:)`, so a family of `n` sources at weight 1 weighs
/// `n × factor` in all: 1 for `.one`, `n` for `.each`, `min(n, k)` for `.atMost(k)`.
public enum FamilyWeight: Sendable, Equatable {
    /// A family weighs as one source (the default): two copies of one model never outvote an independent source.
    case one
    /// Every source weighs in full, family or not.
    case each
    /// A family weighs as at most this many sources (at least 1).
    case atMost(Double)

    /// The factor applied to the weight of each of a family's `members` sources.
    public func factor(members: Int) -> Double {
        guard members > 1 else { return 1 }
        let count = Double(members)
        switch self {
        case .one: return 1 / count
        case .each: return 1
        case .atMost(let limit): return Swift.min(count, Swift.max(1, limit)) / count
        }
    }
}
