import FoundationEssentials
import IsobarCore

/// The v2 merge: the v1 result refined with what the record teaches — learned weights per field and lead bucket, optional
/// bias corrections, families of correlated sources, and an 80 % interval on every hourly and current value.
///
/// Days and directions keep the v1 merge; a day's amounts (not its sun times or wind direction, which have no record
/// to learn from) get the spread-based interval. With too little history for a field and lead bucket the value keeps
/// the v1 rule, labelled `equal (too little history)`, and its interval comes from the inputs' spread.
public enum ConsensusV2 {
    /// The z-score of the 80 % central interval of a normal distribution.
    public static let z80 = 1.2816

    /// Refines a v1 result with `learning`; `result.weighting` says whether anything was learned.
    public static func refine(_ result: ConsensusResult, learning: ConsensusLearning,
                              configuration: ConsensusConfiguration = ConsensusConfiguration()) -> ConsensusResult {
        var result = result
        var learned = false
        if var current = result.current {
            learned = refine(&current, declared: result.families, learning: learning, configuration: configuration) || learned
            result.current = current
        }
        for index in result.hourly.indices {
            learned = refine(&result.hourly[index], declared: result.families, learning: learning, configuration: configuration) || learned
        }
        for index in result.daily.indices { refine(&result.daily[index], configuration: configuration) }
        result.weighting = learned ? (learning.biasCorrection ? .learnedCorrected : .learned) : .equalTooLittleHistory
        for id in result.providers { result.learnedBasis[id] = learning.record.bases[id] ?? LearnedBasis.none }
        return result
    }

    /// The confidence of a value whose 80 % interval is `halfWidth` either side, for a quantity with `floor`:
    /// `1 / (1 + (σ / floor)²)` with `σ = halfWidth / 1.2816` — ½ when the typical error equals the floor.
    public static func confidence(halfWidth: Double, floor: Double) -> Double {
        guard floor > 0 else { return halfWidth == 0 ? 1 : 0 }
        let ratio = halfWidth / z80 / floor
        return 1 / (1 + ratio * ratio)
    }

    /// Refines every non-circular field of one hour; true when some field used learned weights.
    static func refine(_ hour: inout ConsensusHour, declared: [String: String], learning: ConsensusLearning,
                       configuration: ConsensusConfiguration) -> Bool {
        var learned = false
        for quantity in Quantity.allCases where quantity.spec.interpolation != .circular {
            guard let field = hour[quantity] else { continue }
            let floor = configuration.floor(quantity)
            if let skill = learning.record.skill(quantity, leadHours: hour.leadHours), skill.isLearned,
               let refined = refine(field, skill: skill, declared: declared, floor: floor, range: quantity.spec.range,
                                    configuration: configuration) {
                hour[quantity] = refined
                learned = true
            } else {
                hour[quantity] = withSpreadInterval(field, floor: floor, range: quantity.spec.range)
            }
        }
        hour.confidence = ConsensusMerger.meanConfidence(hour.fields, hour.condition)
        return learned
    }

    /// Gives a day's amounts the spread-based interval: days are not verified, so there is no record to learn from;
    /// instants (sunrise, sunset) and the dominant direction are left as v1 merged them.
    static func refine(_ day: inout ConsensusDayV1, configuration: ConsensusConfiguration) {
        for quantity in DailyQuantity.allCases where !quantity.spec.circular && quantity.dimension != .instant {
            guard let field = day.values[quantity] else { continue }
            day.values[quantity] = withSpreadInterval(field, floor: configuration.floor(quantity), range: quantity.spec.range)
        }
    }

    /// A field merged again with the skill's weights and corrections, its interval from the record.
    static func refine(_ field: MergedField, skill: FieldSkill, declared: [String: String], floor: Double, range: ClosedRange<Double>,
                       configuration: ConsensusConfiguration) -> MergedField? {
        let ids = field.inputs.map(\.provider)
        let unknownWeight = 1 / Double(max(1, skill.weights.count))
        let weights = ids.map { skill.weights[$0] ?? unknownWeight }
        let corrections = ids.map { skill.corrections[$0] ?? 0 }
        let families = ids.map { skill.families[$0] ?? declared[$0] ?? $0 }
        let corrected = field.inputs.indices.map { field.inputs[$0].value - corrections[$0] }
        let typical = ids.map { skill.typicalError($0) }
        guard let outcome = LearnedFieldMerge.merge(corrected, weights: weights, families: families, typicalErrors: typical,
                                                    floor: floor, configuration: configuration) else { return nil }
        var refined = field
        refined.value = min(max(outcome.value, range.lowerBound), range.upperBound)
        for index in refined.inputs.indices { refined.inputs[index].isOutlier = outcome.isOutlier[index] }
        let (low, high, basis): (Double, Double, IntervalBasis)
        if let interval = skill.interval(around: refined.value, keptSpread: outcome.keptSpread) {
            (low, high, basis) = (interval.lowerBound, interval.upperBound, .record)
        } else {
            let half = spreadHalfWidth(deviation: outcome.keptDeviation, floor: floor)
            (low, high, basis) = (refined.value - half, refined.value + half, .spread)
        }
        let total = weights.indices.filter { !outcome.isOutlier[$0] }.map { weights[$0] }.reduce(0, +)
        var shares: [String: Double] = [:]
        var applied: [String: Double] = [:]
        for index in ids.indices {
            shares[ids[index]] = outcome.isOutlier[index] || total <= 0 ? 0 : weights[index] / total
            applied[ids[index]] = corrections[index]
        }
        refined.learned = LearnedField(
            low: max(low, range.lowerBound), high: min(high, range.upperBound), basis: basis,
            weighting: skill.corrections.values.contains { $0 != 0 } ? .learnedCorrected : .learned, weights: shares, corrections: applied)
        refined.confidence = confidence(halfWidth: (high - low) / 2, floor: floor)
        return refined
    }

    /// The v1 field with the spread-based interval: `1.2816 × √(sd² + (floor/2)²)` either side of the value, where `sd`
    /// is the weighted standard deviation of the inputs that made it.
    static func withSpreadInterval(_ field: MergedField, floor: Double, range: ClosedRange<Double>) -> MergedField {
        var field = field
        let kept = field.inputs.filter { !$0.isOutlier && $0.value.isFinite && $0.weight > 0 }
        let total = kept.map(\.weight).reduce(0, +)
        var deviation = 0.0
        if total > 0 {
            let mean = kept.map { $0.weight * $0.value }.reduce(0, +) / total
            deviation = (kept.map { $0.weight * ($0.value - mean) * ($0.value - mean) }.reduce(0, +) / total).squareRoot()
        }
        let half = spreadHalfWidth(deviation: deviation, floor: floor)
        var shares: [String: Double] = [:]
        for input in field.inputs { shares[input.provider] = input.isOutlier || total <= 0 ? 0 : input.weight / total }
        field.learned = LearnedField(
            low: max(field.value - half, range.lowerBound), high: min(field.value + half, range.upperBound), basis: .spread,
            weighting: .equalTooLittleHistory, weights: shares, corrections: [:])
        return field
    }

    /// Half the width of the spread-based interval.
    static func spreadHalfWidth(deviation: Double, floor: Double) -> Double {
        z80 * (deviation * deviation + floor * floor / 4).squareRoot()
    }
}
