import FoundationEssentials
import IsobarCore

/// What actually happened: the latest METAR report of the nearest reporting station, from the US Aviation Weather
/// Center's data API (worldwide, no key, 100 requests a minute). An observation source for checking forecasts, never a
/// forecast voice: it answers current conditions only.
public struct METARProvider: WeatherProvider {
    /// How to reach the service and which station to take.
    public struct Configuration: Sendable {
        /// Provider id shown in output.
        public var id: String
        /// Base URL, `https://aviationweather.gov` unless pointed elsewhere.
        public var baseURL: RequestURL
        /// The stations to choose from, read the first time a station is wanted (an answer from the cache needs none).
        public var stations: @Sendable () throws(METARStationsError) -> METARStations
        /// How far from the place a station may be, in kilometres.
        public var maxDistanceKilometres: Double = 50
        /// How many of the nearest stations are asked at once, so that one without a recent report falls back to the next.
        public var candidates = 5
        /// How old a report may be and still stand for now, in seconds.
        public var maxAgeSeconds: Double = 3 * 3_600
        /// Where past reports are asked (`isobar learn`): the IEM ASOS archive unless the entry's `archive_url` says otherwise.
        public var archiveURL = METARProvider.archiveURL

        /// Creates a configuration choosing among `stations`.
        public init(id: String = "metar", baseURL: RequestURL = RequestURL(string: "https://aviationweather.gov")!, stations: METARStations) {
            self.init(id: id, baseURL: baseURL, stations: { stations })
        }

        /// Creates a configuration whose stations come from `stations` when first wanted.
        public init(id: String = "metar", baseURL: RequestURL = RequestURL(string: "https://aviationweather.gov")!,
                    stations: @escaping @Sendable () throws(METARStationsError) -> METARStations) {
            self.id = id
            self.baseURL = baseURL
            self.stations = stations
        }
    }

    /// The credit shown with its data (US Government work, public domain).
    public static let attribution = "NOAA Aviation Weather Center (public domain)"

    /// The configuration in use.
    public let configuration: Configuration
    /// Stable identifier.
    public var id: String { configuration.id }
    /// Name for people.
    public var displayName: String { "METAR" }
    /// Current conditions only: what a station observed.
    public var capabilities: ProviderCapabilities {
        ProviderCapabilities(
            kinds: [.current], horizonDays: 0, stepHours: 1,
            quantities: [.temperature, .humidity, .pressure, .windSpeed, .windGust, .windDirection, .cloudCover, .visibility],
            requiresAPIKey: false, geocoding: false, rateLimits: [RateLimit(limit: 100, perSeconds: 60)],
            freshFor: (current: 1_800, forecast: 3_600), attribution: Self.attribution)
    }

    /// Creates the provider.
    public init(configuration: Configuration) { self.configuration = configuration }

    /// The stations a fetch for `place` asks about, nearest first; a station list that cannot be read is `not_configured`.
    public func candidates(for place: Place) throws(ProviderError) -> [(station: METARStation, kilometres: Double)] {
        let stations: METARStations
        do { stations = try configuration.stations() } catch { throw ProviderError(.notConfigured, error.description) }
        return stations.nearest(latitude: place.coordinate.latitude, longitude: place.coordinate.longitude,
                                withinKilometres: configuration.maxDistanceKilometres, limit: configuration.candidates)
    }

    /// The one request a fetch sends: the last three hours of reports of every candidate station.
    public func request(stations: [METARStation]) -> HTTPRequest {
        let query = [QueryItem("ids", stations.map(\.icao).joined(separator: ",")), QueryItem("format", "json"), QueryItem("hours", "3")]
        return HTTPRequest(url: configuration.baseURL.appending(path: "/api/data/metar", query: query), origin: displayName)
    }

    /// The station a report of this provider was observed at (from the notice it carries).
    public static func station(of report: WeatherReport) -> String? {
        report.notices.first { $0.hasPrefix(stationNoticePrefix) }?.dropFirst(stationNoticePrefix.count).split(separator: " ").first.map(String.init)
    }

    private static let stationNoticePrefix = "observed at "

    /// Asks for the candidates' reports and keeps the latest recent one of the nearest station that has one.
    public func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        let place = request.place
        let candidates = try candidates(for: place)
        let radius = Int(configuration.maxDistanceKilometres)
        guard !candidates.isEmpty else {
            throw ProviderError(.notFound, "no METAR station within \(radius) km of \(place.name)")
        }
        let now = context.time.now()
        let response = try await context.transport.send(self.request(stations: candidates.map(\.station)))
        let decoded = try METARDecoder(providerName: displayName).decode(response, now: now)
        let recent = decoded.observations.filter {
            $0.time >= now.addingTimeInterval(-configuration.maxAgeSeconds) && $0.time <= now.addingTimeInterval(600)
        }
        for (station, kilometres) in candidates {
            guard let latest = recent.filter({ $0.station == station.icao }).max(by: { $0.time < $1.time }) else { continue }
            var report = WeatherReport(providerID: id, place: place, fetchedAt: now, current: latest.sample, hourly: [])
            report.warnings = decoded.warnings
            report.notices.append("\(Self.stationNoticePrefix)\(station.icao) (\(station.name)), \(Int(kilometres.rounded())) km away: \(latest.raw)")
            return report
        }
        let names = candidates.map(\.station.icao).joined(separator: ", ")
        let hours = Int((configuration.maxAgeSeconds / 3_600).rounded())
        throw ProviderError(.notFound, "none of the METAR stations within \(radius) km of \(place.name) (\(names)) reported in the last \(hours) h")
    }
}
