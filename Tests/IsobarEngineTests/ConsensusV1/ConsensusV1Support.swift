import Foundation
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarTestKit

/// Builders for the v1 consensus tests.
enum V1Fixture {
    /// An instant from a UTC wall-clock time.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Date {
        Date(timeIntervalSince1970: Double(CivilTime.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60))
    }

    static func date(_ year: Int, _ month: Int, _ day: Int) -> LocalDate { LocalDate(year: year, month: month, day: day)! }

    static let newYork = Place(
        name: "New York", countryCode: "US", coordinate: Coordinate(latitude: 40.7128, longitude: -74.006)!,
        utcOffsetSeconds: -18_000, timeZoneIdentifier: "America/New_York")
    static let tokyo = Place(
        name: "Tokyo", countryCode: "JP", coordinate: Coordinate(latitude: 35.6895, longitude: 139.6917)!,
        utcOffsetSeconds: 32_400, timeZoneIdentifier: "Asia/Tokyo")
    static let minsk = Place(
        name: "Minsk", countryCode: "BY", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!,
        utcOffsetSeconds: 10_800, timeZoneIdentifier: "Europe/Minsk")

    /// A step ending at `time` covering `period` hours.
    static func step(_ time: Date, period: Double = 1, _ configure: (inout WeatherSample) -> Void = { _ in }) -> WeatherSample {
        var sample = WeatherSample(time: time, periodHours: period)
        configure(&sample)
        return sample
    }

    /// Steps every `every` hours from `start` (the first ending at `start`), `count` of them, configured by index.
    static func steps(from start: Date, every: Double = 1, count: Int, _ configure: (Int, inout WeatherSample) -> Void) -> [WeatherSample] {
        (0..<count).map { index in
            var sample = WeatherSample(time: start.addingTimeInterval(Double(index) * every * 3600), periodHours: every)
            configure(index, &sample)
            return sample
        }
    }

    static func report(_ id: String, place: Place = minsk, current: WeatherSample? = nil, hourly: [WeatherSample] = [],
                       daily: [DailyPoint] = []) -> WeatherReport {
        WeatherReport(providerID: id, place: place, fetchedAt: utc(2026, 11, 28), utcOffsetSeconds: place.utcOffsetSeconds,
                      timeZoneIdentifier: place.timeZoneIdentifier, current: current, hourly: hourly, daily: daily)
    }

    static func values(_ pairs: [(String, Double)], weights: [Double]? = nil) -> [ProviderValue] {
        pairs.enumerated().map { index, pair in ProviderValue(provider: pair.0, value: pair.1, weight: weights?[index] ?? 1) }
    }

    /// `a`, `b`, `c`… with the given values.
    static func lettered(_ values: [Double]) -> [ProviderValue] {
        values.enumerated().map { index, value in ProviderValue(provider: String(UnicodeScalar(UInt8(97 + index))), value: value) }
    }
}

