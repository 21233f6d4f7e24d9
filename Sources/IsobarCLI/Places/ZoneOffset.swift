import FoundationEssentials
import IsobarCore

extension Place {
    /// The place with its UTC offset at `instant` taken from its IANA zone (so `Europe/Paris` shows `UTC+01:00` or
    /// `UTC+02:00` before any provider answers); unchanged when it has no zone or the zone file cannot be read.
    func withZoneOffset(at instant: Date, zoneDirectory: String = ZoneInfo.defaultDirectory) -> Place {
        guard let zone = timeZoneIdentifier else { return self }
        do {
            var place = self
            place.utcOffsetSeconds = try ZoneInfoCache.zone(identifier: zone, directory: zoneDirectory).offset(at: instant)
            return place
        } catch {
            // The consensus says why the zone cannot be used; the place keeps the offset it came with.
            return self
        }
    }
}
