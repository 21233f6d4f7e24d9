/// Weighted median and median absolute deviation, defined so that a weight of 2 is the same as listing a value twice.
///
/// **Weighted median.** Sort the values ascending (ties in any order) and let `W` be the sum of the weights.
/// Walk the sorted values adding up their weights; the median is the first value at which the running sum
/// exceeds `W / 2`. When the running sum equals `W / 2` exactly (within 10⁻⁹ · W) at some value, the median is
/// the average of that value and the next one. With equal weights this is the ordinary median: the middle value
/// for an odd count, the mean of the two middle values for an even count. Because only running sums of weights
/// matter, a value with weight 2 gives the same running sums as the same value listed twice with weight 1.
public enum WeightedMedian {
    /// A value with its weight.
    public struct Entry: Sendable, Equatable {
        /// The value.
        public var value: Double
        /// Its weight, greater than 0.
        public var weight: Double

        /// Creates an entry.
        public init(_ value: Double, weight: Double = 1) {
            self.value = value
            self.weight = weight
        }
    }

    /// The weighted median of entries with positive weights; nil when there are none.
    public static func median(_ entries: [Entry]) -> Double? {
        var copy = entries.filter { $0.weight > 0 }
        return copy.withUnsafeMutableBufferPointer { median(sorting: $0) }
    }

    /// The weighted median of the absolute deviations from `center`, with the same weights; nil when there are no entries.
    public static func absoluteDeviation(_ entries: [Entry], from center: Double) -> Double? {
        median(entries.map { Entry(abs($0.value - center), weight: $0.weight) })
    }

    /// The weighted median of a buffer, which it sorts in place; nil when empty.
    static func median(sorting buffer: UnsafeMutableBufferPointer<Entry>) -> Double? {
        medianAndTotalWeight(sorting: buffer)?.median
    }

    /// The weighted median and the total weight (summed in sorted order, so the same for any input order).
    static func medianAndTotalWeight(sorting buffer: UnsafeMutableBufferPointer<Entry>) -> (median: Double, totalWeight: Double)? {
        let count = buffer.count
        guard count > 0, let entries = buffer.baseAddress else { return nil }
        sort(buffer)
        var total = 0.0
        for index in 0..<count { total += entries[index].weight }
        let half = total / 2
        let tolerance = 1e-9 * total
        var running = 0.0
        for index in 0..<count {
            running += entries[index].weight
            if abs(running - half) <= tolerance, index + 1 < count {
                return ((entries[index].value + entries[index + 1].value) / 2, total)
            }
            if running > half { return (entries[index].value, total) }
        }
        return (entries[count - 1].value, total)
    }

    /// Sorts by value, then weight: insertion sort for the handful of providers a merge has.
    static func sort(_ buffer: UnsafeMutableBufferPointer<Entry>) {
        @inline(__always) func precedes(_ a: Entry, _ b: Entry) -> Bool { a.value < b.value || (a.value == b.value && a.weight < b.weight) }
        let count = buffer.count
        guard count <= 16 else {
            var copy = buffer  // `sort` is declared mutating; it writes through the same pointer.
            copy.sort(by: precedes)
            return
        }
        guard count > 1, let entries = buffer.baseAddress else { return }
        var index = 1
        while index < count {
            let entry = entries[index]
            var position = index
            while position > 0 && precedes(entry, entries[position - 1]) {
                entries[position] = entries[position - 1]
                position -= 1
            }
            entries[position] = entry
            index += 1
        }
    }
}
