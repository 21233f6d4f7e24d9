import IsobarCore

/// One source's learned skill for one field and lead bucket.
public struct SourceSkill: Sendable, Equatable {
    /// Decayed number of pairs (recent pairs count more; the `n` of the shrinkage).
    public var pairs: Double
    /// Mean error, forecast − observed (positive: runs high).
    public var bias: Double
    /// Mean square error.
    public var meanSquareError: Double
    /// Mean absolute deviation of the errors from the bias: a spread that a few wild errors inflate less than the MSE.
    public var absoluteDeviation = 0.0
    /// True when the recent view of its errors disagreed with the long one beyond chance, so that bias, MSE and deviation
    /// are the recent view's (see `ChangeRule`), or when such a change at a shorter lead was carried to this one.
    public var isRecent = false
    /// The recent view's error variance over the long view's when the recent view won here (1 otherwise).
    public var changeRatio = 1.0

    /// Creates a skill.
    public init(pairs: Double, bias: Double, meanSquareError: Double, absoluteDeviation: Double = 0, isRecent: Bool = false) {
        self.pairs = pairs
        self.bias = bias
        self.meanSquareError = meanSquareError
        self.absoluteDeviation = absoluteDeviation
        self.isRecent = isRecent
    }

    /// The error a source usually makes once `correction` is subtracted, as a normal standard deviation:
    /// `1.2533 × absolute deviation + |bias − correction|`.
    public func typicalError(correction: Double) -> Double { 1.2533 * absoluteDeviation + abs(bias - correction) }

    /// The error variance about the bias: the MSE left once the bias is corrected.
    public var variance: Double { max(0, meanSquareError - bias * bias) }
}

/// Quantiles of the consensus's own errors (consensus − observed) in the record.
public struct ErrorQuantiles: Sendable, Equatable {
    /// The 10 % quantile.
    public var low: Double
    /// The 90 % quantile.
    public var high: Double
    /// The median spread of the inputs that made those consensus values (the "usual" disagreement).
    public var typicalSpread: Double

    /// Creates quantiles.
    public init(low: Double, high: Double, typicalSpread: Double) {
        self.low = low
        self.high = high
        self.typicalSpread = typicalSpread
    }
}

/// What was learned for one field and lead bucket: every source's skill, the weights and corrections the merge uses, the
/// families found, and the consensus's error quantiles.
public struct FieldSkill: Sendable, Equatable {
    /// Each source's skill, by id.
    public var sources: [String: SourceSkill] = [:]
    /// Each source's weight (summing to 1), shrunk toward equal families.
    public var weights: [String: Double] = [:]
    /// Each source's correction subtracted before merging (its bias, when bias correction is on).
    public var corrections: [String: Double] = [:]
    /// Each source's family: declared, or joined because their errors correlate.
    public var families: [String: String] = [:]
    /// Quantiles of the consensus's errors with these weights, when the record has any case to replay.
    public var quantiles: ErrorQuantiles?
    /// The shrinkage factor `n / (n + k)` used.
    public var shrinkage = 0.0
    /// True when there was enough history to learn from (else the v1 rule, labelled).
    public var isLearned = false
    /// The factor the record's interval is widened by: how much larger the consensus's error is expected to be now (with
    /// the recent view of the sources that changed) than when the record's quantiles were gathered; 1 when none changed.
    public var widening = 1.0
    /// The longer lead bucket this skill was borrowed from, while this bucket has learned too little of its own
    /// (see `SkillRecord.borrowForShortLeads`); nil for a bucket's own skill.
    public var borrowedFrom: LeadBucket?

    /// An empty skill.
    public init() {}

    /// The 80 % interval around a consensus `value` whose kept inputs span `keptSpread`: the record's error quantiles
    /// (error = consensus − truth lies in [q10, q90] eight times in ten, so truth lies in [value − q90, value − q10]),
    /// widened by `widening` and, when the inputs are further apart than twice their usual spread, in proportion to it;
    /// nil when the record has no quantiles.
    public func interval(around value: Double, keptSpread: Double) -> ClosedRange<Double>? {
        guard let quantiles else { return nil }
        let unusual = quantiles.typicalSpread > 0 ? max(1, keptSpread / (2 * quantiles.typicalSpread)) : 1
        let widen = unusual * widening
        let (low, high) = (value - quantiles.high * widen, value - quantiles.low * widen)
        return low <= high ? low...high : high...low
    }

    /// A source's typical error once corrected (0 when the record does not know it).
    public func typicalError(_ id: String) -> Double {
        sources[id].map { $0.typicalError(correction: corrections[id] ?? 0) } ?? 0
    }
}

/// A field and lead bucket that skill is learned for.
public struct SkillKey: Sendable, Hashable {
    /// The quantity.
    public var quantity: Quantity
    /// The lead bucket.
    public var bucket: LeadBucket

    /// Creates a key.
    public init(_ quantity: Quantity, _ bucket: LeadBucket) {
        self.quantity = quantity
        self.bucket = bucket
    }
}

/// Everything learned, per field and lead bucket: read from the stored `SkillLedger` (which every observed case is
/// folded into once) as of the moment it is needed.
public struct SkillRecord: Sendable, Equatable {
    /// The skill of each field and lead bucket that has pairs.
    public var fields: [SkillKey: FieldSkill] = [:]
    /// Where each source's skill came from (`archive` or `backfill`), by source id; a source absent learned nothing.
    public var bases: [String: LearnedBasis] = [:]

    /// An empty record.
    public init() {}

    /// The skill for a quantity at a lead time, when there is one.
    public func skill(_ quantity: Quantity, leadHours: Double) -> FieldSkill? {
        guard let bucket = LeadBucket(leadHours: leadHours) else { return nil }
        return fields[SkillKey(quantity, bucket)]
    }
}
