import IsobarCore

/// Fixed bins of a quantity's errors (or spreads), `floor / 8` wide and `bins` of them: errors from −12 to +12 floors
/// (the end bins take everything beyond), spreads from 0 to 24 floors. Additive, so the record's quantiles are read from it.
public struct ErrorHistogram: Sendable {
    /// Number of bins.
    public static let bins = 96
    /// The width of a bin.
    public let width: Double

    /// The bins of a quantity with `floor`.
    public init(floor: Double) { width = max(floor, 1e-9) / 8 }

    /// The bins of a quantity.
    public init(_ quantity: Quantity) { self.init(floor: quantity.spec.floor) }

    /// The bin of a signed error.
    public func bin(error: Double) -> Int { Self.bin(at: error / width, offset: Self.bins / 2) }

    /// The bin of a spread (0 and above).
    public func bin(spread: Double) -> Int { Self.bin(at: spread / width, offset: 0) }

    /// The bin `offset` bins past `position` (in bin widths), the end bins taking everything beyond them; a value too
    /// large for an integer (a provider's fill value such as 9.97e36) lands in an end bin instead of trapping.
    private static func bin(at position: Double, offset: Int) -> Int {
        guard position.isFinite else { return position > 0 ? bins - 1 : 0 }
        let bounded = min(Double(bins), max(-Double(bins), position.rounded(.down)))
        return min(bins - 1, max(0, Int(bounded) + offset))
    }

    /// The middle of an error bin.
    public func center(errorBin index: Int) -> Double { (Double(index - Self.bins / 2) + 0.5) * width }

    /// The quantile `q` (0–1) of signed errors held in `counts` (`bins` values), interpolated within its bin; nil when empty.
    public func errorQuantile(_ counts: ArraySlice<Double>, _ q: Double) -> Double? {
        quantile(counts, q).map { $0 - Double(Self.bins / 2) * width }
    }

    /// The quantile `q` of spreads held in `counts`.
    public func spreadQuantile(_ counts: ArraySlice<Double>, _ q: Double) -> Double? { quantile(counts, q) }

    /// The mean absolute distance of the errors held in `counts` from `center`, each taken at its bin's middle.
    public func meanAbsoluteDeviation(_ counts: ArraySlice<Double>, from center: Double) -> Double? {
        var (total, sum) = (0.0, 0.0)
        for (offset, weight) in counts.enumerated() where weight > 0 {
            total += weight
            sum += weight * abs(self.center(errorBin: offset) - center)
        }
        return total > 0 ? sum / total : nil
    }

    /// The position (from the lower edge of the first bin) where the running weight reaches `q` of the total.
    private func quantile(_ counts: ArraySlice<Double>, _ q: Double) -> Double? {
        let total = counts.reduce(0, +)
        guard total > 0 else { return nil }
        let target = q * total
        var running = 0.0
        for (offset, weight) in counts.enumerated() where weight > 0 {
            if running + weight >= target { return (Double(offset) + (target - running) / weight) * width }
            running += weight
        }
        return Double(counts.count) * width
    }
}
