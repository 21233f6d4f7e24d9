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
///
/// A value type whose fields live in one shared, copy-on-write box: passing a report along the pipeline, returning it
/// from an async step or keeping it in a result copies one reference, not the whole answer (current conditions alone
/// are a few hundred bytes); a change to a shared report copies the box first.
public struct WeatherReport: Sendable, Equatable {
    /// Every field, stored together.
    @usableFromInline
    struct Fields: Sendable, Equatable {
        @usableFromInline var providerID: String
        @usableFromInline var place: Place
        @usableFromInline var source: DataSource
        @usableFromInline var fetchedAt: Date
        @usableFromInline var utcOffsetSeconds: Int?
        @usableFromInline var timeZoneIdentifier: String?
        @usableFromInline var current: WeatherSample?
        @usableFromInline var hourly: [WeatherSample]
        @usableFromInline var daily: [DailyPoint]
        @usableFromInline var freshness: Freshness
        @usableFromInline var warnings: [ValueWarning]
        @usableFromInline var notices: [String]
        @usableFromInline var caching: HTTPCaching?
        @usableFromInline var sourceReports: [WeatherReport]
        @usableFromInline var alerts: [Alert]
    }

    /// The fields, shared between copies until one changes.
    @usableFromInline var storage: CopyOnWrite<Fields>

    /// The provider that answered.
    @inlinable
    public var providerID: String {
        _read { yield storage.fields.providerID }
        _modify { yield &storage.fields.providerID }
    }

    /// The place asked about.
    @inlinable
    public var place: Place {
        _read { yield storage.fields.place }
        _modify { yield &storage.fields.place }
    }

    /// Where the data came from.
    @inlinable
    public var source: DataSource {
        _read { yield storage.fields.source }
        _modify { yield &storage.fields.source }
    }

    /// When the answer was fetched (or, for a replay, recorded).
    @inlinable
    public var fetchedAt: Date {
        _read { yield storage.fields.fetchedAt }
        _modify { yield &storage.fields.fetchedAt }
    }

    /// The provider's UTC offset for the place, when it says.
    @inlinable
    public var utcOffsetSeconds: Int? {
        _read { yield storage.fields.utcOffsetSeconds }
        _modify { yield &storage.fields.utcOffsetSeconds }
    }

    /// The provider's IANA zone for the place, when it says.
    @inlinable
    public var timeZoneIdentifier: String? {
        _read { yield storage.fields.timeZoneIdentifier }
        _modify { yield &storage.fields.timeZoneIdentifier }
    }

    /// Current conditions.
    @inlinable
    public var current: WeatherSample? {
        _read { yield storage.fields.current }
        _modify { yield &storage.fields.current }
    }

    /// Forecast steps in time order.
    @inlinable
    public var hourly: [WeatherSample] {
        _read { yield storage.fields.hourly }
        _modify { yield &storage.fields.hourly }
    }

    /// Days in the place's local calendar.
    @inlinable
    public var daily: [DailyPoint] {
        _read { yield storage.fields.daily }
        _modify { yield &storage.fields.daily }
    }

    /// How it was delivered.
    @inlinable
    public var freshness: Freshness {
        _read { yield storage.fields.freshness }
        _modify { yield &storage.fields.freshness }
    }

    /// Values left out of this answer (impossible, unknown unit, wrong type); never stored with it.
    @inlinable
    public var warnings: [ValueWarning] {
        _read { yield storage.fields.warnings }
        _modify { yield &storage.fields.warnings }
    }

    /// What the provider said about this answer that a reader should know (a deprecated product version); never stored.
    @inlinable
    public var notices: [String] {
        _read { yield storage.fields.notices }
        _modify { yield &storage.fields.notices }
    }

    /// What the provider's HTTP answers said about caching this one, when it said anything; never stored with it.
    @inlinable
    public var caching: HTTPCaching? {
        _read { yield storage.fields.caching }
        _modify { yield &storage.fields.caching }
    }

    /// The answers of each source one request carried (Open-Meteo's models, one report each, ids as in
    /// `WeatherProvider.sources`); empty when the report is its provider's only source. The engine shows and merges these
    /// in its place.
    @inlinable
    public var sourceReports: [WeatherReport] {
        _read { yield storage.fields.sourceReports }
        _modify { yield &storage.fields.sourceReports }
    }

    /// The warnings its source sent (CAP messages: alerts, updates and cancels, not yet merged); empty for weather sources.
    @inlinable
    public var alerts: [Alert] {
        _read { yield storage.fields.alerts }
        _modify { yield &storage.fields.alerts }
    }

    /// Creates a report.
    public init(providerID: String, place: Place, source: DataSource = .live, fetchedAt: Date,
                utcOffsetSeconds: Int? = nil, timeZoneIdentifier: String? = nil,
                current: WeatherSample? = nil, hourly: [WeatherSample] = [], daily: [DailyPoint] = []) {
        storage = CopyOnWrite(Fields(providerID: providerID, place: place, source: source, fetchedAt: fetchedAt, utcOffsetSeconds: utcOffsetSeconds,
                         timeZoneIdentifier: timeZoneIdentifier, current: current, hourly: hourly, daily: daily, freshness: .fresh,
                         warnings: [], notices: [], caching: nil, sourceReports: [], alerts: []))
    }

    /// Equal when every field is equal (at once when both share one box).
    public static func == (lhs: WeatherReport, rhs: WeatherReport) -> Bool {
        lhs.storage.sharesBox(with: rhs.storage) || lhs.storage.fields == rhs.storage.fields
    }
}
