import Foundation
@testable import IsobarCLI
@testable import IsobarConsensus
import IsobarCore
import IsobarEngine
@testable import IsobarRender
import Testing

@Suite struct GlanceTests {
    static let today = LocalDate(year: 2026, month: 11, day: 28)!
    static let start = Date(timeIntervalSince1970: 1_795_867_200)  // 2026-11-28 12:00 UTC

    /// Hours after 12:00 UTC at UTC+3 with these chances (nil: no chance given) and conditions.
    static func hours(_ chances: [Double?], condition: Condition? = nil) -> [ConsensusHour] {
        chances.enumerated().map { index, chance in
            var values: [Quantity: MergedField] = [:]
            if let chance {
                values[.precipitationProbability] = MergedField(value: chance, min: chance, max: chance, spread: 0, medianAbsoluteDeviation: 0,
                                                                inputs: [ProviderValue(provider: "a", value: chance)], confidence: 0.5)
            }
            let merged = condition.map { MergedConditionV1(value: $0, votes: [], confidence: 0.5) }
            return ConsensusHour(time: start.addingTimeInterval(Double(index + 1) * 3600), utcOffsetSeconds: 10_800, leadHours: Double(index + 1),
                                 values: values, condition: merged, confidence: 0.5)
        }
    }

    @Test func theFirstHourAtFiftyPercentOrMoreIsNamedOnTheLocalClock() throws {
        let clause = try #require(Umbrella.clause(GlanceInput(hoursAhead: Self.hours([10, 49.4, 50, 90]), today: Self.today)))
        #expect(clause.short == "rain likely at 18:00 (chance 50 %)")
        #expect(clause.spoken == "Rain is likely at 18:00, a 50 percent chance.")
        #expect(Glance.line(GlanceInput(hoursAhead: Self.hours([80]), today: Self.today)) == "At a glance: rain likely at 16:00 (chance 80 %)\n")
    }

    @Test func snowAndTomorrowAreSaid() throws {
        let late = Array(repeating: 0.0, count: 10) + [70]
        let clause = try #require(Umbrella.clause(GlanceInput(hoursAhead: Self.hours(late, condition: .snow), today: Self.today)))
        #expect(clause.short == "snow likely at Sun 02:00 (chance 70 %)")
        #expect(clause.spoken == "Snow is likely at 02:00 on Sunday, a 70 percent chance.")
    }

    @Test func onlyTheNextTwelveHoursCount() throws {
        let clause = try #require(Umbrella.clause(GlanceInput(hoursAhead: Self.hours(Array(repeating: 0, count: 12) + [100]), today: Self.today)))
        #expect(clause.short == "no rain expected in the next 12 hours")
        #expect(clause.spoken == "No rain is expected in the next 12 hours.")
        let short = try #require(Umbrella.clause(GlanceInput(hoursAhead: Self.hours([0, 0, 0]), today: Self.today)))
        #expect(short.short == "no rain expected in the next 3 hours", "fewer hours known, fewer said")
    }

    /// Hours after 12:00 UTC at UTC+3 with these UV indexes.
    static func uvHours(_ indexes: [Double?]) -> [ConsensusHour] {
        indexes.enumerated().map { offset, index in
            var values: [Quantity: MergedField] = [.precipitationProbability: MergedField(
                value: 0, min: 0, max: 0, spread: 0, medianAbsoluteDeviation: 0, inputs: [ProviderValue(provider: "a", value: 0)], confidence: 0.5)]
            if let index {
                values[.uvIndex] = MergedField(value: index, min: index, max: index, spread: 0, medianAbsoluteDeviation: 0,
                                               inputs: [ProviderValue(provider: "a", value: index)], confidence: 0.5)
            }
            return ConsensusHour(time: start.addingTimeInterval(Double(offset + 1) * 3600), utcOffsetSeconds: 10_800, leadHours: Double(offset + 1),
                                 values: values, condition: nil, confidence: 0.5)
        }
    }

    @Test func theUVPeakOfTheRestOfTodayIsSaidWithItsWHOCategory() throws {
        // 16:00 to 23:00 local today, then tomorrow's hours, which do not count.
        let clause = try #require(Sunscreen.clause(GlanceInput(hoursAhead: Self.uvHours([2.4, 5.6, 6.4, nil, 1, 0, 0, 0, 11, 11]), today: Self.today)))
        #expect(clause.short == "UV high today (peak 6 at 17:00)")
        #expect(clause.spoken == "The UV index peaks at 6 at 17:00, high: sun protection is needed.")
        #expect(Sunscreen.category(0).short == "low" && Sunscreen.category(3).short == "moderate" && Sunscreen.category(8).short == "very high")
        #expect(Sunscreen.category(11).short == "extreme" && Sunscreen.category(10).short == "very high" && Sunscreen.category(7).short == "high")
        let line = Glance.line(GlanceInput(hoursAhead: Self.uvHours([0.2]), today: Self.today))
        #expect(line == "At a glance: no UV for the rest of today; no rain expected in the next hour\n")
        #expect(Sunscreen.clause(GlanceInput(hoursAhead: Self.uvHours([0.2, 0.6]), today: Self.today))?.short == "UV low today (peak 1 at 17:00)")
    }

    @Test func noUVGivenTodaySaysNothingOfIt() {
        #expect(Sunscreen.clause(GlanceInput(hoursAhead: Self.uvHours([nil, nil]), today: Self.today)) == nil)
        let tomorrowOnly = Array(repeating: nil, count: 8) + [Double?(5)]
        #expect(Sunscreen.clause(GlanceInput(hoursAhead: Self.uvHours(tomorrowOnly), today: Self.today)) == nil)
    }

    @Test func noChanceGivenOrNoHoursAreNotDry() {
        let none = Umbrella.clause(GlanceInput(hoursAhead: Self.hours([nil, nil]), today: Self.today))
        #expect(none?.short == "no chance of precipitation given for the next 2 hours")
        #expect(Umbrella.clause(GlanceInput(hoursAhead: [], today: Self.today)) == nil)
        #expect(Glance.line(GlanceInput(hoursAhead: [], today: Self.today)) == nil)
        #expect(Glance.sentences(GlanceInput(hoursAhead: [], today: Self.today)) == nil)
    }
}
