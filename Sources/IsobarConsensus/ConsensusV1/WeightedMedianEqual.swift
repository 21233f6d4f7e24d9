/// The weighted median of a handful of values that all weigh the same, sorted by a fixed network of compare-exchanges
/// rather than by insertion, so that the order the values arrive in costs no mispredicted branches.
///
/// The result is bit for bit that of `WeightedMedian.medianAndTotalWeight(sorting:)` over the same entries: with equal
/// weights the sorted order is the order of the values, and equal values are the same bits, except −0.0 and +0.0, which
/// a network may exchange where the stable insertion sort keeps them in input order, so callers hand values with a −0.0
/// to the general sort (`hasNegativeZero`).
extension WeightedMedian {
    /// The most values `medianAndTotalWeight(sortingEqual:weight:)` takes.
    static let networkLimit = 6

    /// True when some value is −0.0.
    @inline(__always)
    static func hasNegativeZero(_ values: UnsafeMutableBufferPointer<Double>) -> Bool {
        var found = false
        for value in values where value.bitPattern == negativeZeroBits { found = true }
        return found
    }

    /// The bits of −0.0.
    static let negativeZeroBits = (-0.0 as Double).bitPattern

    /// The weighted median and total weight of 1…`networkLimit` values without −0.0, each weighing `weight`; sorts `values` in place.
    @inline(__always)
    static func medianAndTotalWeight(sortingEqual values: UnsafeMutableBufferPointer<Double>, weight: Double) -> (median: Double, totalWeight: Double) {
        let count = values.count
        sortByNetwork(values)
        // The same sums, in the same order, as the general walk makes with every entry weighing `weight`.
        var total = 0.0
        for _ in 0..<count { total += weight }
        let half = total / 2
        let tolerance = 1e-9 * total
        var running = 0.0
        for index in 0..<count {
            running += weight
            if abs(running - half) <= tolerance, index + 1 < count { return ((values[index] + values[index + 1]) / 2, total) }
            if running > half { return (values[index], total) }
        }
        return (values[count - 1], total)
    }

    /// Sorts 1…6 values ascending with an optimal sorting network (no NaN).
    @inline(__always)
    static func sortByNetwork(_ values: UnsafeMutableBufferPointer<Double>) {
        @inline(__always) func exchange(_ a: inout Double, _ b: inout Double) {
            let (low, high) = b < a ? (b, a) : (a, b)
            a = low
            b = high
        }
        switch values.count {
        case 2:
            var (a, b) = (values[0], values[1])
            exchange(&a, &b)
            (values[0], values[1]) = (a, b)
        case 3:
            var (a, b, c) = (values[0], values[1], values[2])
            exchange(&a, &c); exchange(&a, &b); exchange(&b, &c)
            (values[0], values[1], values[2]) = (a, b, c)
        case 4:
            var (a, b, c, d) = (values[0], values[1], values[2], values[3])
            exchange(&a, &b); exchange(&c, &d); exchange(&a, &c); exchange(&b, &d); exchange(&b, &c)
            (values[0], values[1], values[2], values[3]) = (a, b, c, d)
        case 5:
            var (a, b, c, d, e) = (values[0], values[1], values[2], values[3], values[4])
            exchange(&a, &b); exchange(&d, &e); exchange(&c, &e); exchange(&c, &d); exchange(&b, &e)
            exchange(&a, &d); exchange(&a, &c); exchange(&b, &d); exchange(&b, &c)
            (values[0], values[1], values[2], values[3], values[4]) = (a, b, c, d, e)
        case 6:
            var (a, b, c, d, e, f) = (values[0], values[1], values[2], values[3], values[4], values[5])
            exchange(&b, &c); exchange(&e, &f); exchange(&a, &c); exchange(&d, &f); exchange(&a, &b); exchange(&d, &e)
            exchange(&b, &e); exchange(&a, &d); exchange(&c, &f); exchange(&b, &d); exchange(&c, &e); exchange(&c, &d)
            (values[0], values[1], values[2], values[3], values[4], values[5]) = (a, b, c, d, e, f)
        default:
            return
        }
    }
}
