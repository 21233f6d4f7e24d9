@testable import IsobarConsensus
import IsobarCore
@testable import IsobarEngine
import Testing

@Suite("ZoneCalendars")
struct ZoneCalendarsTests {
    func place(_ zone: String?, offset: Int? = nil) -> Place {
        Place(name: "P", coordinate: Coordinate(latitude: 53.9, longitude: 27.57)!, utcOffsetSeconds: offset, timeZoneIdentifier: zone)
    }

    @Test func aNamedZoneIsTheOneEveryCommandResolves() throws {
        let calendars = ZoneCalendars()
        let minsk = try #require(calendars.calendar(for: place("Europe/Minsk")))
        #expect(minsk == LocalCalendar.resolve(place: place("Europe/Minsk"), reports: []))
        #expect(minsk.zone == .named("Europe/Minsk"))
        // Kept: the same answer again, and for another place in the zone.
        #expect(calendars.calendar(for: place("Europe/Minsk", offset: 7200)) == minsk)
    }

    @Test func noZoneOrOneWhoseFileCannotBeUsedGivesNone() {
        let calendars = ZoneCalendars()
        #expect(calendars.calendar(for: place(nil, offset: 3600)) == nil)
        #expect(calendars.calendar(for: place("Nowhere/Atlantis", offset: 3600)) == nil)
        #expect(calendars.calendar(for: place("../etc/passwd")) == nil)
    }

    @Test func pastItsCapacityItStillAnswers() throws {
        let calendars = ZoneCalendars()
        let zones = ["Europe/Minsk", "Asia/Tokyo", "America/New_York"]
        for round in 0..<(ZoneCalendars.capacity / zones.count + 2) {
            let zone = zones[round % zones.count]
            #expect(calendars.calendar(for: place(zone))?.zone == .named(zone))
        }
    }
}
