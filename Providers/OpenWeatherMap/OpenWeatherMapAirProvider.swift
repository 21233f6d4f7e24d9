import FoundationEssentials
import IsobarCore

/// OpenWeatherMap's Air Pollution API: concentrations now and hour by hour for 4 days, with its own 1–5 index; needs a key.
public struct OpenWeatherMapAirProvider: WeatherProvider {
    /// How to reach it: the same host and key as OpenWeatherMap's weather.
    public let configuration: OpenWeatherMapProvider.Configuration
    /// Stable identifier.
    public var id: String { configuration.id }
    /// Name for people.
    public var displayName: String { "OpenWeatherMap Air" }
    /// Air quality now and hour by hour for 4 days; needs a key.
    public let capabilities = ProviderCapabilities(
        kinds: [.air, .current, .hourly], horizonDays: 4, stepHours: 1,
        quantities: [.pm25, .pm10, .ozone, .nitrogenDioxide, .sulphurDioxide, .carbonMonoxide], requiresAPIKey: true, geocoding: false,
        rateLimits: [RateLimit(limit: 60, perSeconds: 60), RateLimit(limit: 1_000_000, perSeconds: 30 * 86_400)],
        freshFor: (current: 1800, forecast: 3600), attribution: "OpenWeather (CC BY-SA 4.0)")

    /// Creates the provider.
    public init(configuration: OpenWeatherMapProvider.Configuration) { self.configuration = configuration }

    /// Each HTTP request counts: the current values, plus the forecast when steps are wanted.
    public func callCost(of request: WeatherRequest) -> Double { Double(requests(for: request).count) }

    /// The requests a fetch sends: the current values first, then the forecast when steps are wanted.
    public func requests(for request: WeatherRequest) -> [HTTPRequest] {
        let coordinate = request.place.coordinate.rounded
        let query = [
            QueryItem("lat", JSONOutput.format(coordinate.latitude)),
            QueryItem("lon", JSONOutput.format(coordinate.longitude)),
            QueryItem("appid", configuration.apiKey ?? ""),
        ]
        var paths = ["/data/2.5/air_pollution"]
        if request.kinds.contains(.hourly) { paths.append("/data/2.5/air_pollution/forecast") }
        return paths.map {
            HTTPRequest(url: configuration.baseURL.appending(path: $0, query: query), secretQueryNames: ["appid"], origin: displayName)
        }
    }

    /// Not set up without a key: it says which variable to set.
    public func unusableReason(for request: WeatherRequest?) -> ProviderError? {
        configuration.missingKey(displayName)
    }

    /// Fetches the current values and, when wanted, the forecast, one after the other; no error message ever holds the key.
    public func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        if let unusable = unusableReason(for: request) { throw unusable }
        guard let key = configuration.apiKey else { throw ProviderError(.notConfigured, "\(displayName) needs an API key") }
        do {
            let decoder = OpenWeatherMapAirDecoder(providerName: displayName)
            let planned = requests(for: request)
            let now = context.time.now()
            let current = try decoder.decode(try await context.transport.send(planned[0]), now: now)
            var report = WeatherReport(providerID: id, place: request.place, fetchedAt: now, current: current.samples.last)
            report.warnings = current.warnings
            if planned.count > 1 {
                let forecast = try decoder.decode(try await context.transport.send(planned[1]), now: now)
                report.hourly = forecast.samples
                report.warnings += forecast.warnings
            }
            return report
        } catch {
            throw error.redacting([key])
        }
    }
}

extension OpenWeatherMapAirProvider {
    /// How Isobar builds OpenWeatherMap's air quality from a configuration entry; the key is OpenWeatherMap's own.
    public static let factory = ProviderFactory(
        type: "openweathermap-air", summary: "OpenWeatherMap Air: pollutants now + hourly, 4 days, its own 1–5 index; needs a key",
        keyVariable: "OPENWEATHERMAP_API_KEY",
        make: { context throws(ProviderError) in
            let settings = context.settings
            let key = settings.isReplay ? "replay" : settings.apiKey
            var configuration = OpenWeatherMapProvider.Configuration(id: settings.id, apiKey: key,
                                                                     apiKeySource: settings.apiKeyVariable ?? "OPENWEATHERMAP_API_KEY")
            if let url = settings.baseURL { configuration.baseURL = url }
            return OpenWeatherMapAirProvider(configuration: configuration)
        })
}
