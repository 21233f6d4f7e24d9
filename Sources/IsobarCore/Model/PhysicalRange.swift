import FoundationEssentials

/// The values the atmosphere can physically take; anything outside is a provider's mistake.
public enum PhysicalRange {
    /// Air, apparent and daily extreme temperatures, °C.
    public static let temperatureC = Quantity.temperature.spec.range
    /// Relative humidity, cloud cover and chances, %.
    public static let percent = Quantity.humidity.spec.range
    /// Pressure at mean sea level, hPa.
    public static let pressureHPa = Quantity.pressure.spec.range
    /// Mean wind, m/s.
    public static let windSpeedMS = Quantity.windSpeed.spec.range
    /// Gusts, m/s.
    public static let windGustMS = Quantity.windGust.spec.range
    /// Directions, degrees.
    public static let angleDeg = Quantity.windDirection.spec.range
    /// Visibility, metres (100 km).
    public static let visibilityM = Quantity.visibility.spec.range
    /// Precipitation rate, mm/h.
    public static let precipitationMMPerHour = Quantity.precipitationRate.spec.range
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
        // A source report shares its answer's recording: a replayed answer's models are judged against it too.
        report.sourceReports = sourceReports.map { member in
            var member = member
            member.source = source
            return member.validated(now: now)
        }
        return report
    }
}

extension WeatherSample {
    /// Drops every value outside its quantity's `spec.range`; precipitation is checked as an amount over the period.
    mutating func dropImpossibleValues(at location: @autoclosure () -> String, into warnings: inout [ValueWarning]) {
        withoutActuallyEscaping(location) { location in dropImpossibleValues(check: RangeCheck(location: location), into: &warnings) }
    }

    private mutating func dropImpossibleValues(check: RangeCheck, into warnings: inout [ValueWarning]) {
        for quantity in Quantity.allCases where quantity != .precipitationRate {
            var value = self[quantity]
            guard value != nil else { continue }
            check(&value, quantity.spec.range, quantity.fieldName, &warnings)
            if value == nil { self[quantity] = nil }
        }
        let rate = Quantity.precipitationRate.spec.range
        let hours = periodHours.isFinite && periodHours > 0 ? periodHours : 1
        check(&precipitationMM, rate.lowerBound...rate.upperBound * hours, Quantity.precipitationRate.fieldName, &warnings)
    }
}

extension DailyPoint {
    /// Drops every value outside its daily quantity's `spec.range` (sunrise and sunset are checked by `PlausibleTimes`).
    mutating func dropImpossibleValues(at location: @autoclosure () -> String, into warnings: inout [ValueWarning]) {
        withoutActuallyEscaping(location) { location in dropImpossibleValues(check: RangeCheck(location: location), into: &warnings) }
    }

    private mutating func dropImpossibleValues(check: RangeCheck, into warnings: inout [ValueWarning]) {
        for quantity in DailyQuantity.allCases where quantity.dimension != .instant {
            var value = self[quantity]
            guard value != nil else { continue }
            check(&value, quantity.spec.range, quantity.fieldName, &warnings)
            if value == nil { self[quantity] = nil }
        }
    }
}

extension Dimension {
    /// The internal unit as a field-name suffix in warnings (`temperature_c`, `wind_speed_ms`).
    var fieldSuffix: String {
        switch self {
        case .temperature: "_c"
        case .percent: "_percent"
        case .pressure: "_hpa"
        case .speed: "_ms"
        case .direction: "_deg"
        case .distance: "_m"
        case .precipitationRate: "_mm_per_h"
        case .precipitationAmount: "_mm"
        case .index: ""
        case .instant: ""
        case .duration: "_s"
        case .concentration: "_ugm3"
        case .pollen: "_grains_m3"
        }
    }
}

/// Removes one value outside its range, recording where it was.
private struct RangeCheck {
    /// Where the values are (`current`, `hourly[3]`): spelled out only for a value dropped.
    let location: () -> String

    func callAsFunction(_ value: inout Double?, _ range: ClosedRange<Double>, _ field: @autoclosure () -> String,
                        _ warnings: inout [ValueWarning]) {
        guard let number = value, !range.contains(number) else { return }
        let field = field()
        warnings.append(ValueWarning(field: field, path: "\(location()).\(field)", value: JSONOutput.format(number),
                                     reason: "outside \(JSONOutput.format(range.lowerBound))…\(JSONOutput.format(range.upperBound))"))
        value = nil
    }
}
