import FoundationEssentials
import IsobarCore

/// OpenWeatherMap's national weather warnings: the `alerts` of a One Call 3.0 answer (`/data/3.0/onecall`, everything else
/// excluded). Worldwide where a national service publishes through it; the text is the issuer's, passed through. It needs
/// the same key as OpenWeatherMap's weather, with the separate One Call by Call subscription: without it the source is
/// unavailable, and says so in one line.
public struct OpenWeatherMapAlertsProvider: WeatherProvider {
    /// The credit its licence asks for.
    public static let attribution = "OpenWeather (CC BY-SA 4.0)"
    /// The parts of the One Call answer left out: all but `alerts`.
    public static let excluded = "current,minutely,hourly,daily"
    /// How long an answer is used without asking again: OpenWeatherMap advises one request per place per 10 minutes (its
    /// data change no faster), and each call beyond the subscription's free 1,000 a day is paid for. Not a floor of its
    /// terms: after a failure (a key without the subscription) the next run asks again, and says why it failed.
    public static let freshSeconds = 600.0

    /// How to reach it: the same host and key as OpenWeatherMap's weather.
    public let configuration: OpenWeatherMapProvider.Configuration
    /// Stable identifier.
    public var id: String { configuration.id }
    /// Name for people.
    public var displayName: String { "OpenWeatherMap" }
    /// Alerts only; an answer is used for 10 minutes, and no more than the free 1,000 calls a day are made.
    public var capabilities: ProviderCapabilities {
        ProviderCapabilities(
            kinds: [.alerts], horizonDays: 0, stepHours: 1, quantities: [], requiresAPIKey: true, geocoding: false,
            rateLimits: [RateLimit(limit: 60, perSeconds: 60), RateLimit(limit: 1000, perSeconds: 86_400)],
            freshFor: (current: Self.freshSeconds, forecast: Self.freshSeconds), attribution: Self.attribution)
    }

    /// The whole world: which national services it passes through is not published.
    public var coverage: Coverage { .global }

    /// Creates the provider.
    public init(configuration: OpenWeatherMapProvider.Configuration) { self.configuration = configuration }

    /// The one request a fetch sends: the point with at most 4 decimals, every part but the alerts excluded.
    public func request(for request: WeatherRequest) -> HTTPRequest {
        let coordinate = request.place.coordinate.rounded
        let query = [
            QueryItem("lat", JSONOutput.format(coordinate.latitude)),
            QueryItem("lon", JSONOutput.format(coordinate.longitude)),
            QueryItem("exclude", Self.excluded),
            QueryItem("appid", configuration.apiKey ?? ""),
        ]
        return HTTPRequest(url: configuration.baseURL.appending(path: "/data/3.0/onecall", query: query), secretQueryNames: ["appid"],
                           origin: displayName)
    }

    /// Not set up without a key: it says which variable to set.
    public func unusableReason(for request: WeatherRequest?) -> ProviderError? {
        configuration.missingKey(displayName)
    }

    /// Fetches and decodes the alerts for the place; no error message ever holds the key.
    public func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        if let unusable = unusableReason(for: request) { throw unusable }
        guard let key = configuration.apiKey else { throw ProviderError(.notConfigured, "\(displayName) needs an API key") }
        do {
            let now = context.time.now()
            let response = try await context.transport.send(self.request(for: request))
            var report = WeatherReport(providerID: id, place: request.place, fetchedAt: now)
            (report.alerts, report.notices) = try OpenWeatherMapAlertsDecoder(providerName: displayName, source: id).read(response, now: now)
            report.caching = HTTPCaching(response, receivedAt: now)
            return report
        } catch {
            throw error.redacting([key])
        }
    }
}

extension OpenWeatherMapAlertsProvider {
    /// How Isobar builds OpenWeatherMap's warnings from a configuration entry; the key is OpenWeatherMap's own.
    public static let factory = ProviderFactory(
        type: "openweathermap-alerts",
        summary: "OpenWeatherMap One Call: national warnings passed on, worldwide; needs a One Call 3.0 subscription",
        keyVariable: "OPENWEATHERMAP_API_KEY", kinds: [.alerts],
        make: { context throws(ProviderError) in
            let settings = context.settings
            let key = settings.isReplay ? "replay" : settings.apiKey
            var configuration = OpenWeatherMapProvider.Configuration(id: settings.id, apiKey: key,
                                                                     apiKeySource: settings.apiKeyVariable ?? "OPENWEATHERMAP_API_KEY")
            if let url = settings.baseURL { configuration.baseURL = url }
            return OpenWeatherMapAlertsProvider(configuration: configuration)
        })
}
