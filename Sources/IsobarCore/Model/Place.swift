/// A point on Earth in decimal degrees (WGS 84).
public struct Coordinate: Sendable, Hashable {
    /// Degrees north, −90…90.
    public var latitude: Double
    /// Degrees east, −180…180.
    public var longitude: Double

    /// A coordinate, or nil when either value is out of range or not finite.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The coordinate rounded to 4 decimals (about 11 m), as sent to providers.
    public var rounded: Coordinate {
        func round4(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
        return Coordinate(latitude: round4(latitude), longitude: round4(longitude))!
    }
}

/// A named place with its location and time zone.
public struct Place: Sendable, Hashable {
    /// Display name, e.g. `Minsk`.
    public var name: String
    /// First-level administrative area, e.g. `Minsk City`, when known.
    public var adminArea: String?
    /// ISO 3166-1 alpha-2 country code, when known.
    public var countryCode: String?
    /// Where it is.
    public var coordinate: Coordinate
    /// Offset from UTC in seconds, when known.
    public var utcOffsetSeconds: Int?
    /// IANA time zone name, e.g. `Europe/Minsk`, when known.
    public var timeZoneIdentifier: String?

    /// Creates a place.
    public init(name: String, adminArea: String? = nil, countryCode: String? = nil, coordinate: Coordinate,
                utcOffsetSeconds: Int? = nil, timeZoneIdentifier: String? = nil) {
        self.name = name
        self.adminArea = adminArea
        self.countryCode = countryCode
        self.coordinate = coordinate
        self.utcOffsetSeconds = utcOffsetSeconds
        self.timeZoneIdentifier = timeZoneIdentifier
    }

    /// `Minsk, BY` style label.
    public var label: String { [name, countryCode].compactMap { $0 }.joined(separator: ", ") }
}
