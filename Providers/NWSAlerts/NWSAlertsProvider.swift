import FoundationEssentials
import IsobarCore

/// The US National Weather Service's active alerts for a point (`/alerts/active?point=LAT,LON`): CAP 1.2 in GeoJSON, US
/// only, no key; the API asks every client for a `User-Agent` naming the application and a contact.
public struct NWSAlertsProvider: WeatherProvider {
    /// Where the service is, unless an entry points elsewhere.
    public static let defaultBaseURL = RequestURL(string: "https://api.weather.gov")!

    /// The credit shown with its warnings (US government work, public domain).
    public static let attribution = "US National Weather Service"

    /// The configuration in use.
    public let configuration: ContactedService
    /// Stable identifier.
    public var id: String { configuration.id }
    /// Name for people.
    public var displayName: String { "NWS" }
    /// Alerts only.
    public var capabilities: ProviderCapabilities {
        ProviderCapabilities(kinds: [.alerts], horizonDays: 0, stepHours: 1, quantities: [], requiresAPIKey: false, geocoding: false,
                             // The API publishes no number; it asks clients not to poll one point more than about once a minute.
                             rateLimits: [RateLimit(limit: 1, perSeconds: 60)],
                             freshFor: (current: 60, forecast: 60), attribution: Self.attribution)
    }

    /// The United States and its territories: a box from Guam and the Aleutians across the antimeridian to Puerto Rico.
    public var coverage: Coverage { .box(south: 13, west: 144, north: 72, east: -64) }

    /// Creates the provider.
    public init(configuration: ContactedService) { self.configuration = configuration }

    /// The provider with `contact`, naming `application` in its `User-Agent`.
    public init(contact: String? = nil, application: String = "isobar", baseURL: RequestURL = defaultBaseURL) {
        configuration = ContactedService(id: "nws-alerts", baseURL: baseURL, contact: contact, application: application)
    }

    /// The `User-Agent` the API asks for: the application and the contact.
    public var userAgent: String { configuration.contact.map { "(\(configuration.application), \($0))" } ?? configuration.application }

    /// The one request a fetch sends: the point with at most 4 decimals.
    public func request(for request: WeatherRequest) -> HTTPRequest {
        let coordinate = request.place.coordinate.rounded
        let point = JSONOutput.format(coordinate.latitude) + "," + JSONOutput.format(coordinate.longitude)
        return HTTPRequest(url: configuration.baseURL.appending(path: "/alerts/active", query: [QueryItem("point", point)]),
                           headers: [HTTPHeader("User-Agent", userAgent), HTTPHeader("Accept", "application/geo+json")], origin: displayName)
    }

    /// Not set up without a contact when it goes live: it says how to give one, and where the configuration file is.
    public func unusableReason(for request: WeatherRequest?) -> ProviderError? {
        configuration.missingContact("the NWS API asks", variable: Self.contactVariable)
    }

    /// Fetches and decodes the active alerts for the place.
    public func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        if let unusable = unusableReason(for: request) { throw unusable }
        let now = context.time.now()
        let response = try await context.transport.send(self.request(for: request))
        var report = WeatherReport(providerID: id, place: request.place, fetchedAt: now)
        (report.alerts, report.notices) = try NWSAlertsDecoder(providerName: displayName, source: id).read(response, now: now)
        report.caching = HTTPCaching(response, receivedAt: now)
        return report
    }
}
