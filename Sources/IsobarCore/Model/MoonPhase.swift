import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The moon's phase at an instant, computed locally (no provider gives it).
///
/// New and full moons follow Meeus (Astronomical Algorithms, ch. 49): the mean phase of lunation `k` (0 = the new moon of
/// 2000-01-06, JDE 2451550.09766) advances by the mean synodic month, 29.530588861 days, and is corrected by the two largest
/// periodic terms in the Sun's and the Moon's mean anomalies M and M′ (new moon −0.4072 sin M′ + 0.1721 sin M, full moon
/// −0.40614 sin M′ + 0.17302 sin M). The phase runs evenly from a new moon to the next full moon (0 → 0.5) and from it to the
/// next new moon (0.5 → 1). Within an hour of the published new and full moons of 2025–2027.
public struct MoonPhase: Sendable, Equatable {
    /// The fraction of the synodic month since new moon, 0..<1 (0 new, 0.25 first quarter, 0.5 full, 0.75 last quarter).
    public var fraction: Double
    /// The lit fraction of the disc, 0…1.
    public var illumination: Double { (1 - cos(2 * .pi * fraction)) / 2 }

    /// The mean synodic month, days.
    public static let synodicMonthDays = 29.530588861
    /// The instant of Meeus' mean new moon k = 0 (JDE 2451550.09766 less ΔT ≈ 64 s), seconds since 1970.
    static let epochSeconds = (2_451_550.097_66 - 2_440_587.5) * 86_400 - 64

    /// The phase at `instant`: the share of the way from the last new moon to the next, full moon at 0.5.
    public init(at instant: Date) {
        let seconds = instant.timeIntervalSince1970
        var lunation = ((seconds - Self.epochSeconds) / (Self.synodicMonthDays * 86_400)).rounded(.down)
        if seconds < Self.newMoon(lunation) { lunation -= 1 }
        if seconds >= Self.newMoon(lunation + 1) { lunation += 1 }
        let (new, full, next) = (Self.newMoon(lunation), Self.fullMoon(lunation), Self.newMoon(lunation + 1))
        let value = seconds < full ? 0.5 * (seconds - new) / (full - new) : 0.5 + 0.5 * (seconds - full) / (next - full)
        fraction = min(max(value, 0), 0.999_999)
    }

    /// The instant of the new moon of lunation `k` (0 = January 2000), seconds since 1970.
    public static func newMoon(_ k: Double) -> Double {
        let (sun, moon) = anomalies(k)
        return epochSeconds + (k * synodicMonthDays - 0.4072 * sin(moon) + 0.1721 * sin(sun)) * 86_400
    }

    /// The instant of the full moon after the new moon of lunation `k`, seconds since 1970.
    public static func fullMoon(_ k: Double) -> Double {
        let (sun, moon) = anomalies(k + 0.5)
        return epochSeconds + ((k + 0.5) * synodicMonthDays - 0.406_14 * sin(moon) + 0.173_02 * sin(sun)) * 86_400
    }

    /// The Sun's and the Moon's mean anomalies at phase `k`, radians (Meeus eq. 49.4, 49.5 without the small T terms).
    static func anomalies(_ k: Double) -> (sun: Double, moon: Double) {
        ((2.5534 + 29.105_356_70 * k) * .pi / 180, (201.5643 + 385.816_935_28 * k) * .pi / 180)
    }

    /// Creates a phase from its fraction of the month.
    public init(fraction: Double) { self.fraction = fraction }

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
