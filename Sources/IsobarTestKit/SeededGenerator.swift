#if canImport(Glibc)
import Glibc
#endif

/// A deterministic random number generator (SplitMix64), for repeatable tests and benchmarks.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A normal deviate with standard deviation `sigma` (Box–Muller).
    public mutating func normal(sigma: Double = 1) -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &self)
        let v = Double.random(in: 0..<1, using: &self)
        return sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
