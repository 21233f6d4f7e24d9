import FoundationEssentials
import IsobarCore

/// MET Norway's Locationforecast 2.0 (`compact`): hourly steps for about two and a half days, then 6-hourly to about
/// nine days; no key, but its terms ask for a `User-Agent` naming the application and a contact. Data CC BY 4.0.
public struct METNorwayProvider: WeatherProvider {
    /// Where the service is, unless an entry points elsewhere.
    public static let defaultBaseURL = RequestURL(string: "https://api.met.no")!

    /// The credit MET Norway's licence asks for, shown with its data.
    public static let attribution = "MET Norway (CC BY 4.0)"

    /// The configuration in use.
    public let configuration: ContactedService
    /// Stable identifier.
    public var id: String { configuration.id }
    /// Name for people.
    public var displayName: String { "MET Norway" }
    /// Current (the step of this hour) and forecast steps; days are computed from the steps.
    public var capabilities: ProviderCapabilities {
        var capabilities = ProviderCapabilities(
            kinds: DataKind.weather, horizonDays: 9, stepHours: 1,
            // No dew point (computed from temperature and humidity instead) and no UV index: `compact` has neither, and the
            // `complete` product's `ultraviolet_index_clear_sky` assumes a cloudless sky, another quantity than the UV index
            // under the forecast clouds the others give, so it is not merged with them.
            quantities: [.temperature, .humidity, .pressure, .windSpeed, .windGust, .windDirection, .cloudCover, .precipitationRate],
            requiresAPIKey: false, geocoding: false,
            // The terms allow 20 requests a second for an application as a whole; one user stays far below.
            rateLimits: [RateLimit(limit: 20, perSeconds: 1)],
            freshFor: (current: 1_800, forecast: 3_600), attribution: Self.attribution)
        // The terms: do not ask again before the answer's Expires, however long that is.
        capabilities.honoursHTTPExpiry = true
        return capabilities
    }

    /// Creates the provider.
    public init(configuration: ContactedService) { self.configuration = configuration }

    /// The provider with `contact`, naming `application` in its `User-Agent`.
    public init(contact: String? = nil, application: String = "isobar", baseURL: RequestURL = defaultBaseURL) {
        configuration = ContactedService(id: "met-norway", baseURL: baseURL, contact: contact, application: application)
    }

    /// The `User-Agent` the terms ask for: the application and the contact.
    public var userAgent: String { configuration.contact.map { "\(configuration.application) \($0)" } ?? configuration.application }

    /// The one request a fetch sends: coordinates at most 4 decimals, as the terms require.
    public func request(for request: WeatherRequest) -> HTTPRequest {
        let coordinate = request.place.coordinate.rounded
        let query = [
            QueryItem("lat", JSONOutput.format(coordinate.latitude)),
            QueryItem("lon", JSONOutput.format(coordinate.longitude)),
        ]
        return HTTPRequest(url: configuration.baseURL.appending(path: "/weatherapi/locationforecast/2.0/compact", query: query),
                           headers: [HTTPHeader("User-Agent", userAgent)], origin: displayName)
    }

    /// Not set up without a contact when it goes live: it says how to give one, and where the configuration file is.
    public func unusableReason(for request: WeatherRequest?) -> ProviderError? {
        configuration.missingContact("MET Norway's terms ask", variable: Self.contactVariable)
    }

    /// Fetches and decodes the forecast; the step of the hour the server answered in stands for current conditions.
    public func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        if let unusable = unusableReason(for: request) { throw unusable }
        let now = context.time.now()
        let response = try await context.transport.send(self.request(for: request))
        let decoded = try METNorwayDecoder(providerName: displayName).decode(response, now: now)
        // The step of the hour the server answered in (its `Date`; a replay's is the recording's), else of now.
        let answeredAt = response.header("Date").flatMap(RetryAfter.httpDate) ?? now
        var report = WeatherReport(providerID: id, place: request.place, fetchedAt: now,
                                   current: request.kinds.contains(.current) ? Self.currentStep(decoded.steps, now: answeredAt) : nil,
                                   hourly: decoded.steps)
        report.warnings = decoded.warnings
        if response.status == 203 {
            report.notices.append("\(displayName) says this product version is deprecated (HTTP 203); a newer one should be used")
        }
        return report
    }

    /// The step whose period holds `now`, when one does.
    static func currentStep(_ steps: [WeatherSample], now: Date) -> WeatherSample? {
        steps.last { $0.time <= now && now < $0.time.addingTimeInterval($0.periodHours * 3_600) }
    }
}
