import FoundationEssentials
import IsobarCore

/// Open-Meteo's forecast API: current, hourly and daily values in one request, no key needed.
public struct OpenMeteoProvider: WeatherProvider {
    /// How to reach Open-Meteo.
    public struct Configuration: Sendable {
        /// Provider id shown in output.
        public var id: String
        /// Base URL, `https://api.open-meteo.com` unless pointed elsewhere.
        public var baseURL: RequestURL
        /// Days of forecast asked for, 1–16. One fixed value keeps requests identical between commands.
        public var forecastDays: Int
        /// Key for the commercial service, when one is configured (sent as `apikey`).
        public var apiKey: String?
        /// Weather models asked for in the one request (`models=`), each a source of its own; empty for Open-Meteo's best match.
        public var models: [String]
        /// Where past forecasts are asked (`previous_runs_url`); nil for Open-Meteo's Previous Runs API.
        public var previousRunsURL: RequestURL?

        /// Creates a configuration.
        public init(id: String = "open-meteo", baseURL: RequestURL = RequestURL(string: "https://api.open-meteo.com")!,
                    forecastDays: Int = 16, apiKey: String? = nil, models: [String] = []) {
            self.id = id
            self.baseURL = baseURL
            self.forecastDays = min(16, max(1, forecastDays))
            self.apiKey = apiKey
            self.models = models
        }
    }

    /// Variables asked for in `current`.
    public static let currentVariables = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "is_day", "precipitation", "weather_code",
        "cloud_cover", "pressure_msl", "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m", "visibility", "dew_point_2m",
        "uv_index",
    ]
    /// Variables asked for in `hourly`.
    public static let hourlyVariables = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "precipitation_probability", "precipitation",
        "weather_code", "cloud_cover", "pressure_msl", "visibility", "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m",
        "dew_point_2m", "uv_index",
    ]
    /// Variables asked for in `daily`.
    public static let dailyVariables = [
        "weather_code", "temperature_2m_max", "temperature_2m_min", "precipitation_sum", "precipitation_probability_max",
        "wind_speed_10m_max", "wind_gusts_10m_max", "wind_direction_10m_dominant", "sunrise", "sunset", "uv_index_max",
        "daylight_duration",
    ]

    /// The variables as sent, joined once.
    private static let currentList = currentVariables.joined(separator: ",")
    private static let hourlyList = hourlyVariables.joined(separator: ",")
    private static let dailyList = dailyVariables.joined(separator: ",")

    /// The configuration in use.
    public let configuration: Configuration
    /// Stable identifier.
    public var id: String { configuration.id }
    /// Name for people.
    public var displayName: String { "Open-Meteo" }
    /// Current, hourly and daily for up to 16 days; no key; one call at a time.
    public let capabilities: ProviderCapabilities

    /// What a provider of `configuration` offers.
    private static func offered(by configuration: Configuration) -> ProviderCapabilities {
        ProviderCapabilities(
            kinds: DataKind.weather, horizonDays: configuration.forecastDays, stepHours: 1,
            quantities: Set(Quantity.weather), requiresAPIKey: false, geocoding: true,
            rateLimits: [
                RateLimit(limit: 600, perSeconds: 60), RateLimit(limit: 5_000, perSeconds: 3_600),
                RateLimit(limit: 10_000, perSeconds: 86_400), RateLimit(limit: 300_000, perSeconds: 30 * 86_400),
            ],
            // The free service takes about one request at a time per client, with a short queue; bursts are answered 429.
            freshFor: (current: 900, forecast: 3600), attribution: "Open-Meteo.com (CC BY 4.0)", maxConcurrentCalls: 1)
    }

    /// Open-Meteo's weighting: `max(1, vars / 10 × max(1, days / 14))` for one location, where every model asked for
    /// counts its variables again.
    public func callCost(of request: WeatherRequest) -> Double {
        let variables = Double(Self.currentVariables.count + Self.hourlyVariables.count + Self.dailyVariables.count)
            * Double(max(1, configuration.models.count))
        return max(1, variables / 10 * max(1, Double(configuration.forecastDays) / 14))
    }

    /// Itself, or one source per model (`<id>/<model>`, named after the model), every one of the family of its service
    /// (`family(of:)`): entries at one endpoint share an upstream, entries at different endpoints are independent unless
    /// the record finds their errors correlated. The models of one request share it (Open-Meteo's best match is itself
    /// one of them).
    public var sources: [SourceIdentity] {
        let family = Self.family(of: configuration.baseURL)
        guard !configuration.models.isEmpty else { return [SourceIdentity(id: id, name: displayName, family: family)] }
        return configuration.models.map { model in
            SourceIdentity(id: "\(id)/\(model)", name: "\(displayName) \(OpenMeteoModels.name(of: model))", family: family, providerID: id)
        }
    }

    /// The family of the sources served at Open-Meteo's own hosts.
    public static let family = "open-meteo"

    /// The family of the sources served at `baseURL`: `open-meteo` at Open-Meteo's own hosts (the free and the
    /// commercial service run the same models), `open-meteo@<host[:port]>` at any other endpoint.
    public static func family(of baseURL: RequestURL) -> String {
        let ownHosts: Set<String> = ["api.open-meteo.com", "customer-api.open-meteo.com"]
        return ownHosts.contains(baseURL.host) && baseURL.port == nil ? family : "\(family)@\(baseURL.authority)"
    }

    /// Creates the provider.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        capabilities = Self.offered(by: configuration)
    }

    /// The single request a fetch sends: every kind at once, with `timezone=auto` so days are local days.
    public func request(for request: WeatherRequest) -> HTTPRequest {
        let coordinate = request.place.coordinate.rounded
        var query = [
            QueryItem("latitude", JSONOutput.format(coordinate.latitude)),
            QueryItem("longitude", JSONOutput.format(coordinate.longitude)),
            QueryItem("current", Self.currentList),
            QueryItem("hourly", Self.hourlyList),
            QueryItem("daily", Self.dailyList),
            QueryItem("timezone", "auto"),
            QueryItem("forecast_days", String(configuration.forecastDays)),
        ]
        if !configuration.models.isEmpty { query.append(QueryItem("models", configuration.models.joined(separator: ","))) }
        if let key = configuration.apiKey, !key.isEmpty { query.append(QueryItem("apikey", key)) }
        return HTTPRequest(url: configuration.baseURL.appending(path: "/v1/forecast", query: query), secretQueryNames: ["apikey"], origin: displayName)
    }

    /// Fetches and decodes one forecast response; no error message ever holds the key.
    public func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        let httpRequest = self.request(for: request)
        let decoded: [OpenMeteoForecast]
        let now = context.time.now()
        do {
            let response = try await context.transport.send(httpRequest)
            decoded = try OpenMeteoDecoder(providerName: displayName).decode(response, now: now, models: configuration.models,
                                                                     kinds: context.onlyAskedKinds ? request.kinds : nil)
        } catch {
            throw error.redacting(httpRequest.secretValues)
        }
        let reports = zip(sources, decoded).map { source, forecast in
            var report = WeatherReport(
                providerID: source.id, place: request.place, fetchedAt: now,
                utcOffsetSeconds: forecast.utcOffsetSeconds, timeZoneIdentifier: forecast.timeZoneIdentifier,
                current: forecast.current, hourly: forecast.hourly, daily: forecast.daily)
            report.warnings = forecast.warnings
            return report
        }
        guard !configuration.models.isEmpty else { return reports[0] }
        var report = WeatherReport(
            providerID: id, place: request.place, fetchedAt: now,
            utcOffsetSeconds: decoded[0].utcOffsetSeconds, timeZoneIdentifier: decoded[0].timeZoneIdentifier)
        report.sourceReports = reports
        return report
    }
}
