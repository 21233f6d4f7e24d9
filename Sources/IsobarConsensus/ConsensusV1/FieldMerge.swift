import IsobarCore

/// The robust merge of one field: weighted median, spread, MAD, the outlier rule and confidence.
///
/// 1. `m` = weighted median of every input, `MAD` = weighted median of `|x − m|` (see `WeightedMedian`).
/// 2. When the inputs' total weight is at least 3 (three providers at the default weight), an input with
///    `|x − m| > max(3 × 1.4826 × MAD, floor)` is an outlier; the consensus is the weighted median of the rest.
/// 3. Otherwise (two providers, or one, at the default weight) the consensus is `m`, and the disagreement
///    (`max − min` against the floor; 0 for a single input) is reported instead.
///
/// Directions are first unwrapped onto the smallest arc holding every input (cut at the widest gap between
/// them), merged there like plain numbers, and wrapped back into 0..<360; deviations are measured along that arc.
public enum FieldMerge {
    /// Merges providers' values of one quantity; nil when no input has a positive weight and a finite value.
    public static func merge(
        _ inputs: [ProviderValue], missing: [String] = [], floor: Double, circular: Bool = false, leadHours: Double = 0,
        configuration: ConsensusConfiguration = ConsensusConfiguration()
    ) -> MergedField? {
        let rules = MergeRules(configuration)
        var inputs = inputs
        return merge(owning: &inputs, missing: missing, floor: floor, circular: circular,
                     leadFactor: ConsensusConfidence.leadTime(hours: leadHours, halfLifeHours: rules.leadTimeHalfLifeHours), rules: rules)
    }

    /// The merge of inputs the caller hands over (their outliers are marked in place, so no copy is made), with the lead-time factor of
    /// `ConsensusConfidence` already worked out: the same result as `merge(_:missing:floor:circular:leadHours:configuration:)`.
    static func merge(
        owning inputs: inout [ProviderValue], missing: [String], floor: Double, circular: Bool, leadFactor: Double, rules: MergeRules
    ) -> MergedField? {
        if !inputs.allSatisfy(isUsable) { inputs.removeAll { !isUsable($0) } }
        guard !inputs.isEmpty else { return nil }
        let count = inputs.count
        let statistics = withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * count) { numbers in
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: count) { isOutlier in
                let values = UnsafeMutableBufferPointer(rebasing: numbers[0..<count])
                let weights = UnsafeMutableBufferPointer(rebasing: numbers[count..<(2 * count)])
                for index in 0..<count {
                    values[index] = inputs[index].value
                    weights[index] = inputs[index].weight
                    isOutlier[index] = inputs[index].isOutlier
                }
                let statistics = Self.statistics(
                    values: values, weights: UnsafeBufferPointer(weights), isOutlier: isOutlier, floor: floor, circular: circular,
                    leadFactor: leadFactor, rules: rules)
                for index in 0..<count where isOutlier[index] { inputs[index].isOutlier = true }
                return statistics
            }
        }
        return MergedField(statistics, sources: .listed(inputs: inputs, missing: missing))
    }

    /// The merge of `values` with their `weights` (both finite, weights positive, at least one): `values` is overwritten, and
    /// `isOutlier` marks the outliers (an entry already marked stays out of a consensus worked out again without outliers).
    static func statistics(
        values: UnsafeMutableBufferPointer<Double>, weights: UnsafeBufferPointer<Double>, isOutlier: UnsafeMutableBufferPointer<Bool>,
        floor: Double, circular: Bool, leadFactor: Double, rules: MergeRules
    ) -> FieldStatistics {
        let count = values.count
        // Every weight the same (as by default): medians by a sorting network of the bare values.
        let firstWeight = weights[0]
        var equalWeights = count <= WeightedMedian.networkLimit
        if equalWeights { for weight in weights where weight != firstWeight { equalWeights = false } }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: count) { scratch in
            withUnsafeTemporaryAllocation(of: WeightedMedian.Entry.self, capacity: count) { buffer in
                // The values to merge: as given, or for directions, degrees along their smallest arc.
                var origin = 0.0
                let low: Double
                let high: Double
                let spread: Double
                if circular {
                    for index in 0..<count { values[index] = wrap(values[index]) }
                    for index in 0..<count { scratch[index] = values[index] }
                    let arc = smallestArc(sorting: scratch)
                    origin = arc.start
                    for index in 0..<count {
                        let angle = values[index]
                        values[index] = angle == origin ? 0 : wrap(angle - origin)
                    }
                    (low, high, spread) = (arc.start, arc.end, arc.width)
                } else {
                    // As `min()` and `max()`: the first of equal lowest or highest values.
                    var (lowest, highest) = (values[0], values[0])
                    for index in 1..<count {
                        let value = values[index]
                        if value < lowest { lowest = value }
                        if highest < value { highest = value }
                    }
                    (low, high) = (lowest, highest)
                    spread = high - low
                }

                let center: Double
                let totalWeight: Double
                var negativeZero = false
                if equalWeights {
                    for index in 0..<count {
                        let value = values[index]
                        scratch[index] = value
                        if value.bitPattern == WeightedMedian.negativeZeroBits { negativeZero = true }
                    }
                }
                if equalWeights && !negativeZero {
                    (center, totalWeight) = WeightedMedian.medianAndTotalWeight(sortingEqual: scratch, weight: firstWeight)
                } else {
                    for index in 0..<count { buffer[index] = .init(values[index], weight: weights[index]) }
                    (center, totalWeight) = WeightedMedian.medianAndTotalWeight(sorting: buffer)!
                }
                let mad: Double
                if equalWeights {
                    // Absolute deviations are never −0.0.
                    for index in 0..<count { scratch[index] = abs(values[index] - center) }
                    mad = WeightedMedian.medianAndTotalWeight(sortingEqual: scratch, weight: firstWeight).median
                } else {
                    for index in 0..<count { buffer[index] = .init(abs(values[index] - center), weight: weights[index]) }
                    mad = WeightedMedian.median(sorting: buffer)!
                }

                var disagreement: Disagreement?
                var outliers = 0
                if totalWeight >= rules.outlierRuleMinimumWeight - 1e-9 {
                    let threshold = Swift.max(rules.outlierMultiplier * rules.madScale * mad, floor)
                    for index in 0..<count where abs(values[index] - center) > threshold {
                        isOutlier[index] = true
                        outliers += 1
                    }
                } else {
                    disagreement = Disagreement(difference: spread, floor: floor, exceedsFloor: spread > floor)
                }

                // Without outliers the consensus is the median already found.
                var (value, keptWeight, keptSpread) = (center, totalWeight, circular ? spread : high - low)
                if outliers > 0 {
                    var kept = 0
                    var keptLow = Double.infinity
                    var keptHigh = -Double.infinity
                    for index in 0..<count where !isOutlier[index] {
                        scratch[kept] = values[index]
                        buffer[kept] = .init(values[index], weight: weights[index])
                        keptLow = Swift.min(keptLow, values[index])
                        keptHigh = Swift.max(keptHigh, values[index])
                        kept += 1
                    }
                    let keptValues = UnsafeMutableBufferPointer(rebasing: scratch[0..<kept])
                    if equalWeights && !WeightedMedian.hasNegativeZero(keptValues) {
                        (value, keptWeight) = WeightedMedian.medianAndTotalWeight(sortingEqual: keptValues, weight: firstWeight)
                    } else {
                        (value, keptWeight) = WeightedMedian.medianAndTotalWeight(sorting: UnsafeMutableBufferPointer(rebasing: buffer[0..<kept]))!
                    }
                    keptSpread = keptHigh - keptLow
                }
                // As `ConsensusConfidence.confidence`, with the lead-time factor worked out once per hour.
                let confidence = ConsensusConfidence.agreement(spread: keptSpread, floor: floor) * ConsensusConfidence.wholeSources(weight: keptWeight)
                    * leadFactor
                return FieldStatistics(
                    value: circular ? wrap(origin + value) : value, min: low, max: high, spread: spread, medianAbsoluteDeviation: mad,
                    disagreement: disagreement, confidence: confidence)
            }
        }
    }

    /// True for an input with a positive finite weight and a finite value.
    private static func isUsable(_ input: ProviderValue) -> Bool {
        input.weight > 0 && input.weight.isFinite && input.value.isFinite
    }

    /// The smallest arc holding every angle (each in 0..<360, not empty): it starts after the widest gap between
    /// neighbours, and its ends are input angles exactly. The first of equally wide gaps counts, in ascending order.
    static func smallestArc(_ degrees: [Double]) -> (start: Double, end: Double, width: Double) {
        var copy = degrees
        return copy.withUnsafeMutableBufferPointer { smallestArc(sorting: $0) }
    }

    /// `smallestArc` of a buffer of angles, which it sorts in place.
    static func smallestArc(sorting sorted: UnsafeMutableBufferPointer<Double>) -> (start: Double, end: Double, width: Double) {
        for index in sorted.indices.dropFirst() {
            let angle = sorted[index]
            var position = index
            while position > 0 && angle < sorted[position - 1] {
                sorted[position] = sorted[position - 1]
                position -= 1
            }
            sorted[position] = angle
        }
        var widestGap = sorted[0] + 360 - sorted[sorted.count - 1]
        var start = sorted[0]
        var end = sorted[sorted.count - 1]
        for index in sorted.indices.dropFirst() where sorted[index] - sorted[index - 1] > widestGap {
            widestGap = sorted[index] - sorted[index - 1]
            start = sorted[index]
            end = sorted[index - 1]
        }
        return (start, end, 360 - widestGap)
    }

    /// An angle in 0..<360.
    static func wrap(_ degrees: Double) -> Double {
        // Already in range: the remainder below would be the angle itself.
        if degrees >= 0 && degrees < 360 { return degrees }
        let result = degrees.truncatingRemainder(dividingBy: 360)
        let positive = result < 0 ? result + 360 : result
        return positive >= 360 ? 0 : positive
    }
}

/// What a field merge works out from its values and weights alone: everything of a `MergedField` but its sources.
struct FieldStatistics {
    var value: Double
    var min: Double
    var max: Double
    var spread: Double
    var medianAbsoluteDeviation: Double
    var disagreement: Disagreement?
    var confidence: Double
}

/// The constants of `ConsensusConfiguration` a field merge reads, copied out once per merge.
struct MergeRules {
    var outlierMultiplier: Double
    var madScale: Double
    var outlierRuleMinimumWeight: Double
    var leadTimeHalfLifeHours: Double

    init(_ configuration: ConsensusConfiguration) {
        outlierMultiplier = configuration.outlierMultiplier
        madScale = configuration.madScale
        outlierRuleMinimumWeight = configuration.outlierRuleMinimumWeight
        leadTimeHalfLifeHours = configuration.leadTimeHalfLifeHours
    }
}
