import Foundation
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarTestKit

/// Random reports from 2–6 providers over the same three days: hourly or three-hourly steps, each provider with its
/// own subset of quantities, noise, occasional gross errors, values rounded so that ties happen, and sometimes its
/// own days and current conditions.
struct ConsensusScenario {
    var place: Place
    var now: Date
    var reports: [WeatherReport]
    var weights: [String: Double] = [:]

    init(_ generator: inout SeededGenerator, randomWeights: Bool = false) {
        place = [V1Fixture.newYork, V1Fixture.tokyo, V1Fixture.minsk].randomElement(using: &generator)!
        // Around New York's change of time, or an ordinary late-November day.
        let start = Bool.random(using: &generator) ? V1Fixture.utc(2026, 10, 31) : V1Fixture.utc(2026, 11, 27)
        now = start.addingTimeInterval(Double(Int.random(in: 0...24, using: &generator)) * 3600)
        let count = Int.random(in: 2...6, using: &generator)
        var reports: [WeatherReport] = []
        for index in 0..<count {
            let id = "p\(index)"
            if randomWeights { weights[id] = [0.5, 1, 1.5, 2].randomElement(using: &generator)! }
            reports.append(Self.report(id, place: place, start: start, &generator))
        }
        self.reports = reports
    }

    func merge() -> ConsensusResult { ConsensusV1.merge(reports, place: place, weights: weights, now: now) }

    static func report(_ id: String, place: Place, start: Date, _ generator: inout SeededGenerator) -> WeatherReport {
        let every: Double = Bool.random(using: &generator) ? 1 : 3
        let present = Set(Quantity.weather.filter { _ in Double.random(in: 0..<1, using: &generator) < 0.8 })
        let spread = Double.random(in: 0.3...2, using: &generator)
        let count = Int(72 / every) + 1
        var steps: [WeatherSample] = []
        for index in 0..<count {
            let hours = Double(index) * every
            var step = WeatherSample(time: start.addingTimeInterval(hours * 3600), periodHours: every)
            func value(_ quantity: Quantity, _ truth: Double, _ sigma: Double, decimals: Double = 10) -> Double? {
                guard present.contains(quantity) else { return nil }
                var noisy = truth + generator.normal(sigma: sigma * spread)
                if Double.random(in: 0..<1, using: &generator) < 0.05 { noisy += 6 * sigma * (Bool.random(using: &generator) ? 1 : -1) }
                return (noisy * decimals).rounded() / decimals
            }
            let phase = 2 * Double.pi * hours / 24
            step.temperatureC = value(.temperature, 5 + 4 * sin(phase), 1)
            step.apparentTemperatureC = value(.apparentTemperature, 3 + 4 * sin(phase), 1.5)
            step.humidityPercent = value(.humidity, 75 + 10 * cos(phase), 5, decimals: 1).map { min(100, max(0, $0)) }
            step.pressureHPa = value(.pressure, 1010 + 4 * sin(phase / 3), 1.5)
            step.windSpeedMS = value(.windSpeed, 5 + 2 * sin(phase), 1).map { max(0, $0) }
            step.windGustMS = value(.windGust, 9 + 3 * sin(phase), 1.5).map { max(0, $0) }
            step.windDirectionDeg = value(.windDirection, 200 + 40 * sin(phase), 25, decimals: 1).map { ($0 + 360).truncatingRemainder(dividingBy: 360) }
            step.cloudCoverPercent = value(.cloudCover, 60, 20, decimals: 1).map { min(100, max(0, $0)) }
            step.visibilityM = value(.visibility, 10_000, 3000, decimals: 0.01).map { max(0, $0) }
            if present.contains(.precipitationRate) {
                step.precipitationMM = Bool.random(using: &generator) ? 0 : (Double.random(in: 0..<3, using: &generator) * every * 10).rounded() / 10
            }
            if present.contains(.precipitationProbability) {
                step.precipitationProbabilityPercent = Double(Int.random(in: 0...10, using: &generator) * 10)
            }
            if Double.random(in: 0..<1, using: &generator) < 0.9 {
                step.condition = [.clear, .partlyCloudy, .cloudy, .fog, .drizzle, .rain, .snow].randomElement(using: &generator)!
            }
            steps.append(step)
        }
        var days: [DailyPoint] = []
        if Double.random(in: 0..<1, using: &generator) < 0.4 {
            let first = LocalDate(start, utcOffsetSeconds: place.utcOffsetSeconds ?? 0)
            for offset in 0..<3 {
                var day = DailyPoint(date: LocalDate(daysSinceEpoch: first.daysSinceEpoch + offset))
                day.temperatureMaxC = (Double.random(in: 7...11, using: &generator) * 10).rounded() / 10
                day.precipitationMM = Bool.random(using: &generator) ? 0 : Double(Int.random(in: 0...20, using: &generator))
                day.windDirectionDominantDeg = Double(Int.random(in: 0..<360, using: &generator))
                day.condition = Bool.random(using: &generator) ? .rain : .cloudy
                days.append(day)
            }
        }
        var current: WeatherSample?
        if Bool.random(using: &generator) {
            var sample = WeatherSample(time: start.addingTimeInterval(Double(Int.random(in: 0...50, using: &generator)) * 60), periodHours: 1)
            sample.temperatureC = (Double.random(in: 0...8, using: &generator) * 10).rounded() / 10
            sample.windDirectionDeg = Double(Int.random(in: 0..<360, using: &generator))
            sample.precipitationMM = Bool.random(using: &generator) ? 0 : 0.4
            sample.condition = [.clear, .cloudy, .rain].randomElement(using: &generator)!
            current = sample
        }
        return WeatherReport(
            providerID: id, place: place, fetchedAt: start, utcOffsetSeconds: place.utcOffsetSeconds,
            timeZoneIdentifier: place.timeZoneIdentifier, current: current, hourly: steps, daily: days)
    }
}
