import FoundationEssentials
import IsobarCore

/// Open-Meteo's air-quality API (CAMS Europe and CAMS global): pollutants and, in Europe in season, pollen; no key.
public struct OpenMeteoAirProvider: WeatherProvider {
    /// How to reach Open-Meteo's air-quality host.
    public struct Configuration: Sendable {
        /// Provider id shown in output.
        public var id: String
        /// Base URL, `https://air-quality-api.open-meteo.com` unless pointed elsewhere.
        public var baseURL: RequestURL
        /// Which CAMS domain to ask: `auto` (Europe where it covers, else global), `cams_europe` or `cams_global`.
        public var domain: OpenMeteoAirOptions.Domain
        /// Days of forecast asked for (1–7; CAMS Europe gives 4, CAMS global 5).
        public var forecastDays: Int

        /// Creates a configuration.
        public init(id: String = "open-meteo-air", baseURL: RequestURL = RequestURL(string: "https://air-quality-api.open-meteo.com")!,
                    domain: OpenMeteoAirOptions.Domain = .auto, forecastDays: Int = 5) {
            self.id = id
            self.baseURL = baseURL
            self.domain = domain
            self.forecastDays = forecastDays
        }
    }

    /// The configuration in use.
    public let configuration: Configuration
    /// Stable identifier.
    public var id: String { configuration.id }
    /// Name for people.
    public var displayName: String { "Open-Meteo Air" }
    /// Air quality now and hour by hour; no key.
    public var capabilities: ProviderCapabilities {
        var capabilities = ProviderCapabilities(
            kinds: [.air, .current, .hourly], horizonDays: configuration.forecastDays, stepHours: 1, quantities: Set(Self.variables.keys),
            requiresAPIKey: false, geocoding: false, rateLimits: [RateLimit(limit: 600, perSeconds: 60), RateLimit(limit: 10_000, perSeconds: 86_400)],
            freshFor: (current: 1800, forecast: 3600), attribution: "Open-Meteo (CC BY 4.0), CAMS (Copernicus)")
        capabilities.maxConcurrentCalls = nil
        return capabilities
    }

    /// Open-Meteo's variable for each quantity it gives.
    public static let variables: [Quantity: String] = [
        .pm25: "pm2_5", .pm10: "pm10", .ozone: "ozone", .nitrogenDioxide: "nitrogen_dioxide", .sulphurDioxide: "sulphur_dioxide",
        .carbonMonoxide: "carbon_monoxide", .dust: "dust", .alderPollen: "alder_pollen", .birchPollen: "birch_pollen",
        .grassPollen: "grass_pollen", .mugwortPollen: "mugwort_pollen", .olivePollen: "olive_pollen", .ragweedPollen: "ragweed_pollen",
    ]

    /// The variables asked for, in the order of the quantity table.
    static var variableList: String { Quantity.air.compactMap { variables[$0] }.joined(separator: ",") }

    /// Creates the provider.
    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

    /// The single request a fetch sends: current values and hourly steps at once, times in the place's zone.
    public func request(for request: WeatherRequest) -> HTTPRequest {
        let coordinate = request.place.coordinate.rounded
        let query = [
            QueryItem("latitude", JSONOutput.format(coordinate.latitude)),
            QueryItem("longitude", JSONOutput.format(coordinate.longitude)),
            QueryItem("current", Self.variableList),
            QueryItem("hourly", Self.variableList),
            QueryItem("domains", configuration.domain.rawValue),
            QueryItem("timezone", "auto"),
            QueryItem("forecast_days", String(configuration.forecastDays)),
        ]
        return HTTPRequest(url: configuration.baseURL.appending(path: "/v1/air-quality", query: query), origin: displayName)
    }

    /// Fetches and decodes one answer.
    public func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        let response = try await context.transport.send(self.request(for: request))
        let now = context.time.now()
        let decoded = try OpenMeteoAirDecoder(providerName: displayName).decode(response, now: now)
        var report = WeatherReport(providerID: id, place: request.place, fetchedAt: now, utcOffsetSeconds: decoded.utcOffsetSeconds,
                                   timeZoneIdentifier: decoded.timeZoneIdentifier, current: decoded.current,
                                   hourly: request.kinds.contains(.hourly) || !context.onlyAskedKinds ? decoded.hourly : [])
        report.warnings = decoded.warnings
        return report
    }
}
