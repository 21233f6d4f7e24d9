import FoundationEssentials
import IsobarCore

/// The zone that decides local days: an IANA zone (DST-aware), or a fixed UTC offset when no zone could be used.
public enum DayZone: Sendable, Equatable, CustomStringConvertible {
    /// An IANA zone read from the zone files, e.g. `America/New_York`.
    case named(String)
    /// A fixed offset in seconds east of UTC.
    case fixedOffset(seconds: Int)

    /// `America/New_York`, or `UTC-05:00` for a fixed offset.
    public var description: String {
        switch self {
        case .named(let identifier): identifier
        case .fixedOffset(let seconds): "UTC" + CivilTime.offsetText(seconds)
        }
    }
}

/// Local calendar days of a place: their boundaries and the UTC offset at any instant.
public struct LocalCalendar: Sendable, Equatable {
    /// The zone used.
    public let zone: DayZone
    /// Why a named zone was not used, when the calendar fell back to a fixed offset.
    public let fallbackReason: String?
    private let zoneInfo: ZoneInfo?
    private let fixedOffset: Int

    /// Days in an IANA zone.
    public init(zoneInfo: ZoneInfo) {
        zone = .named(zoneInfo.identifier)
        fallbackReason = nil
        self.zoneInfo = zoneInfo
        fixedOffset = 0
    }

    /// Days at a fixed offset from UTC.
    public init(fixedOffsetSeconds: Int, fallbackReason: String? = nil) {
        zone = .fixedOffset(seconds: fixedOffsetSeconds)
        self.fallbackReason = fallbackReason
        zoneInfo = nil
        fixedOffset = fixedOffsetSeconds
    }

    /// The place's IANA zone (else the first report's) when its file loads; otherwise the first report's UTC offset,
    /// else the place's, else UTC. A zone file is read once per process and kept.
    public static func resolve(place: Place, reports: [WeatherReport], zoneDirectory: String = ZoneInfo.defaultDirectory) -> LocalCalendar {
        let offset = reports.lazy.compactMap(\.utcOffsetSeconds).first ?? place.utcOffsetSeconds
        guard let identifier = place.timeZoneIdentifier ?? reports.lazy.compactMap(\.timeZoneIdentifier).first else {
            return LocalCalendar(fixedOffsetSeconds: offset ?? 0, fallbackReason: offset == nil ? "no time zone or UTC offset is known" : nil)
        }
        do {
            return LocalCalendar(zoneInfo: try ZoneInfoCache.zone(identifier: identifier, directory: zoneDirectory))
        } catch {
            return LocalCalendar(fixedOffsetSeconds: offset ?? 0, fallbackReason: error.message)
        }
    }

    /// Seconds east of UTC at an instant.
    public func utcOffsetSeconds(at instant: Date) -> Int { zoneInfo?.offset(at: instant) ?? fixedOffset }

    /// The local day of an instant.
    public func localDate(of instant: Date) -> LocalDate {
        zoneInfo?.localDate(of: instant) ?? LocalDate(instant, utcOffsetSeconds: fixedOffset)
    }

    /// A local day, from its first instant up to the next day's (23, 24 or 25 hours in a zone with DST).
    public func interval(of date: LocalDate) -> Range<Date> {
        if let zoneInfo { return zoneInfo.interval(of: date) }
        return date.start(utcOffsetSeconds: fixedOffset)..<LocalDate(daysSinceEpoch: date.daysSinceEpoch + 1).start(utcOffsetSeconds: fixedOffset)
    }
}
