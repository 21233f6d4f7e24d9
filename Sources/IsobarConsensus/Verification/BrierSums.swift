/// Running sums of probability forecasts of an event (precipitation) against whether it happened, each weighted by how
/// recent it is; additive, like `ErrorSums`.
public struct BrierSums: Sendable, Equatable {
    /// Total weight (the decayed count of pairs).
    public var weight = 0.0
    /// Σ w·(p − o)², p the forecast probability (0–1), o 1 when the event happened and 0 when not.
    public var squareSum = 0.0
    /// Σ w·o: the weight of pairs where the event happened.
    public var occurred = 0.0
    /// Undecayed number of pairs.
    public var count = 0

    /// Empty sums.
    public init() {}

    /// Adds one forecast probability (0–1, clamped) and whether the event happened, with its weight.
    public mutating func add(probability: Double, occurred happened: Bool, weight: Double) {
        guard probability.isFinite, weight > 0 else { return }
        let probability = min(1, max(0, probability))
        let outcome = happened ? 1.0 : 0.0
        self.weight += weight
        squareSum += weight * (probability - outcome) * (probability - outcome)
        occurred += weight * outcome
        count += 1
    }

    /// Both sums together.
    public static func + (lhs: BrierSums, rhs: BrierSums) -> BrierSums {
        var total = lhs
        total.weight += rhs.weight
        total.squareSum += rhs.squareSum
        total.occurred += rhs.occurred
        total.count += rhs.count
        return total
    }

    /// The Brier score, 0 (perfect) to 1: the mean squared difference between the probability and the outcome.
    public var brierScore: Double? { weight > 0 ? squareSum / weight : nil }
    /// How often the event happened over these pairs, 0–1.
    public var baseRate: Double? { weight > 0 ? occurred / weight : nil }
    /// Skill against always forecasting the base rate: 1 − BS ÷ (ō·(1 − ō)); nil when the event always or never happened.
    public var brierSkill: Double? {
        guard let score = brierScore, let rate = baseRate, rate > 1e-9, rate < 1 - 1e-9 else { return nil }
        return 1 - score / (rate * (1 - rate))
    }
}
