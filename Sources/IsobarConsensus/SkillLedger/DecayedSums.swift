#if canImport(Glibc)
import Glibc
#endif

/// Sums whose every term fades with age: a term added for instant `t` weighs `0.5^((now − t) / half-life)` when read at
/// `now`. Held as the sums as of `asOf` (a later term first decays what is held), so terms add in any order and two sums
/// merge by adding — the form the stored skill record keeps.
public struct DecayedSums: Sendable, Equatable {
    /// The instant the sums are as of, in seconds since 1970.
    public var asOf: Double
    /// Undecayed number of terms added.
    public var count: Int
    /// The sums, laid out as their owner defines (`SkillLayout`).
    public var values: [Double]

    /// Empty sums of `size` values.
    public init(size: Int) {
        asOf = -Double.infinity
        count = 0
        values = [Double](repeating: 0, count: size)
    }

    /// Sums as stored.
    public init(asOf: Double, count: Int, values: [Double]) {
        self.asOf = asOf
        self.count = count
        self.values = values
    }

    /// The factor that decays a sum over `seconds` with a half-life of `halfLife` seconds.
    public static func decay(over seconds: Double, halfLife: Double) -> Double {
        guard halfLife > 0, seconds.isFinite else { return 1 }
        return pow(0.5, seconds / halfLife)
    }

    /// Makes room for one term for instant `time`: counts it, moves `asOf` forward (decaying what is held) when `time`
    /// is later, and returns the term's weight as of `asOf` (1, or less for an older term).
    public mutating func weight(at time: Double, halfLife: Double) -> Double {
        count += 1
        if count == 1 || time > asOf {
            if count > 1 { rebase(to: time, halfLife: halfLife) }
            asOf = time
            return 1
        }
        return Self.decay(over: asOf - time, halfLife: halfLife)
    }

    /// Decays the sums to a later instant.
    public mutating func rebase(to time: Double, halfLife: Double) {
        guard time > asOf, asOf.isFinite else {
            if !asOf.isFinite { asOf = time }
            return
        }
        let factor = Self.decay(over: time - asOf, halfLife: halfLife)
        for index in values.indices { values[index] *= factor }
        asOf = time
    }

    /// Both sums together, as of the later of their instants.
    public func merged(with other: DecayedSums, halfLife: Double) -> DecayedSums {
        guard other.count > 0 else { return self }
        guard count > 0 else { return other }
        var (left, right) = (self, other)
        let time = max(asOf, other.asOf)
        left.rebase(to: time, halfLife: halfLife)
        right.rebase(to: time, halfLife: halfLife)
        for index in left.values.indices where index < right.values.count { left.values[index] += right.values[index] }
        left.count += right.count
        return left
    }

    /// The factor that brings the sums to `now` (they are as of `asOf`).
    public func factor(at now: Double, halfLife: Double) -> Double {
        asOf.isFinite ? Self.decay(over: now - asOf, halfLife: halfLife) : 0
    }
}
