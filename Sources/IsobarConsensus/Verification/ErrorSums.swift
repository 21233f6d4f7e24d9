#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// Running sums of forecast errors (forecast − observed), each weighted by how recent it is; additive, so sums from two
/// archives (or two machines) merge by adding.
public struct ErrorSums: Sendable, Equatable {
    /// Total weight (the decayed count of pairs).
    public var weight = 0.0
    /// Σ w·e.
    public var sum = 0.0
    /// Σ w·|e|.
    public var absoluteSum = 0.0
    /// Σ w·e².
    public var squareSum = 0.0
    /// Σ w over pairs whose error is within the hit tolerance.
    public var hits = 0.0
    /// Σ w·|e| of persistence (the observation at issue time as the forecast), over pairs where it is known.
    public var persistenceAbsoluteSum = 0.0
    /// Σ w·|e| of the forecast over the same pairs as `persistenceAbsoluteSum`.
    public var pairedAbsoluteSum = 0.0
    /// Undecayed number of pairs.
    public var count = 0

    /// Empty sums.
    public init() {}

    /// Adds one error with its weight; `persistenceError` when the observation at issue time is known.
    public mutating func add(error: Double, weight: Double, hitTolerance: Double, persistenceError: Double? = nil) {
        guard error.isFinite, weight > 0 else { return }
        self.weight += weight
        sum += weight * error
        absoluteSum += weight * abs(error)
        squareSum += weight * error * error
        if abs(error) <= hitTolerance { hits += weight }
        if let persistenceError, persistenceError.isFinite {
            persistenceAbsoluteSum += weight * abs(persistenceError)
            pairedAbsoluteSum += weight * abs(error)
        }
        count += 1
    }

    /// Both sums together.
    public static func + (lhs: ErrorSums, rhs: ErrorSums) -> ErrorSums {
        var total = lhs
        total.weight += rhs.weight
        total.sum += rhs.sum
        total.absoluteSum += rhs.absoluteSum
        total.squareSum += rhs.squareSum
        total.hits += rhs.hits
        total.persistenceAbsoluteSum += rhs.persistenceAbsoluteSum
        total.pairedAbsoluteSum += rhs.pairedAbsoluteSum
        total.count += rhs.count
        return total
    }

    /// Mean error: positive when the forecast runs high.
    public var bias: Double? { weight > 0 ? sum / weight : nil }
    /// Mean absolute error.
    public var meanAbsoluteError: Double? { weight > 0 ? absoluteSum / weight : nil }
    /// Root mean square error.
    public var rootMeanSquareError: Double? { weight > 0 ? (squareSum / weight).squareRoot() : nil }
    /// Share of pairs within the hit tolerance, 0–1.
    public var hitRate: Double? { weight > 0 ? hits / weight : nil }
    /// Skill against persistence: 1 − MAE ÷ persistence's MAE over the pairs where both are known; 0 is no better than
    /// "as it was when issued", 1 is perfect, negative is worse.
    public var skillAgainstPersistence: Double? {
        persistenceAbsoluteSum > 0 ? 1 - pairedAbsoluteSum / persistenceAbsoluteSum : nil
    }
}
