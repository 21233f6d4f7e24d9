import FoundationEssentials

/// Where a report's data came from: the network now, or a recording.
public enum DataSource: Sendable, Equatable {
    /// Fetched from the provider during this run.
    case live
    /// Replayed from a cassette recorded at the given instant.
    case replay(recordedAt: Date)
}

/// How an answer was delivered: fetched now, from the cache while fresh, or from the cache past its freshness because the provider failed.
public enum Freshness: Sendable, Equatable {
    /// Fetched during this run.
    case fresh
    /// Served from the cache within its time to live; `ageSeconds` since it was fetched.
    case cached(ageSeconds: Double)
    /// Served from the cache past its time to live because the provider could not answer (`because` says why).
    case stale(ageSeconds: Double, because: String)
}

/// One provider's normalised answer for one place.
public struct WeatherReport: Sendable, Equatable {
    /// The provider that answered.
    public var providerID: String
    /// The place asked about.
    public var place: Place
    /// Where the data came from.
    public var source: DataSource
    /// When the answer was fetched (or, for a replay, recorded).
    public var fetchedAt: Date
    /// The provider's UTC offset for the place, when it says.
    public var utcOffsetSeconds: Int?
    /// The provider's IANA zone for the place, when it says.
    public var timeZoneIdentifier: String?
    /// Current conditions.
    public var current: WeatherSample?
    /// Forecast steps in time order.
    public var hourly: [WeatherSample]
    /// Days in the place's local calendar.
    public var daily: [DailyPoint]
    /// How it was delivered.
    public var freshness: Freshness = .fresh
    /// Values left out of this answer (impossible, unknown unit, wrong type); never stored with it.
    public var warnings: [ValueWarning] = []
    /// What the provider said about this answer that a reader should know (a deprecated product version); never stored.
    public var notices: [String] = []
    /// What the provider's HTTP answers said about caching this one, when it said anything; never stored with it.
    public var caching: HTTPCaching?
    /// The answers of each source one request carried (Open-Meteo's models, one report each, ids as in
    /// `WeatherProvider.sources`); empty when the report is its provider's only source. The engine shows and merges these
    /// in its place.
    public var sourceReports: [WeatherReport] = []

    /// Creates a report.
    public init(providerID: String, place: Place, source: DataSource = .live, fetchedAt: Date,
                utcOffsetSeconds: Int? = nil, timeZoneIdentifier: String? = nil,
                current: WeatherSample? = nil, hourly: [WeatherSample] = [], daily: [DailyPoint] = []) {
        self.providerID = providerID
        self.place = place
        self.source = source
        self.fetchedAt = fetchedAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.timeZoneIdentifier = timeZoneIdentifier
        self.current = current
        self.hourly = hourly
        self.daily = daily
    }
}
