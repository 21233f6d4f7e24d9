import FoundationEssentials

/// One value a source forecast in the past: what it said, when it said it, for when.
public struct PastForecast: Sendable, Equatable {
    /// The source's id (a provider, or one of its models: `open-meteo/gfs_seamless`).
    public var source: String
    /// When the forecast was issued (its run), as the service states it or as its lead time implies.
    public var issuedAt: Date
    /// The hour it was for.
    public var validAt: Date
    /// The forecast temperature, °C.
    public var temperatureC: Double

    /// Creates a past forecast.
    public init(source: String, issuedAt: Date, validAt: Date, temperatureC: Double) {
        self.source = source
        self.issuedAt = issuedAt
        self.validAt = validAt
        self.temperatureC = temperatureC
    }
}

/// A provider that publishes what its sources forecast in the past at known lead times, so that the record can learn its
/// skill for past weeks at once (`isobar learn`) instead of waiting for Isobar's own archive to fill.
public protocol PastForecasting: WeatherProvider {
    /// The most days back it can be asked for.
    var pastDaysLimit: Int { get }
    /// The request for the past `days` days of forecasts near `place`.
    func pastForecastRequest(near place: Place, days: Int) -> HTTPRequest
    /// The past forecasts in an answer to `pastForecastRequest`; errors never hold a key.
    func pastForecasts(in response: HTTPResponse, now: Date) throws(ProviderError) -> [PastForecast]
}

/// An observation source that keeps an archive of past observations, asked for one station and one range at a time.
public protocol ObservationArchive: Sendable {
    /// The station whose archive stands for `place`: the nearest in range; nil when none is.
    func archiveStation(near place: Place) throws(ProviderError) -> String?
    /// The request for every observation of `station` from `start` to `end` (whole UTC days).
    func archiveRequest(station: String, from start: Date, to end: Date) -> HTTPRequest
    /// The observations in an answer to `archiveRequest`.
    func archivedObservations(in response: HTTPResponse, now: Date) throws(ProviderError) -> [WeatherSample]
    /// How often the archive may be asked, kept in the call ledger across processes (none unless declared).
    var archiveRateLimits: [RateLimit] { get }
    /// What decides the archive's answers besides the request (its base URL), for the key its limits and answers are kept under.
    var archiveEndpoint: String { get }
}

extension ObservationArchive {
    /// No limit unless declared.
    public var archiveRateLimits: [RateLimit] { [] }
}
