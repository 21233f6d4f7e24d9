import IsobarCore

/// One provider's condition in a vote.
public struct ConditionVote: Sendable, Equatable {
    /// The provider.
    public var provider: String
    /// Its condition.
    public var condition: Condition
    /// Its weight in the vote.
    public var weight: Double
    /// Where the condition came from (held over a longer step counts as interpolated).
    public var origin: ValueOrigin

    /// Creates a vote.
    public init(provider: String, condition: Condition, weight: Double = 1, origin: ValueOrigin = .given) {
        self.provider = provider
        self.condition = condition
        self.weight = weight
        self.origin = origin
    }
}

/// What the sources say about precipitation, for checking a precipitation condition.
public struct PrecipitationEvidence: Sendable, Equatable {
    /// Amount over the period (an hour, a day, or the current sample's period), mm.
    public var amountMM: Double?
    /// Chance of precipitation, %.
    public var probabilityPercent: Double?

    /// Creates evidence.
    public init(amountMM: Double?, probabilityPercent: Double?) {
        self.amountMM = amountMM
        self.probabilityPercent = probabilityPercent
    }
}

/// A merged condition: the winner of the weighted vote, the votes, and whether a precipitation winner was demoted.
public struct MergedConditionV1: Sendable, Equatable {
    /// The consensus condition.
    public var value: Condition
    /// Every provider's vote, in input order.
    public var votes: [ConditionVote]
    /// Providers in the merge that gave no condition.
    public var missing: [String]
    /// The precipitation condition that won the vote but was demoted because every source was dry; nil when none was.
    public var demotedFrom: Condition?
    /// Confidence in 0…1 (see `ConsensusConfidence`).
    public var confidence: Double

    /// Creates a merged condition (for tests and renderers; merges come from `ConditionMerge`).
    public init(value: Condition, votes: [ConditionVote], missing: [String] = [], demotedFrom: Condition? = nil, confidence: Double) {
        self.value = value
        self.votes = votes
        self.missing = missing
        self.demotedFrom = demotedFrom
        self.confidence = confidence
    }

    /// True when the vote's precipitation condition was implausible and was demoted.
    public var isImplausible: Bool { demotedFrom != nil }
}

/// The condition vote with its precipitation cross-check.
///
/// Each condition gets the sum of the weights of the providers voting for it; the heaviest wins, and a tie
/// (within 10⁻⁹ of the total) goes to the more severe condition. When the winner is a precipitation condition
/// (drizzle and worse, except squall and tornado), at least one source gives an amount, every amount is at most
/// 0 mm and every chance given is below 30 %, the winner is implausible: it is replaced by the heaviest
/// non-precipitation condition in the vote (ties to the more severe), or `cloudy` when there is none.
public enum ConditionMerge {
    /// Merges votes with positive weights; nil when there are none.
    public static func merge(
        _ votes: [ConditionVote], evidence: [PrecipitationEvidence], missing: [String] = [], leadHours: Double = 0,
        configuration: ConsensusConfiguration = ConsensusConfiguration()
    ) -> MergedConditionV1? {
        merge(owning: votes, dry: isDry(evidence, configuration: configuration), missing: missing,
              leadFactor: ConsensusConfidence.leadTime(hours: leadHours, halfLifeHours: configuration.leadTimeHalfLifeHours))
    }

    /// The merge of votes the caller hands over, with `isDry` and the lead-time factor of `ConsensusConfidence` already
    /// worked out: the same result as `merge(_:evidence:missing:leadHours:configuration:)`.
    static func merge(owning votes: consuming [ConditionVote], dry: Bool, missing: [String], leadFactor: Double) -> MergedConditionV1? {
        var votes = votes
        if !votes.allSatisfy({ $0.weight > 0 && $0.weight.isFinite }) { votes.removeAll { !($0.weight > 0 && $0.weight.isFinite) } }
        guard !votes.isEmpty else { return nil }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: conditions.count) { tally in
            tally.initialize(repeating: 0)
            // Summed in weight order, so the order of the providers cannot change the last bit.
            let firstWeight = votes[0].weight
            if votes.allSatisfy({ $0.weight == firstWeight }) {
                for vote in votes { tally[vote.condition.rawValue] += vote.weight }
            } else {
                for vote in votes.sorted(by: { $0.weight < $1.weight }) { tally[vote.condition.rawValue] += vote.weight }
            }
            var total = 0.0
            for weight in tally { total += weight }
            var value = heaviest(tally, total: total) { _ in true }!
            var demoted: Condition?
            if value.isPrecipitation && dry {
                demoted = value
                value = heaviest(tally, total: total) { !$0.isPrecipitation } ?? .cloudy
            }
            let agreement = tally[value.rawValue] / total
            // As `ConsensusConfidence.confidence`, with the lead-time factor worked out once per hour.
            let confidence = agreement * ConsensusConfidence.wholeSources(weight: total) * leadFactor
            return MergedConditionV1(value: value, votes: votes, missing: missing, demotedFrom: demoted, confidence: confidence)
        }
    }

    /// Every condition, least severe first (kept, as `allCases` builds a new array each time it is read).
    private static let conditions = Condition.allCases

    /// True when some source gives an amount, every amount is dry and every chance given is low.
    static func isDry(_ evidence: [PrecipitationEvidence], configuration: ConsensusConfiguration) -> Bool {
        var anyAmount = false
        for item in evidence {
            if let amount = item.amountMM {
                anyAmount = true
                if amount > configuration.dryPrecipitationMM { return false }
            }
            if let probability = item.probabilityPercent, probability >= configuration.lowPrecipitationProbabilityPercent { return false }
        }
        return anyAmount
    }

    /// The condition with the most weight among those `allowed` with some weight; ties go to the more severe.
    private static func heaviest(_ tally: UnsafeMutableBufferPointer<Double>, total: Double, allowed: (Condition) -> Bool) -> Condition? {
        var best: Condition?
        for condition in conditions where tally[condition.rawValue] > 0 && allowed(condition) {
            // Conditions run from least to most severe, so `>=` within the tolerance hands ties to the later one.
            if let current = best, tally[condition.rawValue] < tally[current.rawValue] - 1e-9 * total { continue }
            best = condition
        }
        return best
    }
}
