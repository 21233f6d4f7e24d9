import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Statistics for directions in degrees, where 350° and 10° are 20° apart.
public enum CircularStatistics {
    /// The direction of the mean unit vector, 0..<360; nil for no angles or when they cancel out.
    public static func mean(_ degrees: [Double]) -> Double? {
        guard !degrees.isEmpty else { return nil }
        var x = 0.0
        var y = 0.0
        for angle in degrees {
            let radians = angle * .pi / 180
            x += cos(radians)
            y += sin(radians)
        }
        guard (x * x + y * y).squareRoot() > 1e-9 * Double(degrees.count) else { return nil }
        var result = atan2(y, x) * 180 / .pi
        if result < 0 { result += 360 }
        // A tiny negative angle plus 360 can round to exactly 360.
        return result >= 360 ? result - 360 : result
    }

    /// The smallest clockwise arc holding every angle: its start, its end (which may be below the start when it crosses north) and its width.
    public static func arc(_ degrees: [Double]) -> (start: Double, end: Double, width: Double)? {
        let sorted = degrees.map { ($0.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) }.sorted()
        guard let first = sorted.first, let last = sorted.last else { return nil }
        var widestGap = first + 360 - last
        var start = first
        var end = last
        for index in sorted.indices.dropFirst() {
            let gap = sorted[index] - sorted[index - 1]
            if gap > widestGap {
                widestGap = gap
                start = sorted[index]
                end = sorted[index - 1]
            }
        }
        return (start, end, 360 - widestGap)
    }
}
