import Foundation
@testable import IsobarCLI
import IsobarCore
import IsobarEngine
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

    @Test func noChanceGivenOrNoHoursAreNotDry() {
        let none = Umbrella.clause(GlanceInput(hoursAhead: Self.hours([nil, nil]), today: Self.today))
        #expect(none?.short == "no chance of precipitation given for the next 2 hours")
        #expect(Umbrella.clause(GlanceInput(hoursAhead: [], today: Self.today)) == nil)
        #expect(Glance.line(GlanceInput(hoursAhead: [], today: Self.today)) == nil)
        #expect(Glance.sentences(GlanceInput(hoursAhead: [], today: Self.today)) == nil)
    }
}
