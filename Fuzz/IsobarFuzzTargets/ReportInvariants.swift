import IsobarCore

/// What a validated report promises: every value it still holds is finite and inside its physical range.
enum ReportInvariants {
    /// `accepted` with a summary when `report` keeps its promises (and `geocoded` did not break its own), else `violated`.
    static func check(_ report: WeatherReport, also geocoded: FuzzOutcome) -> FuzzOutcome {
        if case .violated = geocoded { return geocoded }
        var broken: [String] = []
        for (index, sample) in ([report.current].compactMap { $0 } + report.hourly).enumerated() {
            check(sample, at: index, into: &broken)
        }
        for (index, point) in report.daily.enumerated() {
            let values: [(String, Double?, ClosedRange<Double>)] = [
                ("temperature_max_c", point.temperatureMaxC, PhysicalRange.temperatureC),
                ("temperature_min_c", point.temperatureMinC, PhysicalRange.temperatureC),
                ("wind_speed_max_ms", point.windSpeedMaxMS, PhysicalRange.windSpeedMS),
                ("wind_gust_max_ms", point.windGustMaxMS, PhysicalRange.windGustMS),
                ("wind_direction_dominant_deg", point.windDirectionDominantDeg, PhysicalRange.angleDeg),
                ("precipitation_probability_max_percent", point.precipitationProbabilityMaxPercent, PhysicalRange.percent),
            ]
            for (name, value, range) in values { note(name, value, range, "daily[\(index)]", &broken) }
        }
        guard broken.isEmpty else { return .violated(broken.joined(separator: "; ")) }
        return .accepted("current \(report.current == nil ? "no" : "yes"), \(report.hourly.count) hourly, \(report.daily.count) daily, "
            + "\(report.warnings.count) warnings")
    }

    private static func check(_ sample: WeatherSample, at index: Int, into broken: inout [String]) {
        let values: [(String, Double?, ClosedRange<Double>)] = [
            ("temperature_c", sample.temperatureC, PhysicalRange.temperatureC),
            ("apparent_temperature_c", sample.apparentTemperatureC, PhysicalRange.temperatureC),
            ("humidity_percent", sample.humidityPercent, PhysicalRange.percent),
            ("pressure_hpa", sample.pressureHPa, PhysicalRange.pressureHPa),
            ("wind_speed_ms", sample.windSpeedMS, PhysicalRange.windSpeedMS),
            ("wind_gust_ms", sample.windGustMS, PhysicalRange.windGustMS),
            ("wind_direction_deg", sample.windDirectionDeg, PhysicalRange.angleDeg),
            ("cloud_cover_percent", sample.cloudCoverPercent, PhysicalRange.percent),
            ("visibility_m", sample.visibilityM, PhysicalRange.visibilityM),
            ("precipitation_probability_percent", sample.precipitationProbabilityPercent, PhysicalRange.percent),
        ]
        for (name, value, range) in values { note(name, value, range, "sample \(index)", &broken) }
        if let rain = sample.precipitationMM, !(rain.isFinite && rain >= 0) { broken.append("sample \(index): precipitation_mm \(rain)") }
    }

    private static func note(_ name: String, _ value: Double?, _ range: ClosedRange<Double>, _ location: String, _ broken: inout [String]) {
        guard let value, !range.contains(value) else { return }
        broken.append("\(location): \(name) \(value) outside \(range)")
    }
}
