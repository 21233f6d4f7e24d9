import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarTestKit
#if canImport(Glibc)
import Glibc
#endif

/// Throughput of the v1 merge: 1,000 places, each with 16 days of hourly data (384 steps, every quantity, a condition)
/// from 5 providers, two of which also give their own 16 days (every daily quantity) and two more the sun's times of each
/// day; one place at a time on one core.
func benchmarkConsensus() throws {
    let places = [
        ("New York", "America/New_York", -18_000), ("Tokyo", "Asia/Tokyo", 32_400), ("London", "Europe/London", 0),
        ("Minsk", "Europe/Minsk", 10_800), ("São Paulo", "America/Sao_Paulo", -10_800), ("Sydney", "Australia/Sydney", 39_600),
    ].map { name, zone, offset in
        Place(name: name, coordinate: Coordinate(latitude: 0, longitude: 0)!, utcOffsetSeconds: offset, timeZoneIdentifier: zone)
    }
    let start = Date(timeIntervalSince1970: 1_795_824_000)  // 2026-11-28T00:00:00Z
    var generator = SeededGenerator(seed: 20_261_128)
    let clock = ContinuousClock()
    let count = 1000
    var merging = Duration.zero
    var mergingCPU = 0.0
    var sink = 0
    // Two warm-up merges, not counted.
    for index in 0..<(count + 2) {
        let place = places[index % places.count]
        let reports = (0..<5).map { provider in
            consensusBenchmarkReport("p\(provider)", place: place, start: start, days: provider < 2, sun: provider < 4, derivedDewPoint: provider >= 3, &generator)
        }
        let startedCPU = consensusThreadCPUSeconds()
        let started = clock.now
        let result = ConsensusV1.merge(reports, place: place, now: start)
        if index >= 2 {
            merging += clock.now - started
            mergingCPU += consensusThreadCPUSeconds() - startedCPU
        }
        sink &+= result.hourly.count + result.daily.count
    }
    let seconds = Double(merging.components.seconds) + Double(merging.components.attoseconds) / 1e18
    print("consensus: v1 merge of 5 providers × 384 hourly steps, every quantity (+ 16 own days from 2 of them, the sun's times from 4), \(count) places, one core")
    print("  \(Int((Double(count) / seconds).rounded())) places/s   \(consensusFormat(seconds / Double(count) * 1000)) ms per place (wall)"
        + "   \(Int((Double(count) / mergingCPU).rounded())) places/s   \(consensusFormat(mergingCPU / Double(count) * 1000)) ms per place (CPU)"
        + "   (\(sink / count) merged hours and days per place)")
}

/// One provider's 16 days: a diurnal cycle plus provider noise, every quantity (dew point derived when `derivedDewPoint`), a
/// condition every hour; with `days` its own days with every daily quantity, else with `sun` days giving only the sun's times.
private func consensusBenchmarkReport(
    _ id: String, place: Place, start: Date, days: Bool, sun: Bool, derivedDewPoint: Bool, _ generator: inout SeededGenerator
) -> WeatherReport {
    let steps = (0..<384).map { hour -> WeatherSample in
        var step = WeatherSample(time: start.addingTimeInterval(Double(hour) * 3600), periodHours: 1)
        let phase = 2 * Double.pi * Double(hour) / 24
        func noise(_ scale: Double) -> Double { Double.random(in: -scale...scale, using: &generator) }
        step.temperatureC = 5 + 4 * sin(phase) + noise(1.5)
        step.apparentTemperatureC = 3 + 4 * sin(phase) + noise(2)
        step.humidityPercent = 75 + 10 * cos(phase) + noise(5)
        step.pressureHPa = 1010 + 4 * sin(phase / 5) + noise(2)
        step.windSpeedMS = 5 + 2 * sin(phase) + noise(1)
        step.windGustMS = 9 + 3 * sin(phase) + noise(1.5)
        step.windDirectionDeg = (200 + 40 * sin(phase) + noise(30) + 360).truncatingRemainder(dividingBy: 360)
        step.cloudCoverPercent = 60 + noise(30)
        step.visibilityM = 10_000 + noise(3000)
        step.precipitationMM = max(0, noise(1))
        step.precipitationProbabilityPercent = Double(Int.random(in: 0...10, using: &generator) * 10)
        step.condition = [.clear, .partlyCloudy, .cloudy, .rain, .snow].randomElement(using: &generator)
        step.dewPointC = 1 + 3 * sin(phase) + noise(1)
        if derivedDewPoint { step.derivedQuantities = [.dewPoint] }
        step.uvIndex = max(0, 3 * sin(phase) + noise(0.5))
        return step
    }
    let firstDay = LocalDate(start, utcOffsetSeconds: place.utcOffsetSeconds ?? 0)
    let daily = days || sun ? (0..<16).map { offset -> DailyPoint in
        var day = DailyPoint(date: LocalDate(daysSinceEpoch: firstDay.daysSinceEpoch + offset))
        let noon = day.date.start(utcOffsetSeconds: place.utcOffsetSeconds ?? 0).timeIntervalSince1970 + 43_200
        day.sunrise = Date(timeIntervalSince1970: noon - 15_000 + Double.random(in: -90...90, using: &generator))
        day.sunset = Date(timeIntervalSince1970: noon + 15_000 + Double.random(in: -90...90, using: &generator))
        day.daylightDurationS = day.sunset!.timeIntervalSince(day.sunrise!)
        guard days else { return day }
        day.temperatureMaxC = 9 + Double.random(in: -1...1, using: &generator)
        day.temperatureMinC = 1 + Double.random(in: -1...1, using: &generator)
        day.precipitationMM = Double.random(in: 0...5, using: &generator)
        day.precipitationProbabilityMaxPercent = Double(Int.random(in: 0...10, using: &generator) * 10)
        day.windSpeedMaxMS = 8 + Double.random(in: -2...2, using: &generator)
        day.windGustMaxMS = 13 + Double.random(in: -3...3, using: &generator)
        day.windDirectionDominantDeg = 200 + Double.random(in: -30...30, using: &generator)
        day.uvIndexMax = 3 + Double.random(in: -0.5...0.5, using: &generator)
        day.condition = .cloudy
        return day
    } : []
    var current = steps[0]
    current.time = start.addingTimeInterval(-600)
    return WeatherReport(
        providerID: id, place: place, fetchedAt: start, utcOffsetSeconds: place.utcOffsetSeconds,
        timeZoneIdentifier: place.timeZoneIdentifier, current: current, hourly: steps, daily: daily)
}

/// CPU seconds this thread has used: unlike the wall clock, not stretched when other work shares the cores.
private func consensusThreadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

private func consensusFormat(_ value: Double) -> String { String((value * 100).rounded() / 100) }

