import Foundation
import IsobarConsensus
import IsobarCore
import IsobarEngine
import Testing

@Suite("ConsensusV1 local days")
struct ConsensusV1LocalDaysTests {
    /// One provider with hourly steps from `from` to `to` (UTC): temperature = hours since `origin`, 1 mm every hour.
    static func hourlyReport(place: Place, from: Date, to: Date, origin: Date) -> WeatherReport {
        let count = Int(to.timeIntervalSince(from) / 3600) + 1
        let steps = V1Fixture.steps(from: from, count: count) { index, step in
            step.temperatureC = (from.timeIntervalSince(origin) / 3600) + Double(index)
            step.precipitationMM = 1
            step.condition = .cloudy
        }
        return V1Fixture.report("hourly", place: place, hourly: steps)
    }

    static func day(_ result: ConsensusResult, _ date: LocalDate) throws -> ConsensusDayV1 {
        try #require(result.daily.first { $0.date == date })
    }

    /// New York (UTC−5 in November): 28 November runs 05:00 UTC to 05:00 UTC. Temperatures at its instants
    /// (hours 5…28 after midnight UTC) give min 5 and max 28; its hours ending 06:00 … 05:00 hold 24 mm.
    @Test func newYorkWestOfUTC() throws {
        let origin = V1Fixture.utc(2026, 11, 28)
        let report = Self.hourlyReport(place: V1Fixture.newYork, from: V1Fixture.utc(2026, 11, 27), to: V1Fixture.utc(2026, 11, 30), origin: origin)
        let result = ConsensusV1.merge([report], place: V1Fixture.newYork, now: origin)
        #expect(result.zone == .named("America/New_York"))
        let day = try Self.day(result, V1Fixture.date(2026, 11, 28))
        #expect(day.start == V1Fixture.utc(2026, 11, 28, 5))
        #expect(day.end == V1Fixture.utc(2026, 11, 29, 5))
        #expect(day.utcOffsetSeconds == -18_000)
        #expect(day[.temperatureMin]?.value == 5)
        #expect(day[.temperatureMax]?.value == 28)
        #expect(day[.precipitationSum]?.value == 24)
        #expect(day[.temperatureMax]?.inputs.first?.origin == .derived)
        #expect(day.condition?.value == .cloudy)
        // The first and last days are incomplete: no temperatures for them.
        #expect(result.daily.first { $0.date == V1Fixture.date(2026, 11, 26) }?[.temperatureMax] == nil)
    }

    /// Tokyo (UTC+9): 28 November runs from 15:00 UTC on the 27th, so its instants are hours −9…14.
    @Test func tokyoEastOfUTC() throws {
        let origin = V1Fixture.utc(2026, 11, 28)
        let report = Self.hourlyReport(place: V1Fixture.tokyo, from: V1Fixture.utc(2026, 11, 26), to: V1Fixture.utc(2026, 11, 30), origin: origin)
        let result = ConsensusV1.merge([report], place: V1Fixture.tokyo, now: origin)
        let day = try Self.day(result, V1Fixture.date(2026, 11, 28))
        #expect(day.start == V1Fixture.utc(2026, 11, 27, 15))
        #expect(day.utcOffsetSeconds == 32_400)
        #expect(day[.temperatureMin]?.value == -9)
        #expect(day[.temperatureMax]?.value == 14)
        #expect(day[.precipitationSum]?.value == 24)
    }

    /// New York on 1 November 2026 (DST ends): 04:00 UTC to 05:00 UTC the next day, 25 hours, instants 4…28.
    @Test func newYorkFallBackDayHas25Hours() throws {
        let origin = V1Fixture.utc(2026, 11, 1)
        let report = Self.hourlyReport(place: V1Fixture.newYork, from: V1Fixture.utc(2026, 10, 31), to: V1Fixture.utc(2026, 11, 4), origin: origin)
        let result = ConsensusV1.merge([report], place: V1Fixture.newYork, now: origin)
        let day = try Self.day(result, V1Fixture.date(2026, 11, 1))
        #expect(day.start == V1Fixture.utc(2026, 11, 1, 4))
        #expect(day.end == V1Fixture.utc(2026, 11, 2, 5))
        #expect(day.hours == 25)
        #expect(day.utcOffsetSeconds == -14_400)
        #expect(day[.temperatureMin]?.value == 4)
        #expect(day[.temperatureMax]?.value == 28)
        #expect(day[.precipitationSum]?.value == 25)
        #expect(try Self.day(result, V1Fixture.date(2026, 11, 2)).hours == 24)
    }

    /// New York on 8 March 2026 (DST starts): 05:00 UTC to 04:00 UTC the next day, 23 hours, instants 5…27.
    @Test func newYorkSpringForwardDayHas23Hours() throws {
        let origin = V1Fixture.utc(2026, 3, 8)
        let report = Self.hourlyReport(place: V1Fixture.newYork, from: V1Fixture.utc(2026, 3, 7), to: V1Fixture.utc(2026, 3, 10), origin: origin)
        let result = ConsensusV1.merge([report], place: V1Fixture.newYork, now: origin)
        let day = try Self.day(result, V1Fixture.date(2026, 3, 8))
        #expect(day.hours == 23)
        #expect(day[.temperatureMin]?.value == 5)
        #expect(day[.temperatureMax]?.value == 27)
        #expect(day[.precipitationSum]?.value == 23)
    }

    /// Three-hour steps ending at H hours after midnight UTC carry H mm, so each hour of a step gets S / 3 mm where
    /// S is the end of its step. New York's 28 November holds the hours ending 6…29: 2 + 3 × (3 + 4 + … + 9) + 2 × 10 = 148 mm.
    /// (Counting whole steps by the day they end in would give 6 + 9 + … + 27 = 132 mm.)
    @Test func threeHourStepsAreSplitAcrossTheLocalMidnight() throws {
        let origin = V1Fixture.utc(2026, 11, 28)
        let steps = V1Fixture.steps(from: V1Fixture.utc(2026, 11, 27), every: 3, count: 25) { index, step in
            let hours = Double(index * 3 - 24)
            step.temperatureC = hours
            step.precipitationMM = max(0, hours)
        }
        let result = ConsensusV1.merge([V1Fixture.report("owm", place: V1Fixture.newYork, hourly: steps)], place: V1Fixture.newYork, now: origin)
        let day = try Self.day(result, V1Fixture.date(2026, 11, 28))
        #expect(isClose(day[.precipitationSum]?.value, 148, 1e-9))
        #expect(isClose(day[.temperatureMin]?.value, 5))
        #expect(isClose(day[.temperatureMax]?.value, 28))
    }

    /// Without a zone name the first report's UTC offset decides the days, and the result says so.
    @Test func aFixedOffsetWhenNoZoneIsKnown() throws {
        var place = V1Fixture.newYork
        place.timeZoneIdentifier = nil
        var report = Self.hourlyReport(place: place, from: V1Fixture.utc(2026, 10, 31), to: V1Fixture.utc(2026, 11, 3), origin: V1Fixture.utc(2026, 11, 1))
        report.timeZoneIdentifier = nil
        let result = ConsensusV1.merge([report], place: place, now: V1Fixture.utc(2026, 11, 1))
        #expect(result.zone == .fixedOffset(seconds: -18_000))
        #expect(result.zone.description == "UTC-05:00")
        #expect(result.zoneFallbackReason == nil)
        let day = try Self.day(result, V1Fixture.date(2026, 11, 1))
        #expect(day.hours == 24)
        #expect(day.start == V1Fixture.utc(2026, 11, 1, 5))
    }

    @Test func anUnknownZoneFallsBackToTheOffsetAndSaysWhy() throws {
        var place = V1Fixture.newYork
        place.timeZoneIdentifier = "Mars/Olympus_Mons"
        let result = ConsensusV1.merge([V1Fixture.report("a", place: place)], place: place, now: V1Fixture.utc(2026, 11, 1))
        #expect(result.zone == .fixedOffset(seconds: -18_000))
        #expect(result.zoneFallbackReason?.contains("Mars/Olympus_Mons") == true)
        let calendar = LocalCalendar.resolve(place: V1Fixture.tokyo, reports: [])
        #expect(calendar.zone == .named("Asia/Tokyo"))
    }
}
