import FoundationEssentials
import IsobarCore

/// OpenWeatherMap's free API: current weather and the 5-day / 3-hour forecast by coordinates.
public struct OpenWeatherMapProvider: WeatherProvider {
    /// How to reach OpenWeatherMap.
    public struct Configuration: Sendable {
        /// Provider id shown in output.
        public var id: String
        /// Base URL, `https://api.openweathermap.org` unless pointed elsewhere.
        public var baseURL: RequestURL
        /// The API key, when one is configured.
        public var apiKey: String?
        /// Where the key is expected to come from, for the "not configured" message.
        public var apiKeySource: String
        /// The `units` parameter sent; the decoder converts whatever it is.
        public var requestUnits: RequestUnits

        /// Creates a configuration.
        public init(id: String = "openweathermap", baseURL: RequestURL = RequestURL(string: "https://api.openweathermap.org")!,
                    apiKey: String?, apiKeySource: String = "OPENWEATHERMAP_API_KEY", requestUnits: RequestUnits = .metric) {
            self.id = id
            self.baseURL = baseURL
            self.apiKey = apiKey
            self.apiKeySource = apiKeySource
            self.requestUnits = requestUnits
        }

        /// Why a provider of `displayName` on this configuration cannot be used: no key, naming the variable to set; nil with one.
        public func missingKey(_ displayName: String) -> ProviderError? {
            guard apiKey?.isEmpty ?? true else { return nil }
            return ProviderError(.notConfigured, "\(displayName) needs an API key: set \(apiKeySource)", setting: apiKeySource)
        }
    }

    /// OpenWeatherMap's `units` parameter values.
    public enum RequestUnits: String, Sendable, CaseIterable {
        /// Kelvin and m/s.
        case standard
        /// °C and m/s.
        case metric
        /// °F and mph.
        case imperial
    }

    /// The configuration in use.
    public let configuration: Configuration
    /// Stable identifier.
    public var id: String { configuration.id }
    /// Name for people.
    public var displayName: String { "OpenWeatherMap" }
    /// Current conditions and 3-hourly steps for 5 days; needs a key.
    public let capabilities = ProviderCapabilities(
        kinds: [.current, .hourly], horizonDays: 5, stepHours: 3,
        quantities: Set(Quantity.weather).subtracting([.uvIndex, .dewPoint]), requiresAPIKey: true, geocoding: true,
        rateLimits: [RateLimit(limit: 60, perSeconds: 60), RateLimit(limit: 1_000_000, perSeconds: 30 * 86_400)],
        freshFor: (current: 600, forecast: 3 * 3600), attribution: "OpenWeather (CC BY-SA 4.0)")

    /// Each HTTP request counts: current weather, plus the forecast when steps are wanted.
    public func callCost(of request: WeatherRequest) -> Double { Double(requests(for: request).count) }

    /// Creates the provider.
    public init(configuration: Configuration) { self.configuration = configuration }

    /// The requests a fetch sends: current weather first, then the forecast when steps are wanted.
    public func requests(for request: WeatherRequest) -> [HTTPRequest] {
        let coordinate = request.place.coordinate.rounded
        let query = [
            QueryItem("lat", JSONOutput.format(coordinate.latitude)),
            QueryItem("lon", JSONOutput.format(coordinate.longitude)),
            QueryItem("units", configuration.requestUnits.rawValue),
            QueryItem("appid", configuration.apiKey ?? ""),
        ]
        var paths = ["/data/2.5/weather"]
        if !request.kinds.isDisjoint(with: [.hourly, .daily]) { paths.append("/data/2.5/forecast") }
        return paths.map {
            HTTPRequest(url: configuration.baseURL.appending(path: $0, query: query), secretQueryNames: ["appid"], origin: displayName)
        }
    }

    /// Not set up without a key: it says which variable to set.
    public func unusableReason(for request: WeatherRequest?) -> ProviderError? {
        configuration.missingKey(displayName)
    }

    /// Fetches current weather and, when wanted, the forecast, concurrently; no error message ever holds the key.
    public func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        if let unusable = unusableReason(for: request) { throw unusable }
        guard let key = configuration.apiKey else { throw ProviderError(.notConfigured, "\(displayName) needs an API key") }
        do {
            return try await fetchWithKey(request, context: context)
        } catch {
            throw error.redacting([key])
        }
    }

    private func fetchWithKey(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        let transport = context.transport
        let decoder = OpenWeatherMapDecoder(units: configuration.requestUnits, providerName: displayName)
        let planned = requests(for: request)
        let responses: [HTTPResponse]
        if planned.count == 1 {
            // Current weather alone: sent from this task, without a child task to start and wait for.
            responses = [try await transport.send(planned[0])]
        } else {
            responses = try await sendConcurrently(planned, through: transport)
        }
        let now = context.time.now()
        let current = try decoder.current(responses[0], now: now)
        var report = WeatherReport(
            providerID: id, place: request.place, fetchedAt: now,
            utcOffsetSeconds: current.utcOffsetSeconds, current: current.sample)
        report.warnings = current.warnings
        if responses.count > 1 {
            let forecast = try decoder.forecast(responses[1], now: now)
            report.hourly = forecast.steps
            report.warnings += forecast.warnings
            report.utcOffsetSeconds = report.utcOffsetSeconds ?? forecast.utcOffsetSeconds
            // Only today's sun times are given: one day holding them, which the days computed from the steps take in.
            if let sun = decoder.sunTimes(responses[0], now: now), let offset = report.utcOffsetSeconds {
                var day = DailyPoint(date: LocalDate(sun.sunrise, utcOffsetSeconds: offset))
                (day.sunrise, day.sunset) = (sun.sunrise, sun.sunset)
                report.daily = [day]
            }
        }
        return report
    }

    /// Sends every request at once; the responses in the order of `planned`.
    private func sendConcurrently(_ planned: [HTTPRequest], through transport: any Transport) async throws(ProviderError) -> [HTTPResponse] {
        do {
            return try await withThrowingTaskGroup(of: (Int, HTTPResponse).self) { group in
                for (index, httpRequest) in planned.enumerated() {
                    group.addTask { (index, try await transport.send(httpRequest)) }
                }
                var collected = [HTTPResponse?](repeating: nil, count: planned.count)
                for try await (index, response) in group { collected[index] = response }
                return collected.compactMap { $0 }
            }
        } catch let error as ProviderError {
            throw error
        } catch {
            throw ProviderError(.unavailable, "\(displayName) could not be reached: \(error)")
        }
    }
}
