import FoundationEssentials

/// The values the atmosphere can physically take; anything outside is a provider's mistake.
public enum PhysicalRange {
    /// Air, apparent and daily extreme temperatures, °C.
    public static let temperatureC = -95.0...65.0
    /// Relative humidity, cloud cover and chances, %.
    public static let percent = 0.0...100.0
    /// Pressure at mean sea level, hPa.
    public static let pressureHPa = 850.0...1090.0
    /// Mean wind, m/s.
    public static let windSpeedMS = 0.0...120.0
    /// Gusts, m/s.
    public static let windGustMS = 0.0...150.0
    /// Directions, degrees.
    public static let angleDeg = 0.0...360.0
    /// Visibility, metres (100 km).
    public static let visibilityM = 0.0...100_000.0
    /// Precipitation rate, mm/h.
    public static let precipitationMMPerHour = 0.0...500.0
}

extension WeatherReport {
    /// The report with every value outside its physical range, and every time implausibly far from `now` (from the
    /// recording, for a replay), removed, each removal added to `warnings`.
    public func validated(now: Date) -> WeatherReport {
        var report = self
        report.dropImplausibleTimes(reference: timeReference(now: now))
        var found: [ValueWarning] = []
        if var current = report.current {
            current.dropImpossibleValues(at: "current", into: &found)
            report.current = current
        }
        for index in report.hourly.indices { report.hourly[index].dropImpossibleValues(at: "hourly[\(index)]", into: &found) }
        for index in report.daily.indices { report.daily[index].dropImpossibleValues(at: "daily[\(index)]", into: &found) }
        report.warnings += found
        report.sourceReports = sourceReports.map { $0.validated(now: now) }
        return report
    }
}

extension WeatherSample {
    mutating func dropImpossibleValues(at location: String, into warnings: inout [ValueWarning]) {
        let check = RangeCheck(location: location)
        check(&temperatureC, PhysicalRange.temperatureC, "temperature_c", &warnings)
        check(&apparentTemperatureC, PhysicalRange.temperatureC, "apparent_temperature_c", &warnings)
        check(&humidityPercent, PhysicalRange.percent, "humidity_percent", &warnings)
        check(&pressureHPa, PhysicalRange.pressureHPa, "pressure_hpa", &warnings)
        check(&windSpeedMS, PhysicalRange.windSpeedMS, "wind_speed_ms", &warnings)
        check(&windGustMS, PhysicalRange.windGustMS, "wind_gust_ms", &warnings)
        check(&windDirectionDeg, PhysicalRange.angleDeg, "wind_direction_deg", &warnings)
        check(&cloudCoverPercent, PhysicalRange.percent, "cloud_cover_percent", &warnings)
        check(&visibilityM, PhysicalRange.visibilityM, "visibility_m", &warnings)
        check(&precipitationProbabilityPercent, PhysicalRange.percent, "precipitation_probability_percent", &warnings)
        let rate = PhysicalRange.precipitationMMPerHour
        let hours = periodHours.isFinite && periodHours > 0 ? periodHours : 1
        check(&precipitationMM, rate.lowerBound...rate.upperBound * hours, "precipitation_mm", &warnings)
    }
}

extension DailyPoint {
    mutating func dropImpossibleValues(at location: String, into warnings: inout [ValueWarning]) {
        let check = RangeCheck(location: location)
        check(&temperatureMaxC, PhysicalRange.temperatureC, "temperature_max_c", &warnings)
        check(&temperatureMinC, PhysicalRange.temperatureC, "temperature_min_c", &warnings)
        let rate = PhysicalRange.precipitationMMPerHour
        check(&precipitationMM, rate.lowerBound...rate.upperBound * 24, "precipitation_mm", &warnings)
        check(&precipitationProbabilityMaxPercent, PhysicalRange.percent, "precipitation_probability_max_percent", &warnings)
        check(&windSpeedMaxMS, PhysicalRange.windSpeedMS, "wind_speed_max_ms", &warnings)
        check(&windGustMaxMS, PhysicalRange.windGustMS, "wind_gust_max_ms", &warnings)
        check(&windDirectionDominantDeg, PhysicalRange.angleDeg, "wind_direction_dominant_deg", &warnings)
    }
}

/// Removes one value outside its range, recording where it was.
private struct RangeCheck {
    let location: String

    func callAsFunction(_ value: inout Double?, _ range: ClosedRange<Double>, _ field: String, _ warnings: inout [ValueWarning]) {
        guard let number = value, !range.contains(number) else { return }
        warnings.append(ValueWarning(field: field, path: "\(location).\(field)", value: JSONOutput.format(number),
                                     reason: "outside \(JSONOutput.format(range.lowerBound))…\(JSONOutput.format(range.upperBound))"))
        value = nil
    }
}
