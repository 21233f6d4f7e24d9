/// The v2 merge of one field: values corrected for their learned bias, outliers found among independent families with
/// the v1 rule, and the consensus the weighted mean of the rest.
///
/// 1. `c_i = x_i − correction_i`; `m` = median of the `c_i` with each family weighing one (its members sharing it),
///    `MAD` = the same median of `|c_i − m|`. Not the learned weights: a source holding more than half of them would be
///    `m` with a MAD of 0, and every other source further from it than the floor would be left out, the merge leaning
///    back to that one source.
/// 2. With at least three inputs, whatever their families (a family: sources that share an upstream or whose errors
///    correlate; five entries of one family still hold one spike among them), an input with
///    `|c_i − m| > max(3 × 1.4826 × MAD, floor, 3 × e_i)` is an outlier, where `e_i` is its typical error in the record
///    (`SourceSkill.typicalError`): a source known to miss by 2 °C is not left out for missing by 3 °C, which would
///    lean the merge toward the others whenever it happens to be far, but a spike beyond its usual misses is.
/// 3. The consensus is `Σ w_i c_i / Σ w_i` over the rest: with weights ∝ 1/MSE this is the least-squares combination,
///    which a median cannot be (a source that holds more than half of the weight would be the median every hour).
enum LearnedFieldMerge {
    /// The merged value, which inputs were outliers, and the kept inputs' range and weighted standard deviation.
    struct Outcome {
        var value: Double
        var isOutlier: [Bool]
        var keptSpread: Double
        var keptDeviation: Double
    }

    /// Merges corrected values with their weights and families; nil when no input has a positive weight and a finite value.
    static func merge(_ corrected: [Double], weights: [Double], families: [String], typicalErrors: [Double]? = nil, floor: Double,
                      configuration: ConsensusConfiguration) -> Outcome? {
        let usable = corrected.indices.filter { corrected[$0].isFinite && weights[$0] > 0 && weights[$0].isFinite }
        guard !usable.isEmpty else { return nil }
        var members: [String: Double] = [:]
        for index in usable { members[families[index], default: 0] += 1 }
        let entries = usable.map { WeightedMedian.Entry(corrected[$0], weight: 1 / members[families[$0]]!) }
        let center = WeightedMedian.median(entries)!
        let mad = WeightedMedian.absoluteDeviation(entries, from: center)!
        var isOutlier = [Bool](repeating: false, count: corrected.count)
        for index in corrected.indices where !usable.contains(index) { isOutlier[index] = true }
        if usable.count >= 3 {
            let threshold = max(configuration.outlierMultiplier * configuration.madScale * mad, floor)
            for index in usable where abs(corrected[index] - center) > max(threshold, 3 * (typicalErrors?[index] ?? 0)) {
                isOutlier[index] = true
            }
        }
        let kept = usable.filter { !isOutlier[$0] }
        guard !kept.isEmpty else { return nil }
        var total = 0.0
        var sum = 0.0
        for index in kept {
            total += weights[index]
            sum += weights[index] * corrected[index]
        }
        let mean = sum / total
        var square = 0.0
        for index in kept { square += weights[index] * (corrected[index] - mean) * (corrected[index] - mean) }
        let values = kept.map { corrected[$0] }
        return Outcome(value: mean, isOutlier: isOutlier, keptSpread: values.max()! - values.min()!,
                       keptDeviation: (square / total).squareRoot())
    }
}
