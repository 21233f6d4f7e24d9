import FoundationEssentials
import IsobarCore

/// A Locationforecast 2.0 `compact` body in the canonical model.
public struct METNorwayForecast: Sendable, Equatable {
    /// Forecast steps: hourly for about two and a half days, then 6-hourly; the last holds only instant values.
    public var steps: [WeatherSample]
    /// When MET Norway last updated the forecast (`properties.meta.updated_at`).
    public var updatedAt: Date?
    /// Fields left out because of their type or unit.
    public var warnings: [ValueWarning] = []
}

/// Turns Locationforecast 2.0 `compact` bodies (GeoJSON) into the canonical model.
public struct METNorwayDecoder: Sendable {
    /// Name used in error messages.
    public var providerName: String

    /// Creates a decoder.
    public init(providerName: String = "MET Norway") { self.providerName = providerName }

    /// Decodes a response, mapping failure statuses to errors (203, deprecated but valid, decodes).
    public func decode(_ response: HTTPResponse, now: Date) throws(ProviderError) -> METNorwayForecast {
        let body = try CheckedBody(response, provider: providerName, messageKey: "message", now: now)
        return try ProviderError.decoding(provider: providerName) {
            let properties = try body.root().member("properties")
            var forecast = METNorwayForecast(steps: [])
            var untrusted: Set<String> = []
            if let meta = try properties.nonNullMember("meta") {
                forecast.updatedAt = try? meta.optionalString("updated_at").flatMap(CivilTime.instant(iso:))
                if let units = try meta.nonNullMember("units") { untrusted = try unknownUnits(units, into: &forecast.warnings) }
            }
            let series = try properties.member("timeseries").elements()
            var steps: [WeatherSample] = []
            steps.reserveCapacity(series.count)
            for entry in series {
                let timeValue = try entry.member("time")
                guard let time = CivilTime.instant(iso: try timeValue.string()) else {
                    throw JSONError(.typeMismatch(expected: "an ISO-8601 time", found: "other text"), path: timeValue.path)
                }
                steps.append(try step(at: time, from: try entry.member("data"), previous: steps.last, untrusted: untrusted,
                                      warnings: &forecast.warnings))
            }
            forecast.steps = steps
            return forecast
        }
    }

    private func step(at time: Date, from data: JSONValue, previous: WeatherSample?, untrusted: Set<String>,
                      warnings: inout [ValueWarning]) throws -> WeatherSample {
        func number(_ details: JSONValue, _ key: String) throws -> Double? {
            untrusted.contains(key) ? nil : try details.tolerantDouble(key, &warnings)
        }
        // The period that starts at `time`: the shortest one given; the last step has none and keeps the previous length.
        let periods: [(key: String, hours: Double)] = [("next_1_hours", 1), ("next_6_hours", 6), ("next_12_hours", 12)]
        var period: (value: JSONValue, hours: Double)?
        for (key, hours) in periods {
            if let value = try data.nonNullMember(key) { period = (value, hours); break }
        }
        let gap = previous.map { time.timeIntervalSince($0.time) / 3600 } ?? 1
        var sample = WeatherSample(time: time, periodHours: period?.hours ?? max(1, gap))
        if let details = try data.nonNullMember("instant")?.nonNullMember("details") {
            sample.temperatureC = try number(details, "air_temperature")
            sample.pressureHPa = try number(details, "air_pressure_at_sea_level")
            sample.humidityPercent = try number(details, "relative_humidity")
            sample.windSpeedMS = try number(details, "wind_speed")
            sample.windGustMS = try number(details, "wind_speed_of_gust")
            sample.windDirectionDeg = try number(details, "wind_from_direction")
            sample.cloudCoverPercent = try number(details, "cloud_area_fraction")
        }
        if let (value, _) = period {
            if let details = try value.nonNullMember("details") {
                sample.precipitationMM = try number(details, "precipitation_amount")
                sample.precipitationProbabilityPercent = try number(details, "probability_of_precipitation")
            }
            if let symbol = try value.nonNullMember("summary")?.nonNullMember("symbol_code") {
                sample.condition = try condition(symbol, warnings: &warnings)
                sample.isDay = dayOrNight(try? symbol.string())
            }
        }
        return sample
    }

    private func condition(_ symbol: JSONValue, warnings: inout [ValueWarning]) throws -> Condition? {
        guard symbol.kind == .string, let code = try? symbol.string() else {
            warnings.append(ValueWarning(field: "symbol_code", path: symbol.path.description, value: symbol.shortText, reason: "not text"))
            return nil
        }
        guard let condition = METNorwaySymbols.condition(code) else {
            warnings.append(ValueWarning(field: "symbol_code", path: symbol.path.description, value: symbol.shortText,
                                         reason: "unknown symbol"))
            return nil
        }
        return condition
    }

    private func dayOrNight(_ code: String?) -> Bool? {
        guard let code else { return nil }
        if code.hasSuffix("_day") { return true }
        if code.hasSuffix("_night") { return false }
        return nil
    }

    /// The compact product always sends SI units: a field in any other unit is named here, with a warning, and left out.
    private func unknownUnits(_ units: JSONValue, into warnings: inout [ValueWarning]) throws -> Set<String> {
        let expected = [
            "air_temperature": "celsius", "air_pressure_at_sea_level": "hPa", "relative_humidity": "%", "wind_speed": "m/s",
            "wind_from_direction": "degrees", "cloud_area_fraction": "%", "precipitation_amount": "mm",
        ]
        var unknown: Set<String> = []
        for (key, unit) in expected.sorted(by: { $0.key < $1.key }) {
            guard let value = try units.nonNullMember(key), (try? value.string()) != unit else { continue }
            warnings.append(ValueWarning(field: key, path: value.path.description, value: value.shortText, reason: "unknown unit"))
            unknown.insert(key)
        }
        return unknown
    }
}
