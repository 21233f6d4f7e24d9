import FoundationEssentials
import IsobarCore
import IsobarEngine
import Testing

@Suite("DailyAggregation and Vote")
struct DailyAggregationTests {
    private static let day = Fixture.day
    private static let nextDay = LocalDate(daysSinceEpoch: 20_786)

    /// Three-hourly steps at UTC: two ending on the 27th, eight covering the 28th, two ending on the 29th.
    private static func threeHourlyAroundOneDay() -> [WeatherSample] {
        let temperatures: [Double] = [4, 2, 1, 5, 9, 12, 8, 6]
        let precipitation: [Double] = [0, 0, 0.25, 0.5, 1, 0, 0, 0.25]
        let probability: [Double] = [10, 20, 80, 90, 60, 30, 0, 5]
        let wind: [Double] = [3, 4, 5, 6.5, 7, 5, 2, 1]
        let gusts: [Double] = [5, 6, 8, 11.5, 12, 9, 4, 2]
        let directions: [Double] = [260, 280, 270, 270, 270, 270, 270, 270]
        let conditions: [Condition] = [.cloudy, .cloudy, .rain, .rain, .rain, .cloudy, .partlyCloudy, .clear]
        let before = [-6.0, -3].map { hours in
            Fixture.step(hours, period: 3) { $0.temperatureC = 100; $0.precipitationMM = 50; $0.condition = .tornado }
        }
        let inside = (0..<8).map { index in
            Fixture.step(Double(3 * (index + 1)), period: 3) { sample in
                sample.temperatureC = temperatures[index]
                sample.precipitationMM = precipitation[index]
                sample.precipitationProbabilityPercent = probability[index]
                sample.windSpeedMS = wind[index]
                sample.windGustMS = gusts[index]
                sample.windDirectionDeg = directions[index]
                sample.condition = conditions[index]
            }
        }
        let after = [27.0, 30].map { hours in
            Fixture.step(hours, period: 3) { $0.temperatureC = -100; $0.windSpeedMS = 99; $0.condition = .tornado }
        }
        return before + inside + after
    }

    @Test func completeDaysOnlyWithTheirStatistics() throws {
        let days = DailyAggregation.days(from: Self.threeHourlyAroundOneDay(), utcOffsetSeconds: 0)
        #expect(days.map(\.date) == [Self.day])
        let day = try #require(days.first)
        #expect(day.isDerived)
        #expect(day.temperatureMaxC == 12)
        #expect(day.temperatureMinC == 1)
        #expect(day.precipitationMM == 2)
        #expect(day.precipitationProbabilityMaxPercent == 90)
        #expect(day.windSpeedMaxMS == 7)
        #expect(day.windGustMaxMS == 12)
        #expect(isClose(day.windDirectionDominantDeg, 270, 1e-6))
        // cloudy 3, rain 3, partly cloudy 1, clear 1: the tie goes to the more severe rain.
        #expect(day.condition == .rain)
        #expect(day.sunrise == nil)
        #expect(day.sunset == nil)
    }

    @Test func precipitationSumIsNilWhenAnyStepLacksIt() throws {
        var steps = Self.threeHourlyAroundOneDay()
        steps[5].precipitationMM = nil
        let day = try #require(DailyAggregation.days(from: steps, utcOffsetSeconds: 0).first)
        #expect(day.precipitationMM == nil)
        #expect(day.temperatureMaxC == 12)
    }

    @Test func absentQuantitiesStayAbsent() throws {
        let steps = (1...8).map { index in Fixture.step(Double(3 * index), period: 3) }
        let day = try #require(DailyAggregation.days(from: steps, utcOffsetSeconds: 0).first)
        #expect(day.date == Self.day)
        #expect(day.temperatureMaxC == nil)
        #expect(day.temperatureMinC == nil)
        #expect(day.precipitationMM == nil)
        #expect(day.precipitationProbabilityMaxPercent == nil)
        #expect(day.windSpeedMaxMS == nil)
        #expect(day.windGustMaxMS == nil)
        #expect(day.windDirectionDominantDeg == nil)
        #expect(day.condition == nil)
    }

    @Test func stepEndingAtLocalMidnightBelongsToThePreviousDay() {
        // One 24-hour period ending at 00:00 on the 29th is the whole of the 28th.
        let whole = [Fixture.step(24, period: 24) { $0.temperatureC = 3 }]
        #expect(DailyAggregation.days(from: whole, utcOffsetSeconds: 0).map(\.date) == [Self.day])
        // At UTC+1 the same period ends at 01:00 on the 29th, so it counts for the 29th.
        #expect(DailyAggregation.days(from: whole, utcOffsetSeconds: 3600).map(\.date) == [Self.nextDay])
        // One second later it ends on the 29th even at UTC.
        let late = [Fixture.step(24 + 1.0 / 3600, period: 24)]
        #expect(DailyAggregation.days(from: late, utcOffsetSeconds: 0).map(\.date) == [Self.nextDay])
        // Eight steps ending 03:00 … 24:00 make the 28th; none of them counts for the 29th.
        let eight = (1...8).map { index in Fixture.step(Double(3 * index), period: 3) }
        #expect(DailyAggregation.days(from: eight, utcOffsetSeconds: 0).map(\.date) == [Self.day])
        // Shifted by one step (06:00 … 03:00 on the 29th), neither day is complete.
        let shifted = (2...9).map { index in Fixture.step(Double(3 * index), period: 3) }
        #expect(DailyAggregation.days(from: shifted, utcOffsetSeconds: 0).isEmpty)
    }

    @Test func hourlyStepsOverTwoDays() throws {
        let steps = (1...48).map { hour in Fixture.step(Double(hour)) { $0.temperatureC = Double(hour) } }
        let days = DailyAggregation.days(from: steps, utcOffsetSeconds: 0)
        #expect(days.map(\.date) == [Self.day, Self.nextDay])
        #expect(days.map(\.temperatureMinC) == [1, 25])
        #expect(days.map(\.temperatureMaxC) == [24, 48])
        // One hour missing breaks the second day.
        var gap = steps
        gap.remove(at: 30)
        #expect(DailyAggregation.days(from: gap, utcOffsetSeconds: 0).map(\.date) == [Self.day])
    }

    @Test func stepOrderDoesNotMatter() {
        let steps = Self.threeHourlyAroundOneDay()
        let forward = DailyAggregation.days(from: steps, utcOffsetSeconds: 0)
        let backward = DailyAggregation.days(from: steps.reversed(), utcOffsetSeconds: 0)
        #expect(forward == backward)
    }

    /// New York, UTC−5: the 28th runs from 05:00Z on the 28th to 05:00Z on the 29th. Three-hourly UTC steps
    /// ending 00:00Z on the 28th + 3 h × i (i = 0…16) fall on the 27th for i = 0, 1 (local 19:00, 22:00),
    /// on the 28th for i = 2…9 (local 01:00 … 22:00) and on the 29th for i = 10…16 (only seven steps).
    @Test func negativeOffsetNewYork() throws {
        let steps = (0...16).map { index in Fixture.step(Double(3 * index), period: 3) { $0.temperatureC = Double(index) } }
        let days = DailyAggregation.days(from: steps, utcOffsetSeconds: -18_000)
        #expect(days.map(\.date) == [Self.day])
        #expect(days.first?.temperatureMinC == 2)
        #expect(days.first?.temperatureMaxC == 9)
    }

    /// Tokyo, UTC+9: the 28th runs from 15:00Z on the 27th to 15:00Z on the 28th. Three-hourly UTC steps ending
    /// 00:00Z on the 27th + 3 h × i (i = 0…16): i = 0…5 end on the 27th (i = 5 ends exactly at local midnight),
    /// i = 6…13 on the 28th (i = 13 ends at local midnight starting the 29th), i = 14…16 on the 29th.
    @Test func positiveOffsetTokyo() throws {
        let start = Fixture.midnightUTC.addingTimeInterval(-86_400)
        let steps = (0...16).map { index in
            Fixture.step(Double(3 * index), after: start, period: 3) { $0.temperatureC = Double(index) }
        }
        let days = DailyAggregation.days(from: steps, utcOffsetSeconds: 32_400)
        #expect(days.map(\.date) == [Self.day])
        #expect(days.first?.temperatureMinC == 6)
        #expect(days.first?.temperatureMaxC == 13)
    }

    @Test func noStepsNoDays() {
        #expect(DailyAggregation.days(from: [], utcOffsetSeconds: 0).isEmpty)
    }

    // MARK: Vote

    @Test func voteWinner() {
        #expect(Vote.winner([]) == nil)
        #expect(Vote.winner([.fog]) == .fog)
        #expect(Vote.winner([.rain, .snow]) == .snow)
        #expect(Vote.winner([.snow, .rain]) == .snow)
        #expect(Vote.winner([.cloudy, .cloudy, .thunderstorm]) == .cloudy)
        #expect(Vote.winner([.clear, .tornado, .clear, .tornado, .fog]) == .tornado)
        #expect(Vote.winner([.drizzle, .clear, .clear, .mainlyClear, .drizzle, .clear]) == .clear)
    }

    @Test func conditionsAreOrderedBySeverity() {
        #expect(Condition.clear < .cloudy)
        #expect(Condition.rain < .snow)
        #expect(Condition.thunderstorm < .tornado)
        #expect(Condition.allCases.sorted() == Condition.allCases)
    }
}
