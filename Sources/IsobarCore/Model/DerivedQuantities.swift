import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Quantities computed from others for providers that do not give them, each marked derived where it is set.
public enum DerivedQuantities {
    /// Magnus coefficients over water (Alduchov and Eskridge 1996): `a` = 17.625, `b` = 243.04 °C.
    static let magnusA = 17.625
    static let magnusB = 243.04

    /// The dew point, °C, from air temperature (°C) and relative humidity (%) by the Magnus formula
    /// `γ = ln(RH/100) + a·T/(b + T)`, `Td = b·γ/(a − γ)`; within 0.4 °C of the exact value from −40 to 50 °C.
    /// Nil for a humidity of 0 or less (no dew point) or above 100, or a temperature outside −80…60 °C.
    public static func dewPoint(temperatureC: Double, humidityPercent: Double) -> Double? {
        guard humidityPercent > 0, humidityPercent <= 100, (-80.0...60).contains(temperatureC) else { return nil }
        let gamma = log(humidityPercent / 100) + magnusA * temperatureC / (magnusB + temperatureC)
        return magnusB * gamma / (magnusA - gamma)
    }

    /// The sample with its dew point computed when it gives temperature and humidity but no dew point.
    public static func completed(_ sample: WeatherSample) -> WeatherSample {
        guard sample.dewPointC == nil, let temperature = sample.temperatureC, let humidity = sample.humidityPercent,
              let dewPoint = dewPoint(temperatureC: temperature, humidityPercent: humidity) else { return sample }
        var completed = sample
        completed.dewPointC = dewPoint
        completed.derivedQuantities.insert(.dewPoint)
        return completed
    }

    /// The day with its daylight computed as sunset − sunrise when it gives both (sunset later) but no daylight.
    public static func completed(_ day: DailyPoint) -> DailyPoint {
        guard day.daylightDurationS == nil, let sunrise = day.sunrise, let sunset = day.sunset, sunset > sunrise else { return day }
        var completed = day
        completed.daylightDurationS = sunset.timeIntervalSince(sunrise)
        completed.derivedQuantities.insert(.daylightDuration)
        return completed
    }
}

extension WeatherReport {
    /// The report (and its source reports) with dew points and daylight durations computed where the provider left them out.
    public func completingDerivedQuantities() -> WeatherReport {
        var report = self
        report.current = current.map(DerivedQuantities.completed)
        report.hourly = hourly.map(DerivedQuantities.completed)
        report.daily = daily.map(DerivedQuantities.completed)
        report.sourceReports = sourceReports.map { $0.completingDerivedQuantities() }
        return report
    }
}
