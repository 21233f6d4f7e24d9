import FoundationEssentials
import IsobarCore

/// The US National Weather Service's active alerts for a point (`/alerts/active?point=LAT,LON`): CAP 1.2 in GeoJSON, US
/// only, no key; the API asks every client for a `User-Agent` naming the application and a contact.
public struct NWSAlertsProvider: WeatherProvider {
    /// How to reach the NWS API.
    public struct Configuration: Sendable {
        /// Provider id shown in output.
        public var id: String
        /// Base URL, `https://api.weather.gov` unless pointed elsewhere.
        public var baseURL: RequestURL
        /// An e-mail address or URL where the NWS can reach whoever runs this copy; required to go live.
        public var contact: String?
        /// The application named in the `User-Agent`, e.g. `isobar/0.1.0`.
        public var application: String
        /// False when answers are replayed, which needs no contact.
        public var requiresContact = true
        /// The user's configuration file, named when the contact is missing, and whether it exists yet; nil when unknown.
        public var configurationFile: (path: String, exists: Bool)?

        /// Creates a configuration.
        public init(id: String = "nws-alerts", baseURL: RequestURL = RequestURL(string: "https://api.weather.gov")!, contact: String? = nil,
                    application: String = "isobar") {
            self.id = id
            self.baseURL = baseURL
            self.contact = ContactTerms.contact(contact)
            self.application = application
        }
    }

    /// The credit shown with its warnings (US government work, public domain).
    public static let attribution = "US National Weather Service"

    /// The configuration in use.
    public let configuration: Configuration
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
    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

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
        guard configuration.contact == nil && configuration.requiresContact else { return nil }
        return ContactTerms.missing("the NWS API asks", id: id, variable: Self.contactVariable, file: configuration.configurationFile)
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
