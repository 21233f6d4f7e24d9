import FoundationEssentials
import IsobarCore

/// MET Norway's MetAlerts 2.0: the RSS list of warnings in force at a point (`/weatherapi/metalerts/2.0/current.rss?lat=&lon=`),
/// then one CAP 1.2 file per warning (`current?cap=ID`). Norway and its waters; no key, but the terms ask for a contact in
/// the `User-Agent`, no more than one poll of a place per 10 minutes, and each CAP file fetched once (it never changes
/// once issued: the host keeps it, see `PublishedFiles`). Data CC BY 4.0.
public struct METAlertsProvider: WeatherProvider, PublishedFiles {
    /// How to reach MetAlerts: the settings every contacted service has, and the language of the warnings' text.
    public struct Configuration: Sendable {
        /// Id, base URL (`https://api.met.no` unless pointed elsewhere), contact, application and configuration file.
        public var service: ContactedService
        /// The language the warnings' text is wanted in (MET Norway sends Norwegian and English).
        public var language = AlertLanguage(wanted: nil)

        /// Creates a configuration.
        public init(id: String = "met-alerts", baseURL: RequestURL = METAlertsProvider.defaultBaseURL, contact: String? = nil,
                    application: String = "isobar") {
            service = ContactedService(id: id, baseURL: baseURL, contact: contact, application: application)
        }

        /// The settings of `service`, with the language of the warnings' text.
        public init(service: ContactedService, language: AlertLanguage) {
            self.service = service
            self.language = language
        }
    }

    /// MET Norway's API host.
    public static let defaultBaseURL = RequestURL(string: "https://api.met.no")!

    /// The credit its terms ask for.
    public static let attribution = "MET Norway (CC BY 4.0)"
    /// The terms' polling floor: one poll of a place per 10 minutes.
    public static let pollingFloorSeconds = 600.0
    /// The path of the service.
    static let path = "/weatherapi/metalerts/2.0"

    /// The configuration in use.
    public let configuration: Configuration
    /// Stable identifier.
    public var id: String { configuration.service.id }
    /// Name for people.
    public var displayName: String { "MET Norway" }
    /// Alerts only; a place is polled at most once per 10 minutes, longer when the answer's own lifetime says so.
    public var capabilities: ProviderCapabilities {
        .alertsPolled(atMostEvery: Self.pollingFloorSeconds, attribution: Self.attribution)
    }

    /// Norway, its waters and Svalbard: 56–82° N, 0–35° E.
    public var coverage: Coverage { .box(south: 56, west: 0, north: 82, east: 35) }

    /// Creates the provider.
    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

    /// The `User-Agent` the terms ask for: the application and the contact.
    public var userAgent: String {
        let service = configuration.service
        return service.contact.map { "\(service.application) \($0)" } ?? service.application
    }

    /// The list of warnings in force at the place: the point with at most 4 decimals.
    public func request(for request: WeatherRequest) -> HTTPRequest {
        let coordinate = request.place.coordinate.rounded
        let query = [QueryItem("lat", JSONOutput.format(coordinate.latitude)), QueryItem("lon", JSONOutput.format(coordinate.longitude))]
        return get(configuration.service.baseURL.appending(path: Self.path + "/current.rss", query: query))
    }

    /// The CAP file of the message `identifier`.
    public func capRequest(_ identifier: String) -> HTTPRequest {
        get(configuration.service.baseURL.appending(path: Self.path + "/current", query: [QueryItem("cap", identifier)]))
    }

    /// True for a CAP file's request: its answer never changes once issued.
    public func isPublishedFile(_ request: HTTPRequest) -> Bool {
        request.url.path.hasSuffix(Self.path + "/current") && request.url.query.contains { $0.name == "cap" }
    }

    /// Not set up without a contact when it goes live: it says how to give one, and where the configuration file is.
    public func unusableReason(for request: WeatherRequest?) -> ProviderError? {
        configuration.service.missingContact("MET Norway's terms ask", variable: Self.contactVariable)
    }

    /// One call for the list; CAP files are fetched once each and kept.
    public func callCost(of request: WeatherRequest) -> Double { 1 }

    /// Fetches the list, then each CAP file it names; a CAP file that is missing or cannot be read is left out with a
    /// notice, the others still count.
    public func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        if let unusable = unusableReason(for: request) { throw unusable }
        let now = context.time.now()
        let list = try await context.transport.send(self.request(for: request))
        try check(list, now: now)
        let identifiers: [String]
        do { identifiers = try METAlertsFeed.identifiers(list.body) } catch {
            throw ProviderError(.badResponse(path: "rss"), "\(displayName) sent an alert list that cannot be read: \(error.message)")
        }
        var report = WeatherReport(providerID: id, place: request.place, fetchedAt: now)
        report.caching = HTTPCaching(list, receivedAt: now)
        for identifier in identifiers {
            let response = try await context.transport.send(capRequest(identifier))
            // A file the list names but the service no longer has is left out; any other failure fails the answer (and a
            // kept one is shown instead, saying so).
            if response.status == 404 || response.status == 410 {
                report.notices.append("left out the CAP message \(identifier): \(displayName) has no such file (HTTP \(response.status))")
                continue
            }
            try check(response, now: now)
            do {
                report.alerts += try CAPMessage.alerts(response.body, source: id, language: configuration.language)
            } catch {
                report.notices.append("left out the CAP message \(identifier): \(error.message)")
            }
        }
        return report
    }

    /// The error a failure status stands for.
    private func check(_ response: HTTPResponse, now: Date) throws(ProviderError) {
        if let failure = ProviderError.forStatus(response, provider: displayName, serverMessage: nil, now: now) { throw failure }
    }

    private func get(_ url: RequestURL) -> HTTPRequest {
        HTTPRequest(url: url, headers: [HTTPHeader("User-Agent", userAgent)], origin: displayName)
    }
}
