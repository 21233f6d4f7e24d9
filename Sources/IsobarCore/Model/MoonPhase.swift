import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The moon's phase at an instant, computed locally (no provider gives it).
///
/// The age is counted from the mean new moon of Meeus (Astronomical Algorithms, ch. 49, k = 0: JDE 2451550.09766, 2000-01-06
/// 14:20 TT) with the mean synodic month 29.530588861 days, and corrected by the two largest periodic terms of the true
/// new moon, the Sun's and the Moon's mean anomalies (−0.4072 sin M′ + 0.1721 sin M). Good to about a quarter of a day
/// for new and full moons over 2000–2100, well within the ±1 day the phase names need.
public struct MoonPhase: Sendable, Equatable {
    /// The fraction of the synodic month since new moon, 0..<1 (0 new, 0.25 first quarter, 0.5 full, 0.75 last quarter).
    public var fraction: Double
    /// The lit fraction of the disc, 0…1.
    public var illumination: Double { (1 - cos(2 * .pi * fraction)) / 2 }

    /// The mean synodic month, days.
    public static let synodicMonthDays = 29.530588861
    /// The instant of Meeus' mean new moon k = 0 (JDE 2451550.09766 less ΔT ≈ 64 s), seconds since 1970.
    static let epochSeconds = (2_451_550.097_66 - 2_440_587.5) * 86_400 - 64

    /// The phase at `instant`: the share of the way from the last new moon to the next.
    public init(at instant: Date) {
        let seconds = instant.timeIntervalSince1970
        var lunation = ((seconds - Self.epochSeconds) / (Self.synodicMonthDays * 86_400)).rounded(.down)
        if seconds < Self.newMoon(lunation) { lunation -= 1 }
        if seconds >= Self.newMoon(lunation + 1) { lunation += 1 }
        let start = Self.newMoon(lunation)
        fraction = min(max((seconds - start) / (Self.newMoon(lunation + 1) - start), 0), 0.999_999)
    }

    /// The instant of the new moon of lunation `k` (0 = January 2000), seconds since 1970.
    public static func newMoon(_ k: Double) -> Double {
        epochSeconds + (k * synodicMonthDays + trueNewMoonCorrectionDays(lunation: k)) * 86_400
    }

    /// Creates a phase from its fraction of the month.
    public init(fraction: Double) { self.fraction = fraction }

    /// The two largest terms of Meeus' true new moon (eq. 49.4), days, for lunation `k` since 2000.
    static func trueNewMoonCorrectionDays(lunation k: Double) -> Double {
        let sunAnomaly = (2.5534 + 29.105_356_70 * k) * .pi / 180
        let moonAnomaly = (201.5643 + 385.816_935_28 * k) * .pi / 180
        return -0.4072 * sin(moonAnomaly) + 0.1721 * sin(sunAnomaly)
    }

    /// The phase's name: new moon, waxing crescent, first quarter, waxing gibbous, full moon, waning gibbous, last quarter,
    /// waning crescent (each principal phase spans a day either side of it, as calendars and almanacs name the day).
    public var name: String {
        let principal = 1 / Self.synodicMonthDays
        switch fraction {
        case ..<principal, (1 - principal)...: return "new moon"
        case ..<(0.25 - principal): return "waxing crescent"
        case ..<(0.25 + principal): return "first quarter"
        case ..<(0.5 - principal): return "waxing gibbous"
        case ..<(0.5 + principal): return "full moon"
        case ..<(0.75 - principal): return "waning gibbous"
        case ..<(0.75 + principal): return "last quarter"
        default: return "waning crescent"
        }
    }
}
