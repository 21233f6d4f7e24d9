import FoundationEssentials
import IsobarCore

/// MeteoAlarm (EUMETNET): the warnings of Europe's national weather services, one feed per country. Its Atom feed
/// (`/feeds/meteoalarm-legacy-atom-COUNTRY`) lists the warnings in force; each links one CAP 1.2 file
/// (`/api/v1/warnings/feeds-COUNTRY/UUID`), fetched once and kept (see `PublishedFiles`). The feed is the whole country's: a
/// warning is the place's only when `MeteoAlarmPlacing` can tell; the others are counted in a note that says how to place
/// them. No key and no contact.
public struct MeteoAlarmProvider: WeatherProvider, PublishedFiles {
    /// How to reach MeteoAlarm and what to read.
    public struct Configuration: Sendable {
        /// Provider id shown in output.
        public var id: String
        /// Base URL, MeteoAlarm's feeds host unless pointed elsewhere.
        public var baseURL: RequestURL
        /// The application named in the `User-Agent`, e.g. `isobar/0.1.0`.
        public var application: String
        /// The country, and the area codes configured for places.
        public var options: MeteoAlarmOptions
        /// The language the warnings' text is wanted in (a feed carries the issuer's languages, often English among them).
        public var language: AlertLanguage

        /// Creates a configuration.
        public init(id: String = "meteoalarm", baseURL: RequestURL = MeteoAlarmProvider.defaultBaseURL, application: String = "isobar",
                    options: MeteoAlarmOptions, language: AlertLanguage = AlertLanguage(wanted: nil)) {
            self.id = id
            self.baseURL = baseURL
            self.application = application
            self.options = options
            self.language = language
        }
    }

    /// MeteoAlarm's feeds host.
    public static let defaultBaseURL = RequestURL(string: "https://feeds.meteoalarm.org")!
    /// The credit shown with its warnings.
    public static let attribution = "MeteoAlarm (EUMETNET), the national weather services' warnings"
    /// Isobar's own floor: the feed is a whole country's, asked for a place at most once per 5 minutes.
    public static let pollingFloorSeconds = 300.0

    /// The configuration in use.
    public let configuration: Configuration
    /// Stable identifier.
    public var id: String { configuration.id }
    /// Name for people.
    public var displayName: String { "MeteoAlarm" }
    /// Alerts only; a place is polled at most once per 5 minutes, longer when the answer's own lifetime says so.
    public var capabilities: ProviderCapabilities {
        .alertsPolled(atMostEvery: Self.pollingFloorSeconds, attribution: Self.attribution)
    }

    /// Europe, Israel and Turkey, the box around MeteoAlarm's members (the country decides, see `covers`).
    public var coverage: Coverage { .box(south: 27, west: -32, north: 72, east: 45) }

    /// Creates the provider.
    public init(configuration: Configuration) { self.configuration = configuration }

    /// A place in the configured country; a place whose country is not known is asked when inside `coverage` (a polygon or a
    /// configured code can still place a warning there).
    public func covers(_ place: Place) -> Bool {
        guard coverage.contains(place.coordinate) else { return false }
        guard let code = place.countryCode, !code.isEmpty else { return true }
        return code.uppercased() == configuration.options.country.code
    }

    /// The `User-Agent`: the application.
    public var userAgent: String { configuration.application }

    /// The country's Atom feed.
    public func request(for request: WeatherRequest) -> HTTPRequest {
        get("/feeds/meteoalarm-legacy-atom-" + configuration.options.country.feed)
    }

    /// The CAP file named `file` in the country's feed.
    public func capRequest(_ file: String) -> HTTPRequest {
        get("/api/v1/warnings/feeds-\(configuration.options.country.feed)/\(file)")
    }

    /// True for a CAP file's request: its answer never changes once published.
    public func isPublishedFile(_ request: HTTPRequest) -> Bool { request.url.path.contains("/api/v1/warnings/feeds-") }

    /// Fetches the feed, then each CAP file it links, and keeps the warnings placed at the place; a CAP file that is
    /// missing or cannot be read is left out with a notice, the others still count.
    public func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        let place = request.place
        guard covers(place) else {
            throw ProviderError(.unsupported, "\(displayName) reads \(configuration.options.country.name) only; \(place.label) is not in it",
                                reason: .outsideCoverage)
        }
        let now = context.time.now()
        let list = try await context.transport.send(self.request(for: request))
        try check(list, now: now)
        let feed: MeteoAlarmFeed
        do { feed = try MeteoAlarmFeed(list.body) } catch {
            throw ProviderError(.badResponse(path: "atom"), "\(displayName) sent a warning feed that cannot be read: \(error.message)")
        }
        var report = WeatherReport(providerID: id, place: place, fetchedAt: now)
        report.caching = HTTPCaching(list, receivedAt: now)
        let placing = MeteoAlarmPlacing(place: place, codes: configuration.options.codes(for: place))
        var sorting = MeteoAlarmSorting(placing: placing)
        for file in feed.files {
            let response = try await context.transport.send(capRequest(file))
            // A file the feed links but the host no longer has is left out; any other failure fails the answer (and a kept
            // one is shown instead, saying so).
            if response.status == 404 || response.status == 410 {
                report.notices.append("left out the CAP file \(file): \(displayName) has no such file (HTTP \(response.status))")
                continue
            }
            try check(response, now: now)
            do { try sorting.add(response.body, source: id, language: configuration.language) } catch {
                report.notices.append("left out the CAP file \(file): \(error.message)")
            }
        }
        report.alerts = sorting.placed
        if let note = sorting.unplacedNote(asOf: feed.updated ?? now, country: configuration.options.country, place: place) {
            report.notices.append(note)
        }
        return report
    }

    /// The error a failure status stands for.
    private func check(_ response: HTTPResponse, now: Date) throws(ProviderError) {
        if let failure = ProviderError.forStatus(response, provider: displayName, serverMessage: nil, now: now) { throw failure }
    }

    private func get(_ path: String) -> HTTPRequest {
        HTTPRequest(url: configuration.baseURL.appending(path: path, query: []), headers: [HTTPHeader("User-Agent", userAgent)], origin: displayName)
    }
}
