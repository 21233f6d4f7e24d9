import IsobarCore

/// When the recent view of a source's errors wins over the long one: each source keeps two views of its errors per field
/// and lead bucket, a long one (`SkillLedger.halfLifeDays`, 14 days) and a recent one (`SkillLedger.recentHalfLifeDays`,
/// 3 days). The long view is steadier, the recent one sees a change (a model upgrade, a broken station feed, a drift)
/// within days. The recent view wins — for the source's weight, its bias correction and its typical error — when it
/// disagrees with the long view beyond chance:
///
/// - its mean error differs by more than `z_b × √(v_r/n_r + v_l/n_l)`, or
/// - its mean square error differs by more than `z × √((m₄ − MSE²) × (1/n_r + 1/n_l))`,
///
/// where `v_r`, `v_l` are the views' error variances, `m₄` the fourth moment of the long view's errors (from its
/// histogram, so that a source with occasional wild errors is not taken for one that changed), `n_r` and `n_l` the views'
/// decayed numbers of pairs, `z = 2.576` (a 1 % chance for a source whose errors did not change) and `z_b = 1.96` (5 %):
/// a bias taken from the recent view by chance costs little (its error is a fifth of a degree where the source's
/// noise is one), a drifting bias missed costs every hour. Below `minimumRecentPairs` recent pairs the long view stays.
public enum ChangeRule {
    /// The z of the test of mean square errors: the two-sided 99 % point of a normal deviate.
    public static let z = 2.576
    /// The z of the test of biases: the two-sided 95 % point.
    public static let biasZ = 1.96
    /// Fewer recent (decayed) pairs than this never win: about a day of the 0–6 h bucket's hourly pairs.
    public static let minimumRecentPairs = 6.0

    /// The recent view of a source's errors as of `now`, when it disagrees with `long` beyond chance; nil otherwise.
    /// `histogram` holds the long view's errors (for their fourth moment) and `floor` bounds the variances from below.
    static func recentView(_ recent: DecayedSums, now: Double, long: SourceSkill, histogram: ErrorHistogram, counts: ArraySlice<Double>,
                           floor: Double) -> SourceSkill? {
        let total = recent.values[0]
        guard total > 0 else { return nil }
        let pairs = total * recent.factor(at: now, halfLife: SkillLedger.recentHalfLife)
        guard pairs >= minimumRecentPairs, long.pairs > 0 else { return nil }
        let bias = recent.values[1] / total
        let square = recent.values[3] / total
        let smallest = (floor / 20) * (floor / 20)
        let both = 1 / pairs + 1 / long.pairs
        let recentVariance = max(square - bias * bias, smallest)
        let biasShift = abs(bias - long.bias) > biasZ * (recentVariance / pairs + max(long.variance, smallest) / long.pairs).squareRoot()
        let fourth = fourthMoment(histogram, counts) ?? 3 * long.meanSquareError * long.meanSquareError
        let spreadOfSquares = max(fourth - long.meanSquareError * long.meanSquareError, smallest * smallest)
        let squareShift = abs(square - long.meanSquareError) > z * (spreadOfSquares * both).squareRoot()
        guard biasShift || squareShift else { return nil }
        // The recent view holds no histogram: its deviation about its bias is taken as a normal one's, 0.798 σ.
        let deviation = 0.7979 * max(0, square - bias * bias).squareRoot()
        var view = SourceSkill(pairs: long.pairs, bias: bias, meanSquareError: square, absoluteDeviation: deviation, isRecent: true)
        view.changeRatio = max(view.variance, smallest) / max(long.variance, smallest)
        return view
    }

    /// How much wider the interval must be because the consensus's own recent errors exceed what the record's quantiles
    /// were gathered from: `√(MSE_recent / MSE_long)` when the recent mean square error is larger by more than
    /// `z_b × √((m₄ − MSE²) × (1/n_r + 1/n_l))` (a source's test at the looser 95 % point: an interval widened by chance
    /// costs a little sharpness, one left narrow after a change costs its honesty), else 1. `column` picks the plain (1) or the
    /// bias-corrected (2) recent sums; `counts` are the long histogram of the same errors.
    static func consensusWidening(_ recent: DecayedSums, column: Int, now: Double, long: DecayedSums, counts: ArraySlice<Double>,
                                  histogram: ErrorHistogram, floor: Double) -> Double {
        let total = recent.values[0]
        guard total > 0 else { return 1 }
        let pairs = total * recent.factor(at: now, halfLife: SkillLedger.recentHalfLife)
        let longPairs = counts.reduce(0, +) * long.factor(at: now, halfLife: SkillLedger.halfLife)
        guard pairs >= minimumRecentPairs, longPairs > 0, let square = secondMoment(histogram, counts),
              let fourth = fourthMoment(histogram, counts) else { return 1 }
        let smallest = (floor / 20) * (floor / 20)
        let recentSquare = recent.values[column] / total
        let spreadOfSquares = max(fourth - square * square, smallest * smallest)
        guard recentSquare - square > biasZ * (spreadOfSquares * (1 / pairs + 1 / longPairs)).squareRoot() else { return 1 }
        return (recentSquare / max(square, smallest)).squareRoot()
    }

    /// The mean square of the errors held in `counts`, each at its bin's middle; nil when empty.
    static func secondMoment(_ histogram: ErrorHistogram, _ counts: ArraySlice<Double>) -> Double? {
        var (total, sum) = (0.0, 0.0)
        for (offset, weight) in counts.enumerated() where weight > 0 {
            let center = histogram.center(errorBin: offset)
            total += weight
            sum += weight * center * center
        }
        return total > 0 ? sum / total : nil
    }

    /// The mean fourth power of the errors held in `counts`, each at its bin's middle; nil when empty.
    static func fourthMoment(_ histogram: ErrorHistogram, _ counts: ArraySlice<Double>) -> Double? {
        var (total, sum) = (0.0, 0.0)
        for (offset, weight) in counts.enumerated() where weight > 0 {
            let center = histogram.center(errorBin: offset)
            total += weight
            sum += weight * center * center * center * center
        }
        return total > 0 ? sum / total : nil
    }
}

extension SkillRecord {
    /// Carries a change seen at a shorter lead to the same source's longer leads, whose pairs are verified later (a
    /// forecast two days ahead is checked two days after it is issued): in each longer bucket where its recent view did
    /// not win, a source whose errors grew (`changeRatio` above 1) has its error variance scaled by the largest ratio seen
    /// at a shorter lead, its weights are learned again and the interval widened by as much as the consensus's expected
    /// error grew; an interval widened at a shorter lead is widened at least as much at the longer ones. Errors that
    /// shrank are not carried: a source is trusted more only where its own pairs show it.
    mutating func carryChanges(settings: ConsensusLearning, configuration: ConsensusConfiguration) {
        for quantity in Set(fields.keys.map(\.quantity)) {
            let floor = configuration.floor(quantity)
            var ratios: [String: Double] = [:]
            var widest = 1.0
            for bucket in LeadBucket.allCases {
                let key = SkillKey(quantity, bucket)
                guard var skill = fields[key] else { continue }
                // The consensus's errors grew at a shorter lead: they will here too, once these leads are verified.
                let grown = widest
                widest = max(widest, skill.widening)
                skill.widening = max(skill.widening, grown)
                fields[key] = skill
                let before = skill
                var carried = false
                for (id, source) in skill.sources where !source.isRecent {
                    guard let ratio = ratios[id], ratio > 1 else { continue }
                    var scaled = source
                    scaled.meanSquareError = source.bias * source.bias + source.variance * ratio
                    scaled.absoluteDeviation = source.absoluteDeviation * ratio.squareRoot()
                    scaled.isRecent = true
                    skill.sources[id] = scaled
                    carried = true
                }
                for (id, source) in before.sources where source.isRecent && source.changeRatio > 1 {
                    ratios[id] = max(ratios[id] ?? 1, source.changeRatio)
                }
                guard carried else { continue }
                let ids = skill.sources.keys.sorted()
                skill.weights = SkillRecord.weights(ids, skill: skill, floor: floor, corrected: settings.biasCorrection)
                func spread(_ source: SourceSkill) -> Double { settings.biasCorrection ? source.variance : source.meanSquareError }
                var (now, then) = (0.0, 0.0)
                for id in ids {
                    now += skill.weights[id]! * skill.weights[id]! * spread(skill.sources[id]!)
                    then += before.weights[id]! * before.weights[id]! * spread(before.sources[id]!)
                }
                if then > 0 { skill.widening = before.widening * max(1, (now / then).squareRoot()) }
                fields[key] = skill
            }
        }
    }
}
