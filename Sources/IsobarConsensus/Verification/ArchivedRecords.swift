import FoundationEssentials
import IsobarCore

/// One forecast step as archived: who forecast what for where, when it was issued and for when.
public struct ArchivedStep: Sendable, Equatable {
    /// The provider's id.
    public var provider: String
    /// The place's latitude, rounded to 0.01° (about a kilometre).
    public var latitude: Double
    /// The place's longitude, rounded to 0.01°.
    public var longitude: Double
    /// When the forecast was fetched, to the hour below.
    public var issuedAt: Date
    /// The instant the values describe.
    public var validAt: Date
    /// Hours the step's accumulated values cover.
    public var periodHours: Double
    /// The condition's id, when given.
    public var condition: String?
    /// Values by quantity (`temperature`, `wind_speed`…), in the model's units.
    public var values: [String: Double]

    /// Hours from issue to the valid time.
    public var leadHours: Double { validAt.timeIntervalSince(issuedAt) / 3_600 }

    /// Creates a step (as read back from an export).
    public init(provider: String, latitude: Double, longitude: Double, issuedAt: Date, validAt: Date, periodHours: Double,
                condition: String?, values: [String: Double]) {
        self.provider = provider
        self.latitude = latitude
        self.longitude = longitude
        self.issuedAt = issuedAt
        self.validAt = validAt
        self.periodHours = periodHours
        self.condition = condition
        self.values = values
    }
}

/// One observation as archived.
public struct ArchivedObservation: Sendable, Equatable {
    /// The observation source's id, e.g. `metar`.
    public var source: String
    /// The station, e.g. `UMMS`; for a provider's "current" standing in for an observation, the provider's id.
    public var station: String
    /// The place's latitude, rounded to 0.01°.
    public var latitude: Double
    /// The place's longitude, rounded to 0.01°.
    public var longitude: Double
    /// When it was observed.
    public var observedAt: Date
    /// The condition's id, when given.
    public var condition: String?
    /// Values by quantity, in the model's units.
    public var values: [String: Double]

    /// Creates an observation (as read back from an export).
    public init(source: String, station: String, latitude: Double, longitude: Double, observedAt: Date, condition: String?,
                values: [String: Double]) {
        self.source = source
        self.station = station
        self.latitude = latitude
        self.longitude = longitude
        self.observedAt = observedAt
        self.condition = condition
        self.values = values
    }

    /// The source id of a provider's "current" values archived as a labelled proxy (the station is the provider's id).
    public static let proxySource = "proxy"
}

