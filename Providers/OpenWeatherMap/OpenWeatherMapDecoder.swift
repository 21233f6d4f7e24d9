import FoundationEssentials
import IsobarCore

/// Turns OpenWeatherMap response bodies into the canonical model.
public struct OpenWeatherMapDecoder: Sendable {
    /// The `units` the request was sent with: temperatures and wind come back in them (visibility and precipitation do not).
    public var units: OpenWeatherMapProvider.RequestUnits
    /// Name used in error messages.
    public var providerName: String

    /// Creates a decoder for responses to requests made with `units`.
    public init(units: OpenWeatherMapProvider.RequestUnits, providerName: String = "OpenWeatherMap") {
        self.units = units
        self.providerName = providerName
    }

    /// Decodes a `/data/2.5/weather` response; a value of the wrong type is left out with a warning.
    public func current(_ response: HTTPResponse, now: Date) throws(ProviderError)
        -> (sample: WeatherSample, utcOffsetSeconds: Int?, warnings: [ValueWarning]) {
        let root = try checkedRoot(response, now: now)
        do {
            var sample = WeatherSample(time: Date(timeIntervalSince1970: try root.double("dt", in: PlausibleRange.unixSeconds)), periodHours: 1)
            var warnings: [ValueWarning] = []
            try fillCommon(&sample, from: root, warnings: &warnings)
            let rain = try precipitation(root.nonNullMember("rain"))
            let snow = try precipitation(root.nonNullMember("snow"))
            // Absent `rain` and `snow` objects mean none fell (OpenWeatherMap's documented convention).
            sample.precipitationMM = (rain?.mm ?? 0) + (snow?.mm ?? 0)
            sample.periodHours = rain?.hours ?? snow?.hours ?? 1
            return (sample, try root.optionalInt("timezone", in: PlausibleRange.utcOffsetSeconds), warnings)
        } catch {
            throw ProviderError.badResponse(error, provider: providerName)
        }
    }

    /// Today's sunrise and sunset from a `/data/2.5/weather` response's `sys`, nil when either is absent, 0 (polar day or
    /// night) or not a plausible time, or sunset is not after sunrise.
    public func sunTimes(_ response: HTTPResponse, now: Date) -> (sunrise: Date, sunset: Date)? {
        guard let root = try? checkedRoot(response, now: now), let sys = try? root.nonNullMember("sys"),
              let rise = try? sys.optionalDouble("sunrise"), let set = try? sys.optionalDouble("sunset"),
              rise > 0, set > rise, PlausibleRange.unixSeconds.contains(rise), set - rise < 86_400 else { return nil }
        return (Date(timeIntervalSince1970: rise), Date(timeIntervalSince1970: set))
    }

    /// Decodes a `/data/2.5/forecast` response into 3-hour steps; a value of the wrong type is left out with a warning.
    public func forecast(_ response: HTTPResponse, now: Date) throws(ProviderError)
        -> (steps: [WeatherSample], utcOffsetSeconds: Int?, warnings: [ValueWarning]) {
        let root = try checkedRoot(response, now: now)
        do {
            var steps: [WeatherSample] = []
            var warnings: [ValueWarning] = []
            for item in try root.member("list").elements() {
                var sample = WeatherSample(time: Date(timeIntervalSince1970: try item.double("dt", in: PlausibleRange.unixSeconds)), periodHours: 3)
                try fillCommon(&sample, from: item, warnings: &warnings)
                sample.precipitationMM = (try item.nonNullMember("rain")?.optionalDouble("3h") ?? 0)
                    + (try item.nonNullMember("snow")?.optionalDouble("3h") ?? 0)
                sample.precipitationProbabilityPercent = try item.tolerantDouble("pop", &warnings).map { $0 * 100 }
                if let pod = try item.nonNullMember("sys")?.optionalString("pod") { sample.isDay = pod == "d" }
                steps.append(sample)
            }
            steps.sort { $0.time < $1.time }
            return (steps, try root.nonNullMember("city")?.optionalInt("timezone", in: PlausibleRange.utcOffsetSeconds), warnings)
        } catch {
            throw ProviderError.badResponse(error, provider: providerName)
        }
    }

    /// Fields shared by current weather and forecast items.
    private func fillCommon(_ sample: inout WeatherSample, from item: JSONValue, warnings: inout [ValueWarning]) throws(JSONError) {
        let main = try item.member("main")
        // The temperature is what makes an answer an answer: without a number there it is the wrong shape.
        sample.temperatureC = temperature(try main.double("temp"))
        sample.apparentTemperatureC = try main.tolerantDouble("feels_like", &warnings).map(temperature)
        sample.humidityPercent = try main.tolerantDouble("humidity", &warnings)
        sample.pressureHPa = try main.tolerantDouble("pressure", &warnings)
        if let wind = try item.nonNullMember("wind") {
            sample.windSpeedMS = try wind.tolerantDouble("speed", &warnings).map(speed)
            sample.windGustMS = try wind.tolerantDouble("gust", &warnings).map(speed)
            sample.windDirectionDeg = try wind.tolerantDouble("deg", &warnings)
        }
        sample.cloudCoverPercent = try item.nonNullMember("clouds")?.tolerantDouble("all", &warnings)
        sample.visibilityM = try item.tolerantDouble("visibility", &warnings)
        let conditions = try item.member("weather").elements()
        if let primary = conditions.first {
            sample.condition = Condition(openWeatherMapID: try primary.int("id"))
            if let icon = try primary.optionalString("icon"), let last = icon.last { sample.isDay = last == "d" }
        }
    }

    private func precipitation(_ object: JSONValue?) throws(JSONError) -> (mm: Double, hours: Double)? {
        guard let object else { return nil }
        if let hourly = try object.optionalDouble("1h") { return (hourly, 1) }
        if let threeHourly = try object.optionalDouble("3h") { return (threeHourly, 3) }
        return nil
    }

    private func temperature(_ value: Double) -> Double {
        switch units {
        case .metric: value
        case .imperial: UnitConversion.celsius(fromFahrenheit: value)
        case .standard: UnitConversion.celsius(fromKelvin: value)
        }
    }

    private func speed(_ value: Double) -> Double {
        units == .imperial ? UnitConversion.metresPerSecond(fromMilesPerHour: value) : value
    }

    /// Parses the body after mapping a failure status, or a success status whose `cod` says otherwise, to its error.
    private func checkedRoot(_ response: HTTPResponse, now: Date) throws(ProviderError) -> JSONValue {
        let body = try CheckedBody(response, provider: providerName, messageKey: "message", now: now)
        let serverMessage = body.serverMessage
        return try ProviderError.decoding(provider: providerName) {
            let root = try body.root()
            guard let cod = try root.nonNullMember("cod") else { return root }
            let code = try cod.intOrNumericString()
            guard code != 200 else { return root }
            let failed = HTTPResponse(status: code, headers: response.headers, body: [])
            throw ProviderError.forStatus(failed, provider: providerName, serverMessage: serverMessage, now: now)
                ?? ProviderError(.badResponse(path: "$.cod"), "\(providerName) answered with code \(code)")
        }
    }
}
