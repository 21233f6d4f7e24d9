import Foundation
import IsobarConsensus
import IsobarCore
import IsobarEngine
import Testing

@Suite("ConsensusV1 merge")
struct ConsensusV1Tests {
    static let now = V1Fixture.utc(2026, 11, 28)

    /// An hourly provider (with its own day for 28 November) and a three-hourly one, in New York.
    static func reports() -> [WeatherReport] {
        let hourly = V1Fixture.steps(from: V1Fixture.utc(2026, 11, 27), count: 73) { index, step in
            step.temperatureC = Double(index - 24) + 1
            step.humidityPercent = 80
            step.precipitationMM = 0
            step.precipitationProbabilityPercent = 10
            step.condition = .cloudy
        }
        var ownDay = DailyPoint(date: V1Fixture.date(2026, 11, 28))
        ownDay.temperatureMaxC = 30
        let threeHourly = V1Fixture.steps(from: V1Fixture.utc(2026, 11, 27), every: 3, count: 25) { index, step in
            step.temperatureC = Double(index * 3 - 24)
            step.precipitationMM = 0
            step.precipitationProbabilityPercent = 20
            step.condition = .rain
        }
        return [V1Fixture.report("hourly", place: V1Fixture.newYork, hourly: hourly, daily: [ownDay]), V1Fixture.report("owm", place: V1Fixture.newYork, hourly: threeHourly)]
    }

    @Test func hoursAreMergedOnTheUTCGridWithProvenance() throws {
        let result = ConsensusV1.merge(Self.reports(), place: V1Fixture.newYork, now: Self.now)
        #expect(result.providers == ["hourly", "owm"])
        #expect(result.referenceTime == Self.now)
        let hour = try #require(result.hourly.first { $0.time == V1Fixture.utc(2026, 11, 28, 1) })
        let temperature = try #require(hour[.temperature])
        // hourly: 2; owm: interpolated between 0 at 00:00 and 3 at 03:00, so 1.
        #expect(temperature.inputs == [
            ProviderValue(provider: "hourly", value: 2, origin: .given), ProviderValue(provider: "owm", value: 1, origin: .interpolated),
        ])
        #expect(temperature.value == 1.5)
        #expect(temperature.disagreement == Disagreement(difference: 1, floor: 2, exceedsFloor: false))
        #expect(hour.utcOffsetSeconds == -18_000)
        #expect(hour.leadHours == 1)
        // Only the hourly provider gives humidity.
        #expect(hour[.humidity]?.missing == ["owm"])
        #expect(hour[.humidity]?.contributors == ["hourly"])
        #expect(hour[.pressure] == nil)
        #expect(hour.values.keys.contains(.temperature))
    }

    /// Rain (held from owm's step) against cloudy: a tie goes to rain, but both say 0 mm at under 30 %, so it is demoted.
    @Test func anImplausibleRainVoteIsDemoted() throws {
        let result = ConsensusV1.merge(Self.reports(), place: V1Fixture.newYork, now: Self.now)
        let hour = try #require(result.hourly.first { $0.time == V1Fixture.utc(2026, 11, 28, 2) })
        let condition = try #require(hour.condition)
        #expect(condition.value == .cloudy)
        #expect(condition.demotedFrom == .rain)
        #expect(condition.votes.map(\.origin) == [.given, .interpolated])
    }

    @Test func ownDaysWinOverComputedOnes() throws {
        let result = ConsensusV1.merge(Self.reports(), place: V1Fixture.newYork, now: Self.now)
        let day = try #require(result.daily.first { $0.date == V1Fixture.date(2026, 11, 28) })
        let maximum = try #require(day[.temperatureMax])
        // hourly gives 30 itself; owm's is computed from its interpolated hours 5…28: 28.
        #expect(maximum.inputs.map(\.origin) == [.given, .derived])
        #expect(maximum.inputs.map(\.value) == [30, 28])
        #expect(maximum.value == 29)
        // hourly has no own minimum, so its is computed too: hours 5…28 hold 6…29.
        #expect(day[.temperatureMin]?.inputs.map(\.value) == [6, 5])
        #expect(day[.temperatureMin]?.inputs.map(\.origin) == [.derived, .derived])
        // Lead time to the middle of the day: 05:00 UTC + 12 h.
        #expect(day.leadHours == 17)
    }

    @Test func weightsAndExclusions() throws {
        var reports = Self.reports()
        reports.append(V1Fixture.report("off", place: V1Fixture.newYork, hourly: reports[0].hourly))
        let result = ConsensusV1.merge(reports, place: V1Fixture.newYork, weights: ["owm": 3, "off": 0], now: Self.now)
        #expect(result.providers == ["hourly", "owm"])
        #expect(result.excluded == ["off"])
        #expect(result.weights == ["hourly": 1, "owm": 3])
        let hour = try #require(result.hourly.first { $0.time == V1Fixture.utc(2026, 11, 28, 1) })
        // Total weight 4: owm's 1 (weight 3) is the median; hourly's 2 is within the 2 °C floor.
        #expect(hour[.temperature]?.value == 1)
        #expect(hour[.temperature]?.outliers == [])
        #expect(hour[.temperature]?.disagreement == nil)
        #expect(hour[.temperature]?.inputs.map(\.weight) == [1, 3])
    }

    @Test func minimumSourcesDropsThinFields() throws {
        var configuration = ConsensusConfiguration()
        configuration.minimumSources = 2
        let result = ConsensusV1.merge(Self.reports(), place: V1Fixture.newYork, now: Self.now, configuration: configuration)
        let hour = try #require(result.hourly.first { $0.time == V1Fixture.utc(2026, 11, 28, 1) })
        #expect(hour[.temperature] != nil)
        #expect(hour[.humidity] == nil)
    }

    @Test func currentConditions() throws {
        let a = V1Fixture.step(V1Fixture.utc(2026, 11, 28, 11, 52), period: 1) {
            $0.temperatureC = 0; $0.windDirectionDeg = 350; $0.condition = .snow; $0.precipitationMM = 0.3
        }
        let b = V1Fixture.step(V1Fixture.utc(2026, 11, 28, 12), period: 0.25) {
            $0.temperatureC = -0.9; $0.windDirectionDeg = 10; $0.condition = .snow; $0.precipitationMM = 0.2
        }
        let result = ConsensusV1.merge([V1Fixture.report("a", current: a), V1Fixture.report("b", current: b)], place: V1Fixture.minsk, now: V1Fixture.utc(2026, 11, 28, 12))
        let current = try #require(result.current)
        #expect(current.time == V1Fixture.utc(2026, 11, 28, 12))
        #expect(current.leadHours == 0)
        #expect(current.utcOffsetSeconds == 10_800)
        #expect(isClose(current[.temperature]?.value, -0.45))
        #expect(isClose(current[.windDirection]?.value, 0))
        // 0.3 mm in an hour and 0.2 mm in 15 minutes: 0.3 and 0.8 mm/h.
        #expect(isClose(current[.precipitationRate]?.value, 0.55))
        #expect(current.condition?.value == .snow)
        #expect(result.hourly.isEmpty)
        #expect(result.daily.isEmpty)
        #expect(result.zone == .named("Europe/Minsk"))
    }

    /// Confidence of an hour a week ahead: two agreeing providers give 1 × 0.75 × 0.5 per field.
    @Test func confidenceIncludesLeadTime() throws {
        let time = Self.now.addingTimeInterval(168 * 3600)
        let reports = ["a", "b"].map { id in V1Fixture.report(id, hourly: [V1Fixture.step(time) { $0.temperatureC = 3; $0.pressureHPa = 1000 }]) }
        let result = ConsensusV1.merge(reports, place: V1Fixture.minsk, now: Self.now)
        let hour = try #require(result.hourly.first)
        #expect(hour.leadHours == 168)
        #expect(hour[.temperature]?.confidence == 0.375)
        #expect(hour.confidence == 0.375)
    }

    @Test func nothingToMerge() {
        let result = ConsensusV1.merge([], place: V1Fixture.minsk, now: Self.now)
        #expect(result.current == nil)
        #expect(result.hourly.isEmpty)
        #expect(result.daily.isEmpty)
        #expect(result.providers.isEmpty)
    }
}
