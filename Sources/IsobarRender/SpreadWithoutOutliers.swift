import IsobarConsensus
import IsobarCore

extension MergedField {
    /// The spread of the inputs that made the consensus: `spread` when no input was left out as an outlier, otherwise
    /// `max − min` of the others (for directions, the width of the smallest arc holding them); `spread` when every input
    /// was left out. The consensus's `spread` keeps counting every input, outliers included.
    public func spreadWithoutOutliers(circular: Bool) -> Double {
        let kept = inputs.filter { !$0.isOutlier && $0.value.isFinite }.map(\.value)
        guard !outliers.isEmpty, let low = kept.min(), let high = kept.max() else { return spread }
        return circular ? Self.arcWidth(kept) : high - low
    }

    /// The width of the smallest arc holding every angle (degrees): 360 less the widest gap between neighbours.
    public static func arcWidth(_ degrees: [Double]) -> Double {
        let sorted = degrees.map { angle in
            let rest = angle.truncatingRemainder(dividingBy: 360)
            return rest < 0 ? rest + 360 : rest
        }.sorted()
        guard let first = sorted.first, let last = sorted.last else { return 0 }
        var widestGap = first + 360 - last
        for index in sorted.indices.dropFirst() { widestGap = Swift.max(widestGap, sorted[index] - sorted[index - 1]) }
        return Swift.max(0, 360 - widestGap)
    }
}
