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
        try decode(response, now: now, models: [])[0]
    }

    /// Decodes a response to one forecast per model asked for (one forecast, unsuffixed, when `models` is empty); with more
    /// than one model every variable's key ends in `_<model>`, and a model that gave none of its variables is an error.
    /// When `kinds` is given, the blocks of the other kinds are cut out unread (current conditions alone skip the steps and days).
    public func decode(_ response: HTTPResponse, now: Date, models: [String], kinds: Set<DataKind>? = nil) throws(ProviderError) -> [OpenMeteoForecast] {
        var response = response
        if let kinds {
            let unasked = Self.blocks(notAskedBy: kinds)
            if !unasked.isEmpty, let trimmed = TopLevelMembers.removing(unasked, from: response.body) { response.body = trimmed }
        }
        let body = try CheckedBody(response, provider: providerName, messageKey: "reason", now: now)
        let reason = body.serverMessage
        return try ProviderError.decoding(provider: providerName) {
            let root = try body.root()
            try OpenMeteoEnvelope.checkRefusal(root, provider: providerName, reason: reason)
            let (offset, zone) = try OpenMeteoEnvelope.zone(root)
            let suffixes = models.count > 1 ? models.map { "_" + $0 } : [""]
            return try suffixes.map { suffix in
                var forecast = OpenMeteoForecast(
                    utcOffsetSeconds: offset, timeZoneIdentifier: zone, current: nil, hourly: [], daily: [])
                if let current = try root.nonNullMember("current") {
                    forecast.current = try decodeCurrent(current, units: try root.member("current_units"), offset: offset, suffix: suffix,
                                                         warnings: &forecast.warnings)
                }
                if let hourly = try root.nonNullMember("hourly") {
                    forecast.hourly = try decodeHourly(hourly, units: try root.member("hourly_units"), offset: offset, suffix: suffix,
                                                       warnings: &forecast.warnings)
                }
                if let daily = try root.nonNullMember("daily") {
                    forecast.daily = try decodeDaily(daily, units: try root.member("daily_units"), offset: offset, suffix: suffix,
                                                     warnings: &forecast.warnings)
                }
                if !suffix.isEmpty, try !Self.hasAnyVariable(root, suffix: suffix) {
                    throw JSONError(.missing, path: JSONPath.root.appending(key: "hourly").appending(key: "temperature_2m" + suffix))
                }
                return forecast
            }
        }
    }

    /// The top-level members `kinds` does not need: the current block without `.current`, the steps and days (which fill
    /// one cache slot together) without `.hourly` or `.daily`.
    static func blocks(notAskedBy kinds: Set<DataKind>) -> Set<String> {
        var blocks: Set<String> = []
        if !kinds.contains(.current) { blocks.formUnion(["current", "current_units"]) }
        if kinds.isDisjoint(with: [.hourly, .daily]) { blocks.formUnion(["hourly", "hourly_units", "daily", "daily_units"]) }
        return blocks
    }

    /// True when some block holds a key ending in `suffix` (a model the body answers for).
    private static func hasAnyVariable(_ root: JSONValue, suffix: String) throws -> Bool {
        for block in ["current", "hourly", "daily"] {
            guard let value = try root.nonNullMember(block) else { continue }
            if try value.members().contains(where: { $0.key.hasSuffix(suffix) }) { return true }
        }
        return false
    }

    private func decodeCurrent(_ current: JSONValue, units: JSONValue, offset: Int, suffix: String, warnings: inout [ValueWarning]) throws -> WeatherSample {
        let timeValue = try current.member("time")
        guard let time = CivilTime.instant(localISO: try timeValue.string(), utcOffsetSeconds: offset) else {
            throw JSONError(.typeMismatch(expected: "local time yyyy-MM-ddTHH:mm", found: "other text"), path: timeValue.path)
        }
        let v = { (name: String) in name + suffix }
        let interval = try current.tolerantDouble("interval", &warnings).flatMap { (1...86_400).contains($0) ? $0 : nil } ?? 900
        var sample = WeatherSample(time: time, periodHours: interval / 3600)
        let convert = try UnitConverters(units, suffix: suffix, warnings: &warnings)
        sample.temperatureC = try current.tolerantDouble(v("temperature_2m"), &warnings).flatMap(convert.temperature)
        sample.apparentTemperatureC = try current.tolerantDouble(v("apparent_temperature"), &warnings).flatMap(convert.temperature)
        sample.humidityPercent = try current.tolerantDouble(v("relative_humidity_2m"), &warnings)
        sample.pressureHPa = try current.tolerantDouble(v("pressure_msl"), &warnings)
        sample.windSpeedMS = try current.tolerantDouble(v("wind_speed_10m"), &warnings).flatMap(convert.speed)
        sample.windGustMS = try current.tolerantDouble(v("wind_gusts_10m"), &warnings).flatMap(convert.speed)
        sample.windDirectionDeg = try current.tolerantDouble(v("wind_direction_10m"), &warnings)
        sample.cloudCoverPercent = try current.tolerantDouble(v("cloud_cover"), &warnings)
        sample.visibilityM = try current.tolerantDouble(v("visibility"), &warnings).flatMap(convert.distance)
        sample.precipitationMM = try current.tolerantDouble(v("precipitation"), &warnings).flatMap(convert.precipitation)
        sample.condition = try current.tolerantDouble(v("weather_code"), &warnings).flatMap(Self.condition)
        sample.isDay = try current.tolerantDouble(v("is_day"), &warnings).map { $0 != 0 }
        sample.dewPointC = try current.tolerantDouble(v("dew_point_2m"), &warnings).flatMap(convert.temperature)
        sample.uvIndex = try current.tolerantDouble(v("uv_index"), &warnings)
        return sample
    }

    private func decodeHourly(_ hourly: JSONValue, units: JSONValue, offset: Int, suffix: String, warnings: inout [ValueWarning]) throws -> [WeatherSample] {
        let series = try Series(hourly)
        let v = { (name: String) in name + suffix }
        let convert = try UnitConverters(units, suffix: suffix, warnings: &warnings)
        let times = try series.time.mapStrings(expected: "local time yyyy-MM-ddTHH:mm") {
            CivilTime.instant(localISOBytes: $0, utcOffsetSeconds: offset)
        }
        var samples = try times.enumerated().map { index, time in
            guard let time else {
                throw JSONError(.typeMismatch(expected: "local time yyyy-MM-ddTHH:mm", found: "null"), path: series.time.path.appending(index: index))
            }
            return WeatherSample(time: time, periodHours: 1)
        }
        try TimeOrder.check(samples.map(\.time), at: series.time.path, rule: "steps must be in time order, each once", provider: providerName)
        series.fill(&warnings, v("temperature_2m"), into: &samples) { $0.temperatureC = convert.temperature($1) }
        series.fill(&warnings, v("apparent_temperature"), into: &samples) { $0.apparentTemperatureC = convert.temperature($1) }
        series.fill(&warnings, v("relative_humidity_2m"), into: &samples) { $0.humidityPercent = $1 }
        series.fill(&warnings, v("precipitation_probability"), into: &samples) { $0.precipitationProbabilityPercent = $1 }
        series.fill(&warnings, v("precipitation"), into: &samples) { $0.precipitationMM = convert.precipitation($1) }
        series.fill(&warnings, v("weather_code"), into: &samples) { $0.condition = Self.condition($1) }
        series.fill(&warnings, v("cloud_cover"), into: &samples) { $0.cloudCoverPercent = $1 }
        series.fill(&warnings, v("pressure_msl"), into: &samples) { $0.pressureHPa = $1 }
        series.fill(&warnings, v("visibility"), into: &samples) { $0.visibilityM = convert.distance($1) }
        series.fill(&warnings, v("wind_speed_10m"), into: &samples) { $0.windSpeedMS = convert.speed($1) }
        series.fill(&warnings, v("wind_direction_10m"), into: &samples) { $0.windDirectionDeg = $1 }
        series.fill(&warnings, v("wind_gusts_10m"), into: &samples) { $0.windGustMS = convert.speed($1) }
        series.fill(&warnings, v("dew_point_2m"), into: &samples) { $0.dewPointC = convert.temperature($1) }
        series.fill(&warnings, v("uv_index"), into: &samples) { $0.uvIndex = $1 }
        return samples
    }

    private func decodeDaily(_ daily: JSONValue, units: JSONValue, offset: Int, suffix: String, warnings: inout [ValueWarning]) throws -> [DailyPoint] {
        let series = try Series(daily)
        let v = { (name: String) in name + suffix }
        let convert = try UnitConverters(units, suffix: suffix, warnings: &warnings)
        let dates = try series.time.mapStrings(expected: "date yyyy-MM-dd") { CivilTime.localDate(isoBytes: $0) }
        var days = try dates.enumerated().map { index, date in
            guard let date else {
                throw JSONError(.typeMismatch(expected: "date yyyy-MM-dd", found: "null"), path: series.time.path.appending(index: index))
            }
            return DailyPoint(date: date)
        }
        try TimeOrder.check(days.map(\.date.daysSinceEpoch), at: series.time.path, rule: "days must be in order, each once",
                            provider: providerName)
        series.fill(&warnings, v("weather_code"), into: &days) { $0.condition = Self.condition($1) }
        series.fill(&warnings, v("temperature_2m_max"), into: &days) { $0.temperatureMaxC = convert.temperature($1) }
        series.fill(&warnings, v("temperature_2m_min"), into: &days) { $0.temperatureMinC = convert.temperature($1) }
        series.fill(&warnings, v("precipitation_sum"), into: &days) { $0.precipitationMM = convert.precipitation($1) }
        series.fill(&warnings, v("precipitation_probability_max"), into: &days) { $0.precipitationProbabilityMaxPercent = $1 }
        series.fill(&warnings, v("wind_speed_10m_max"), into: &days) { $0.windSpeedMaxMS = convert.speed($1) }
        series.fill(&warnings, v("wind_gusts_10m_max"), into: &days) { $0.windGustMaxMS = convert.speed($1) }
        series.fill(&warnings, v("wind_direction_10m_dominant"), into: &days) { $0.windDirectionDominantDeg = $1 }
        series.fillTimes(&warnings, v("sunrise"), offset: offset, into: &days) { $0.sunrise = $1 }
        series.fillTimes(&warnings, v("sunset"), offset: offset, into: &days) { $0.sunset = $1 }
        series.fill(&warnings, v("uv_index_max"), into: &days) { $0.uvIndexMax = $1 }
        series.fill(&warnings, v("daylight_duration"), into: &days) { $0.daylightDurationS = $1 }
        return days
    }

    /// The condition of a WMO code sent as a number (older servers sent `3.0`).
    static func condition(_ code: Double) -> Condition? {
        Int(exactly: code).flatMap { Condition(wmoCode: $0) }
    }
}

/// Parallel arrays of one `hourly` or `daily` block, checked against the length of `time`.
struct Series {
    let block: JSONValue
    let time: JSONValue
    let count: Int

    init(_ block: JSONValue) throws {
        self.block = block
        time = try block.member("time")
        count = try time.count()
    }

    /// Applies `set` for every number of the named array, when present; an array of the wrong length or shape is left
    /// out, and an element of the wrong type read as null, each with a warning.
    func fill<Element>(_ warnings: inout [ValueWarning], _ name: String, into elements: inout [Element],
                       _ set: (inout Element, Double) -> Void) {
        guard let array = try? block.member(ifPresent: name), !array.isNull,
              let values = array.tolerantNumbersOrNulls(field: name, &warnings),
              lengthMatches(values.count, elements.count, array, name, &warnings) else { return }
        for index in values.indices {
            if let value = values[index] { set(&elements[index], value) }
        }
    }

    /// Applies `set` for every local time of the named array, when present; an array that cannot be read as local times
    /// is left out with a warning.
    func fillTimes<Element>(_ warnings: inout [ValueWarning], _ name: String, offset: Int, into elements: inout [Element],
                            _ set: (inout Element, Date) -> Void) {
        guard let array = try? block.member(ifPresent: name), !array.isNull else { return }
        let values: [Date?]
        do {
            values = try array.mapStrings(expected: "local time yyyy-MM-ddTHH:mm") {
                CivilTime.instant(localISOBytes: $0, utcOffsetSeconds: offset)
            }
        } catch {
            warnings.append(ValueWarning(field: name, path: error.path, value: array.shortText,
                                         reason: "not local times yyyy-MM-ddTHH:mm"))
            return
        }
        guard lengthMatches(values.count, elements.count, array, name, &warnings) else { return }
        for index in values.indices {
            if let instant = values[index] { set(&elements[index], instant) }
        }
    }

    private func lengthMatches(_ found: Int, _ expected: Int, _ array: JSONValue, _ name: String,
                               _ warnings: inout [ValueWarning]) -> Bool {
        guard found != expected else { return true }
        warnings.append(ValueWarning(field: name, path: array.path.description, value: "\(found) values",
                                     reason: "\(expected) expected, one per time"))
        return false
    }
}

/// Conversions chosen from a `*_units` block's strings.
private struct UnitConverters {
    let temperature: (Double) -> Double?
    let speed: (Double) -> Double?
    let precipitation: (Double) -> Double?
    let distance: (Double) -> Double?

    /// Converters for the units named; a unit Isobar does not know drops its values, with a warning.
    init(_ units: JSONValue, suffix: String, warnings: inout [ValueWarning]) throws {
        /// The first unit named by `keys`, as text (empty when it is not text, which no known unit matches).
        func unit(_ keys: [String]) throws -> (String, JSONValue)? {
            for key in keys {
                guard let value = try units.nonNullMember(key + suffix) else { continue }
                return ((try? value.string()) ?? "", value)
            }
            return nil
        }
        func unknown(_ value: JSONValue) -> (Double) -> Double? {
            let path = value.path.description
            let field = path.split(separator: ".").last.map(String.init) ?? path
            warnings.append(ValueWarning(field: field, path: path, value: value.shortText, reason: "unknown unit"))
            return { _ in nil }
        }
        switch try unit(["temperature_2m", "apparent_temperature", "temperature_2m_max", "temperature_2m_min", "dew_point_2m"]) {
        case nil, ("°C", _)?: temperature = { $0 }
        case ("°F", _)?: temperature = UnitConversion.celsius(fromFahrenheit:)
        case let (_, value)?: temperature = unknown(value)
        }
        switch try unit(["wind_speed_10m", "wind_gusts_10m", "wind_speed_10m_max", "wind_gusts_10m_max"]) {
        case nil, ("m/s", _)?: speed = { $0 }
        case ("km/h", _)?: speed = UnitConversion.metresPerSecond(fromKilometresPerHour:)
        case ("mp/h", _)?, ("mph", _)?: speed = UnitConversion.metresPerSecond(fromMilesPerHour:)
        case ("kn", _)?: speed = UnitConversion.metresPerSecond(fromKnots:)
        case let (_, value)?: speed = unknown(value)
        }
        switch try unit(["precipitation", "precipitation_sum"]) {
        case nil, ("mm", _)?: precipitation = { $0 }
        case ("inch", _)?: precipitation = UnitConversion.millimetres(fromInches:)
        case let (_, value)?: precipitation = unknown(value)
        }
        switch try unit(["visibility"]) {
        case nil, ("m", _)?: distance = { $0 }
        case ("ft", _)?: distance = { $0 * 0.3048 }
        case let (_, value)?: distance = unknown(value)
        }
    }
}
