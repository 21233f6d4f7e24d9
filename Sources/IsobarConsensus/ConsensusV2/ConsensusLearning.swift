/// How the v2 merge learns from the record (`"weights": "auto"`): the constants of the learned weights, the bias correction
/// and the record itself.
///
/// Weights, per field and lead bucket: each source's precision `1 / MSE` (its MSE about its own bias when the bias is
/// corrected), sources whose errors correlate above `correlationThreshold` (or that declare one upstream) pooled into a
/// family that weighs as much as its best member, then shrunk toward equal families by `λ = n / (n + k)`, where `n` is
/// the sources' mean number of (decayed) pairs and `k` is `shrinkagePairs`. Below `minimumPairs` the v1 rule is kept.
public struct ConsensusLearning: Sendable, Equatable {
    /// True to subtract each source's learned mean error (per field × lead bucket) before merging (`"bias_correction"`).
    public var biasCorrection = false
    /// `k` of the shrinkage `n / (n + k)`: at `k` pairs of history the learned and the equal weights count alike.
    public var shrinkagePairs = 24.0
    /// Fewer (decayed) pairs than this for a field and lead bucket leave it to the v1 rule, labelled as such.
    public var minimumPairs = 24.0
    /// Pairwise error correlation above which two sources weigh as one family.
    public var correlationThreshold = 0.7
    /// The record the weights, corrections and intervals are read from.
    public var record = SkillRecord()

    /// The defaults, with an empty record.
    public init(biasCorrection: Bool = false, record: SkillRecord = SkillRecord()) {
        self.biasCorrection = biasCorrection
        self.record = record
    }
}

/// How a merged value was weighted, as shown in provenance (`weighting`).
public enum Weighting: String, Sendable, Equatable {
    /// Learned weights from the record.
    case learned = "learned"
    /// Learned weights and learned bias corrections.
    case learnedCorrected = "learned (bias-corrected)"
    /// The v1 rule, because the record holds too little history for this field and lead time.
    case equalTooLittleHistory = "equal (too little history)"
}

/// Where a source's learned skill came from (`learned_basis`): Isobar's own archive, past forecasts (`isobar learn`), or
/// nowhere yet.
public enum LearnedBasis: String, Sendable, Equatable {
    /// Mostly pairs of Isobar's own archived forecasts.
    case archive
    /// Mostly past forecasts the source published (`isobar learn`).
    case backfill
    /// Nothing learned of it near the place.
    case none
}

/// Where an 80 % interval comes from (`interval_basis`).
public enum IntervalBasis: String, Sendable, Equatable {
    /// The record's quantiles of the consensus's own errors for the field and lead bucket, widened by unusual spread.
    case record
    /// No record: `1.2816 × √(sd² + (floor/2)²)` either side, from the spread of the inputs.
    case spread
}

/// The v2 provenance of one merged value: the interval, its basis, the weighting and each input's learned weight and
/// correction.
public struct LearnedField: Sendable, Equatable {
    /// The 80 % interval's lower end (internal unit).
    public var low: Double
    /// The 80 % interval's upper end.
    public var high: Double
    /// Where the interval comes from.
    public var basis: IntervalBasis
    /// How the value was weighted.
    public var weighting: Weighting
    /// Each input's share of the merge (sums to 1 over the inputs), by provider id.
    public var weights: [String: Double]
    /// Each input's bias correction subtracted before merging (0 when none), by provider id.
    public var corrections: [String: Double]

    /// Creates the provenance.
    public init(low: Double, high: Double, basis: IntervalBasis, weighting: Weighting, weights: [String: Double],
                corrections: [String: Double]) {
        self.low = low
        self.high = high
        self.basis = basis
        self.weighting = weighting
        self.weights = weights
        self.corrections = corrections
    }
}
