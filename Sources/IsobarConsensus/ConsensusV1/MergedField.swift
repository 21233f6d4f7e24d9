/// Where a provider's input to a merged field came from.
public enum ValueOrigin: Sendable, Equatable {
    /// Given by the provider for exactly this hour or day.
    case given
    /// Put on the hour grid from the provider's steps: interpolated, held over a step, or split from a longer step.
    case interpolated
    /// A daily value computed from the provider's hours because it gives no such day.
    case derived
}

/// One provider's value for a merged field.
public struct ProviderValue: Sendable, Equatable {
    /// The provider.
    public var provider: String
    /// Its value, in the quantity's internal unit.
    public var value: Double
    /// Its weight in the merge.
    public var weight: Double
    /// Where the value came from.
    public var origin: ValueOrigin
    /// True when the outlier rule left it out of the consensus.
    public var isOutlier: Bool

    /// Creates a provider value.
    public init(provider: String, value: Double, weight: Double = 1, origin: ValueOrigin = .given, isOutlier: Bool = false) {
        self.provider = provider
        self.value = value
        self.weight = weight
        self.origin = origin
        self.isOutlier = isOutlier
    }
}

/// How far apart the sources are when there are too few of them for the outlier rule.
public struct Disagreement: Sendable, Equatable {
    /// `max − min` of the inputs (for directions, the width of the smallest arc holding them).
    public var difference: Double
    /// The quantity's floor.
    public var floor: Double
    /// True when the difference is larger than the floor.
    public var exceedsFloor: Bool

    /// Creates a disagreement.
    public init(difference: Double, floor: Double, exceedsFloor: Bool) {
        self.difference = difference
        self.floor = floor
        self.exceedsFloor = exceedsFloor
    }
}

/// One merged number with its provenance: the consensus, the range of the inputs, who contributed and how sure it is.
public struct MergedField: Sendable, Equatable {
    /// The consensus: the weighted median of the inputs that are not outliers (directions: on their smallest arc).
    public var value: Double
    /// Lowest input, outliers included (for directions, the start of the smallest arc holding every input).
    public var min: Double
    /// Highest input, outliers included (for directions, the end of that arc, which may be below `min` across north).
    public var max: Double
    /// `max − min` (for directions, the width of the arc).
    public var spread: Double
    /// The weighted median absolute deviation of every input from their weighted median (unscaled).
    public var medianAbsoluteDeviation: Double
    /// Every provider's input, in input order, outliers marked.
    public var inputs: [ProviderValue] {
        get { sources.inputs }
        set { sources = .listed(inputs: newValue, missing: sources.missing) }
    }
    /// Providers in the merge that gave no value for this field.
    public var missing: [String] {
        get { sources.missing }
        set { sources = .listed(inputs: sources.inputs, missing: newValue) }
    }
    /// The disagreement, reported instead of outliers when the sources weigh less than the outlier rule needs (two sources or one by default).
    public var disagreement: Disagreement? {
        get { extras?.disagreement }
        set { extras = MergedFieldExtras.make(disagreement: newValue, learned: learned) }
    }
    /// Confidence in 0…1 (see `ConsensusConfidence`; with learned weights, `ConsensusV2.confidence`).
    public var confidence: Double
    /// The v2 provenance (80 % interval, weighting, learned weights and corrections), when the merge learned from the record.
    public var learned: LearnedField? {
        get { extras?.learned }
        set { extras = MergedFieldExtras.make(disagreement: disagreement, learned: newValue) }
    }
    /// Where `inputs` and `missing` are kept.
    var sources: FieldSources
    /// The disagreement and the v2 provenance, kept out of line (most fields have neither) so that a field is small to copy.
    private var extras: MergedFieldExtras?

    /// Creates a merged field (for tests and renderers; merges come from `FieldMerge`).
    public init(value: Double, min: Double, max: Double, spread: Double, medianAbsoluteDeviation: Double, inputs: [ProviderValue],
                missing: [String] = [], disagreement: Disagreement? = nil, confidence: Double) {
        self.value = value
        self.min = min
        self.max = max
        self.spread = spread
        self.medianAbsoluteDeviation = medianAbsoluteDeviation
        sources = .listed(inputs: inputs, missing: missing)
        extras = MergedFieldExtras.make(disagreement: disagreement, learned: nil)
        self.confidence = confidence
    }

    /// A merged field from a merge's statistics and its sources.
    init(_ statistics: FieldStatistics, sources: FieldSources) {
        value = statistics.value
        min = statistics.min
        max = statistics.max
        spread = statistics.spread
        medianAbsoluteDeviation = statistics.medianAbsoluteDeviation
        self.sources = sources
        extras = MergedFieldExtras.make(disagreement: statistics.disagreement, learned: nil)
        confidence = statistics.confidence
    }

    /// Equal when every number, input, missing provider, disagreement and provenance is, wherever the inputs are kept.
    public static func == (lhs: MergedField, rhs: MergedField) -> Bool {
        lhs.value == rhs.value && lhs.min == rhs.min && lhs.max == rhs.max && lhs.spread == rhs.spread
            && lhs.medianAbsoluteDeviation == rhs.medianAbsoluteDeviation && lhs.inputs == rhs.inputs && lhs.missing == rhs.missing
            && lhs.disagreement == rhs.disagreement && lhs.confidence == rhs.confidence && lhs.learned == rhs.learned
    }

    /// Providers whose values made the consensus.
    public var contributors: [String] { inputs.filter { !$0.isOutlier }.map(\.provider) }

    /// Providers left out as outliers.
    public var outliers: [String] { inputs.filter(\.isOutlier).map(\.provider) }
}

/// A merged field's rarely present parts: the disagreement of too few sources and the v2 provenance.
final class MergedFieldExtras: Sendable {
    let disagreement: Disagreement?
    let learned: LearnedField?

    private init(disagreement: Disagreement?, learned: LearnedField?) {
        self.disagreement = disagreement
        self.learned = learned
    }

    /// The extras, or nil (nothing allocated) when there are none.
    static func make(disagreement: Disagreement?, learned: LearnedField?) -> MergedFieldExtras? {
        disagreement == nil && learned == nil ? nil : MergedFieldExtras(disagreement: disagreement, learned: learned)
    }
}
