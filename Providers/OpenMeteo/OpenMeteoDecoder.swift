import FoundationEssentials
import IsobarCore

/// An Open-Meteo forecast body in the canonical model.
public struct OpenMeteoForecast: Sendable, Equatable {
    /// The single offset Open-Meteo used for every local time in the body.
    public var utcOffsetSeconds: Int
    /// The IANA zone it resolved, when not `GMT`.
    public var timeZoneIdentifier: String?
    /// Current conditions, when asked for.
    public var current: WeatherSample?
    /// Hourly steps; trailing steps whose values are all null are kept with every field absent.
    public var hourly: [WeatherSample]
    /// Local days.
    public var daily: [DailyPoint]
    /// Fields left out because their unit is unknown.
    public var warnings: [ValueWarning] = []
}

/// Turns Open-Meteo `/v1/forecast` bodies into the canonical model, converting by the body's own unit strings.
public struct OpenMeteoDecoder: Sendable {
    /// Name used in error messages.
    public var providerName: String

    /// Creates a decoder.
    public init(providerName: String = "Open-Meteo") { self.providerName = providerName }

    /// Decodes a response, mapping failure statuses and `{"error":true}` bodies to errors.
    public func decode(_ response: HTTPResponse, now: Date) throws(ProviderError) -> OpenMeteoForecast {
        let body = try CheckedBody(response, provider: providerName, messageKey: "reason", now: now)
        let reason = body.serverMessage
        do {
            let root = try body.root()
            if try root.nonNullMember("error")?.bool() == true {
                throw ProviderError(.badRequest, "\(providerName) rejected the request: \(reason ?? "no reason given")")
            }
            let offsetValue = try root.member("utc_offset_seconds")
            let offset = try offsetValue.int()
            guard PlausibleRange.utcOffsetSeconds.contains(offset) else {
                throw JSONError(.typeMismatch(expected: "an offset within ±18 h", found: String(offset)), path: offsetValue.path)
            }
            let zone = try root.optionalString("timezone")
            var forecast = OpenMeteoForecast(
                utcOffsetSeconds: offset, timeZoneIdentifier: zone == "GMT" ? nil : zone, current: nil, hourly: [], daily: [])
            if let current = try root.nonNullMember("current") {
                forecast.current = try decodeCurrent(current, units: try root.member("current_units"), offset: offset,
                                                     warnings: &forecast.warnings)
            }
            if let hourly = try root.nonNullMember("hourly") {
                forecast.hourly = try decodeHourly(hourly, units: try root.member("hourly_units"), offset: offset,
                                                   warnings: &forecast.warnings)
            }
            if let daily = try root.nonNullMember("daily") {
                forecast.daily = try decodeDaily(daily, units: try root.member("daily_units"), offset: offset,
                                                 warnings: &forecast.warnings)
            }
            return forecast
        } catch let error as JSONError {
            throw ProviderError.badResponse(error, provider: providerName)
        } catch let error as ProviderError {
            throw error
        } catch {
            throw ProviderError(.badResponse(path: "$"), "\(providerName) sent an unreadable response")
        }
    }

    private func decodeCurrent(_ current: JSONValue, units: JSONValue, offset: Int, warnings: inout [ValueWarning]) throws -> WeatherSample {
        let timeValue = try current.member("time")
        guard let time = CivilTime.instant(localISO: try timeValue.string(), utcOffsetSeconds: offset) else {
            throw JSONError(.typeMismatch(expected: "local time yyyy-MM-ddTHH:mm", found: "other text"), path: timeValue.path)
        }
        let interval = try current.optionalDouble("interval") ?? 900
        var sample = WeatherSample(time: time, periodHours: interval / 3600)
        let convert = try UnitConverters(units, warnings: &warnings)
        sample.temperatureC = try current.optionalDouble("temperature_2m").flatMap(convert.temperature)
        sample.apparentTemperatureC = try current.optionalDouble("apparent_temperature").flatMap(convert.temperature)
        sample.humidityPercent = try current.optionalDouble("relative_humidity_2m")
        sample.pressureHPa = try current.optionalDouble("pressure_msl")
        sample.windSpeedMS = try current.optionalDouble("wind_speed_10m").flatMap(convert.speed)
        sample.windGustMS = try current.optionalDouble("wind_gusts_10m").flatMap(convert.speed)
        sample.windDirectionDeg = try current.optionalDouble("wind_direction_10m")
        sample.cloudCoverPercent = try current.optionalDouble("cloud_cover")
        sample.visibilityM = try current.optionalDouble("visibility").flatMap(convert.distance)
        sample.precipitationMM = try current.optionalDouble("precipitation").flatMap(convert.precipitation)
        sample.condition = try current.optionalDouble("weather_code").flatMap(Self.condition)
        sample.isDay = try current.optionalDouble("is_day").map { $0 != 0 }
        return sample
    }

    private func decodeHourly(_ hourly: JSONValue, units: JSONValue, offset: Int, warnings: inout [ValueWarning]) throws -> [WeatherSample] {
        let series = try Series(hourly)
        let convert = try UnitConverters(units, warnings: &warnings)
        let times = try series.time.mapStrings(expected: "local time yyyy-MM-ddTHH:mm") {
            CivilTime.instant(localISOBytes: $0, utcOffsetSeconds: offset)
        }
        var samples = try times.enumerated().map { index, time in
            guard let time else {
                throw JSONError(.typeMismatch(expected: "local time yyyy-MM-ddTHH:mm", found: "null"), path: series.time.path.appending(index: index))
            }
            return WeatherSample(time: time, periodHours: 1)
        }
        try series.fill("temperature_2m", into: &samples) { $0.temperatureC = convert.temperature($1) }
        try series.fill("apparent_temperature", into: &samples) { $0.apparentTemperatureC = convert.temperature($1) }
        try series.fill("relative_humidity_2m", into: &samples) { $0.humidityPercent = $1 }
        try series.fill("precipitation_probability", into: &samples) { $0.precipitationProbabilityPercent = $1 }
        try series.fill("precipitation", into: &samples) { $0.precipitationMM = convert.precipitation($1) }
        try series.fill("weather_code", into: &samples) { $0.condition = Self.condition($1) }
        try series.fill("cloud_cover", into: &samples) { $0.cloudCoverPercent = $1 }
        try series.fill("pressure_msl", into: &samples) { $0.pressureHPa = $1 }
        try series.fill("visibility", into: &samples) { $0.visibilityM = convert.distance($1) }
        try series.fill("wind_speed_10m", into: &samples) { $0.windSpeedMS = convert.speed($1) }
        try series.fill("wind_direction_10m", into: &samples) { $0.windDirectionDeg = $1 }
        try series.fill("wind_gusts_10m", into: &samples) { $0.windGustMS = convert.speed($1) }
        return samples
    }

    private func decodeDaily(_ daily: JSONValue, units: JSONValue, offset: Int, warnings: inout [ValueWarning]) throws -> [DailyPoint] {
        let series = try Series(daily)
        let convert = try UnitConverters(units, warnings: &warnings)
        let dates = try series.time.mapStrings(expected: "date yyyy-MM-dd") { CivilTime.localDate(isoBytes: $0) }
        var days = try dates.enumerated().map { index, date in
            guard let date else {
                throw JSONError(.typeMismatch(expected: "date yyyy-MM-dd", found: "null"), path: series.time.path.appending(index: index))
            }
            return DailyPoint(date: date)
        }
        try series.fill("weather_code", into: &days) { $0.condition = Self.condition($1) }
        try series.fill("temperature_2m_max", into: &days) { $0.temperatureMaxC = convert.temperature($1) }
        try series.fill("temperature_2m_min", into: &days) { $0.temperatureMinC = convert.temperature($1) }
        try series.fill("precipitation_sum", into: &days) { $0.precipitationMM = convert.precipitation($1) }
        try series.fill("precipitation_probability_max", into: &days) { $0.precipitationProbabilityMaxPercent = $1 }
        try series.fill("wind_speed_10m_max", into: &days) { $0.windSpeedMaxMS = convert.speed($1) }
        try series.fill("wind_gusts_10m_max", into: &days) { $0.windGustMaxMS = convert.speed($1) }
        try series.fill("wind_direction_10m_dominant", into: &days) { $0.windDirectionDominantDeg = $1 }
        try series.fillTimes("sunrise", offset: offset, into: &days) { $0.sunrise = $1 }
        try series.fillTimes("sunset", offset: offset, into: &days) { $0.sunset = $1 }
        return days
    }

    /// The condition of a WMO code sent as a number (older servers sent `3.0`).
    static func condition(_ code: Double) -> Condition? {
        Int(exactly: code).flatMap { Condition(wmoCode: $0) }
    }
}

/// Parallel arrays of one `hourly` or `daily` block, checked against the length of `time`.
private struct Series {
    let block: JSONValue
    let time: JSONValue
    let count: Int

    init(_ block: JSONValue) throws {
        self.block = block
        time = try block.member("time")
        count = try time.count()
    }

    /// Applies `set` for every non-null number of the named array, when the array is present.
    func fill<Element>(_ name: String, into elements: inout [Element], _ set: (inout Element, Double) -> Void) throws {
        guard let array = try block.member(ifPresent: name) else { return }
        let values = try array.numbersOrNulls()
        guard values.count == elements.count else {
            throw JSONError(.typeMismatch(expected: "array of \(elements.count) values like time", found: "\(values.count) values"), path: array.path)
        }
        for index in values.indices {
            if let value = values[index] { set(&elements[index], value) }
        }
    }

    /// Applies `set` for every local time of the named array, when the array is present.
    func fillTimes<Element>(_ name: String, offset: Int, into elements: inout [Element], _ set: (inout Element, Date) -> Void) throws {
        guard let array = try block.member(ifPresent: name) else { return }
        let values = try array.mapStrings(expected: "local time yyyy-MM-ddTHH:mm") {
            CivilTime.instant(localISOBytes: $0, utcOffsetSeconds: offset)
        }
        guard values.count == elements.count else {
            throw JSONError(.typeMismatch(expected: "array of \(elements.count) values like time", found: "\(values.count) values"), path: array.path)
        }
        for index in values.indices {
            if let instant = values[index] { set(&elements[index], instant) }
        }
    }
}

/// Conversions chosen from a `*_units` block's strings.
private struct UnitConverters {
    let temperature: (Double) -> Double?
    let speed: (Double) -> Double?
    let precipitation: (Double) -> Double?
    let distance: (Double) -> Double?

    /// Converters for the units named; a unit Isobar does not know drops its values, with a warning.
    init(_ units: JSONValue, warnings: inout [ValueWarning]) throws {
        func unit(_ keys: [String]) throws -> (String, JSONPath)? {
            for key in keys { if let value = try units.nonNullMember(key) { return (try value.string(), value.path) } }
            return nil
        }
        func unknown(_ text: String, _ path: JSONPath) -> (Double) -> Double? {
            let field = path.description.split(separator: ".").last.map(String.init) ?? path.description
            warnings.append(ValueWarning(field: field, path: path.description, value: "\"\(text)\"", reason: "unknown unit"))
            return { _ in nil }
        }
        switch try unit(["temperature_2m", "apparent_temperature", "temperature_2m_max", "temperature_2m_min"]) {
        case nil, ("°C", _)?: temperature = { $0 }
        case ("°F", _)?: temperature = UnitConversion.celsius(fromFahrenheit:)
        case let (text, path)?: temperature = unknown(text, path)
        }
        switch try unit(["wind_speed_10m", "wind_gusts_10m", "wind_speed_10m_max", "wind_gusts_10m_max"]) {
        case nil, ("m/s", _)?: speed = { $0 }
        case ("km/h", _)?: speed = UnitConversion.metresPerSecond(fromKilometresPerHour:)
        case ("mp/h", _)?, ("mph", _)?: speed = UnitConversion.metresPerSecond(fromMilesPerHour:)
        case ("kn", _)?: speed = UnitConversion.metresPerSecond(fromKnots:)
        case let (text, path)?: speed = unknown(text, path)
        }
        switch try unit(["precipitation", "precipitation_sum"]) {
        case nil, ("mm", _)?: precipitation = { $0 }
        case ("inch", _)?: precipitation = UnitConversion.millimetres(fromInches:)
        case let (text, path)?: precipitation = unknown(text, path)
        }
        switch try unit(["visibility"]) {
        case nil, ("m", _)?: distance = { $0 }
        case ("ft", _)?: distance = { $0 * 0.3048 }
        case let (text, path)?: distance = unknown(text, path)
        }
    }
}
