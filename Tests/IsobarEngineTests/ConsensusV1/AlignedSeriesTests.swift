import Foundation
import IsobarConsensus
import IsobarCore
import IsobarEngine
import Testing

@Suite("ConsensusV1 time alignment")
struct ConsensusV1AlignedSeriesTests {
    static let midnight = V1Fixture.utc(2026, 11, 28)

    static func at(_ hours: Double) -> Date { midnight.addingTimeInterval(hours * 3600) }

    /// Three-hour steps ending 00:00, 03:00, 06:00 UTC.
    static let threeHourly = AlignedSeries(provider: "owm", steps: [
        V1Fixture.step(at(0), period: 3) { $0.temperatureC = 10; $0.pressureHPa = 1000; $0.precipitationMM = 0; $0.precipitationProbabilityPercent = 10; $0.condition = .cloudy },
        V1Fixture.step(at(3), period: 3) { $0.temperatureC = 16; $0.pressureHPa = 1003; $0.precipitationMM = 3; $0.precipitationProbabilityPercent = 60; $0.condition = .rain },
        V1Fixture.step(at(6), period: 3) { $0.temperatureC = 13; $0.precipitationMM = 6; $0.precipitationProbabilityPercent = 90; $0.condition = .snow },
    ])

    @Test func continuousValuesAreInterpolatedLinearly() throws {
        let series = Self.threeHourly
        // 10 → 16 over three hours: 12 and 14 in between.
        #expect(series.point(.temperature, at: Self.at(0)) == .init(value: 10, isInterpolated: false))
        #expect(series.point(.temperature, at: Self.at(1)) == .init(value: 12, isInterpolated: true))
        #expect(series.point(.temperature, at: Self.at(2)) == .init(value: 14, isInterpolated: true))
        #expect(series.point(.temperature, at: Self.at(3)) == .init(value: 16, isInterpolated: false))
        #expect(series.point(.temperature, at: Self.at(4)) == .init(value: 15, isInterpolated: true))
        #expect(series.point(.pressure, at: Self.at(1)) == .init(value: 1001, isInterpolated: true))
        // Never extrapolated, and a missing value stops the interpolation.
        #expect(series.point(.temperature, at: Self.at(7)) == nil)
        #expect(series.point(.temperature, at: Self.at(-1)) == nil)
        #expect(series.point(.pressure, at: Self.at(4)) == nil)
        // Only whole UTC hours are on the grid.
        #expect(series.point(.temperature, at: Self.at(1.5)) == nil)
    }

    /// 3 mm in the step ending 03:00 gives 1 mm to the hours ending 01:00, 02:00, 03:00; 6 mm gives 2 mm each.
    @Test func threeHourPrecipitationIsSplitEvenly() {
        let series = Self.threeHourly
        for hour in 1...3 { #expect(series.point(.precipitationRate, at: Self.at(Double(hour))) == .init(value: 1, isInterpolated: true)) }
        for hour in 4...6 { #expect(series.point(.precipitationRate, at: Self.at(Double(hour))) == .init(value: 2, isInterpolated: true)) }
        // The step ending 00:00 covers 21:00–00:00 of the day before.
        #expect(series.point(.precipitationRate, at: Self.at(-2)) == .init(value: 0, isInterpolated: true))
        #expect(series.point(.precipitationRate, at: Self.at(-3)) == nil)
        #expect(series.point(.precipitationRate, at: Self.at(7)) == nil)
    }

    @Test func probabilityAndConditionAreHeldOverTheStep() throws {
        let series = Self.threeHourly
        for hour in 1...3 {
            #expect(series.point(.precipitationProbability, at: Self.at(Double(hour))) == .init(value: 60, isInterpolated: true))
            let condition = try #require(series.condition(hour: 20_785 * 24 + hour))
            #expect(condition.condition == .rain)
            #expect(condition.isHeld)
        }
        #expect(series.point(.precipitationProbability, at: Self.at(4)) == .init(value: 90, isInterpolated: true))
        #expect(series.condition(hour: 20_785 * 24 + 4)?.condition == .snow)
        #expect(series.condition(hour: 20_785 * 24 + 7) == nil)
    }

    @Test func hourlyStepsAreGivenNotInterpolated() throws {
        let series = AlignedSeries(provider: "om", steps: V1Fixture.steps(from: Self.at(0), count: 3) { index, step in
            step.temperatureC = Double(index)
            step.precipitationMM = 0.5
            step.precipitationProbabilityPercent = 40
            step.condition = .drizzle
        })
        for hour in 0..<3 {
            #expect(series.point(.temperature, at: Self.at(Double(hour))) == .init(value: Double(hour), isInterpolated: false))
            #expect(series.point(.precipitationRate, at: Self.at(Double(hour))) == .init(value: 0.5, isInterpolated: false))
            #expect(series.point(.precipitationProbability, at: Self.at(Double(hour))) == .init(value: 40, isInterpolated: false))
            #expect(series.condition(hour: 20_785 * 24 + hour)?.isHeld == false)
        }
    }

    /// Steps nine hours apart are further than the six-hour limit: nothing in between.
    @Test func gapsAreNotBridged() {
        let series = AlignedSeries(provider: "x", steps: [
            V1Fixture.step(Self.at(0)) { $0.temperatureC = 0 }, V1Fixture.step(Self.at(9)) { $0.temperatureC = 9 },
        ])
        #expect(series.point(.temperature, at: Self.at(0))?.value == 0)
        #expect(series.point(.temperature, at: Self.at(3)) == nil)
        #expect(series.point(.temperature, at: Self.at(9))?.value == 9)
    }

    @Test func windDirectionIsInterpolatedAsAVector() throws {
        // 350° and 10° at equal speeds: north half way, not 180°.
        let across = AlignedSeries(provider: "x", steps: [
            V1Fixture.step(Self.at(0)) { $0.windDirectionDeg = 350; $0.windSpeedMS = 4 }, V1Fixture.step(Self.at(2)) { $0.windDirectionDeg = 10; $0.windSpeedMS = 4 },
        ])
        let north = try #require(across.point(.windDirection, at: Self.at(1)))
        #expect(north.isInterpolated)
        #expect(circularDistance(north.value, 0) < 1e-9)
        // 0° at 3 m/s and 90° at 1 m/s: half way the vector is (1.5, 0.5), atan2(0.5, 1.5) = 18.43°.
        let weighted = AlignedSeries(provider: "x", steps: [
            V1Fixture.step(Self.at(0)) { $0.windDirectionDeg = 0; $0.windSpeedMS = 3 }, V1Fixture.step(Self.at(2)) { $0.windDirectionDeg = 90; $0.windSpeedMS = 1 },
        ])
        #expect(isClose(weighted.point(.windDirection, at: Self.at(1))?.value, atan2(0.5, 1.5) * 180 / .pi))
        // Without speeds, unit vectors: 90° and 180° give 135°.
        let unit = AlignedSeries(provider: "x", steps: [
            V1Fixture.step(Self.at(0)) { $0.windDirectionDeg = 90 }, V1Fixture.step(Self.at(2)) { $0.windDirectionDeg = 180 },
        ])
        #expect(isClose(unit.point(.windDirection, at: Self.at(1))?.value, 135))
        // Wind speed itself is interpolated linearly: 3 → 1 gives 2.
        #expect(weighted.point(.windSpeed, at: Self.at(1))?.value == 2)
    }

    /// Steps at half hours (a zone at UTC+5:30 with local hourly steps): each UTC hour takes half of two steps.
    @Test func stepsOffTheGridAreSplitAndInterpolated() {
        let series = AlignedSeries(provider: "x", steps: V1Fixture.steps(from: Self.at(0.5), count: 3) { index, step in
            step.temperatureC = Double(10 * index)
            step.precipitationMM = Double(index + 1)
        })
        // Temperature 0 at 00:30 and 10 at 01:30: 5 at 01:00.
        #expect(series.point(.temperature, at: Self.at(1)) == .init(value: 5, isInterpolated: true))
        // The hour ending 01:00 gets half of 1 mm (ending 00:30) and half of 2 mm (ending 01:30).
        #expect(series.point(.precipitationRate, at: Self.at(1)) == .init(value: 1.5, isInterpolated: true))
        #expect(series.point(.precipitationRate, at: Self.at(0)) == nil)
    }

    @Test func anAbsurdTimestampDoesNotStretchTheGrid() {
        let series = AlignedSeries(provider: "x", steps: [V1Fixture.step(Self.at(0)) { $0.temperatureC = 1 }, V1Fixture.step(V1Fixture.utc(2900, 1, 1)) { $0.temperatureC = 2 }])
        #expect(series.count <= 2)
        #expect(series.point(.temperature, at: Self.at(0))?.value == 1)
    }

    @Test func aLaterDuplicateOfAnInstantWins() {
        let series = AlignedSeries(provider: "x", steps: [V1Fixture.step(Self.at(0)) { $0.temperatureC = 1 }, V1Fixture.step(Self.at(0)) { $0.temperatureC = 2 }])
        #expect(series.point(.temperature, at: Self.at(0))?.value == 2)
        #expect(AlignedSeries(provider: "none", steps: []).count == 0)
    }
}
