import IsobarCore

/// A gazetteer city close to a coordinate, and how far from it.
public struct NearbyPlace: Sendable, Hashable {
    /// The city: name, country code, its own coordinate and its time zone (no admin area, no UTC offset).
    public var place: Place
    /// Great-circle distance from the coordinate asked about, in kilometres.
    public var distanceKilometres: Double
    /// Inhabitants, as GeoNames counts them.
    public var population: Int
    /// The GeoNames id, e.g. 625144 for Minsk.
    public var geonamesID: Int

    /// Creates a nearby place.
    public init(place: Place, distanceKilometres: Double, population: Int, geonamesID: Int) {
        self.place = place
        self.distanceKilometres = distanceKilometres
        self.population = population
        self.geonamesID = geonamesID
    }
}

/// Coordinates made into a place: named after a city close by, in that city's time zone.
public struct CoordinatePlace: Sendable, Hashable {
    /// Within `namingRadiusKilometres` of a city, the coordinates are called "near" it (with its country); beyond that
    /// they keep their plain name.
    public static let namingRadiusKilometres = 25.0
    /// Beyond the naming radius, the coordinates still take the time zone of the nearest city within this distance.
    public static let zoneRadiusKilometres = 300.0

    /// The place: the coordinates asked about, named `near Minsk` with `BY` and `Europe/Minsk`, or plainly.
    public var place: Place
    /// The nearest city within `zoneRadiusKilometres`, when there is one.
    public var nearest: NearbyPlace?

    /// Creates a coordinate place.
    public init(place: Place, nearest: NearbyPlace?) {
        self.place = place
        self.nearest = nearest
    }
}

extension Gazetteer {
    /// The nearest city no further than `radius` km from `coordinate`, read from the spatial index (a few cells and one
    /// line of the gazetteer, never the whole file; what was read is kept for the next lookups); nil when there is none.
    public func nearest(to coordinate: Coordinate, withinKilometres radius: Double) throws(GazetteerError) -> NearbyPlace? {
        try nearbyIndex.withLock { (kept: inout NearbyIndex?) throws(GazetteerError) -> NearbyPlace? in
            // Opened on the first lookup and kept; an index that cannot be opened is tried again on the next one.
            let index: NearbyIndex
            if let kept {
                index = kept
            } else {
                index = try NearbyIndex(indexPath: indexPath, gazetteerPath: path)
                kept = index
            }
            return try index.nearest(to: coordinate, withinKilometres: radius)
        }
    }

    /// Coordinates as a place: `near Minsk` (with Minsk's country and zone) within 25 km of a city; else `plainName`
    /// with the zone of the nearest city within 300 km, if any, and no zone beyond.
    public func place(at coordinate: Coordinate, plainName: String) throws(GazetteerError) -> CoordinatePlace {
        var place = Place(name: plainName, coordinate: coordinate)
        if let near = try nearest(to: coordinate, withinKilometres: CoordinatePlace.namingRadiusKilometres) {
            place.name = "near " + near.place.name
            place.countryCode = near.place.countryCode
            place.timeZoneIdentifier = near.place.timeZoneIdentifier
            return CoordinatePlace(place: place, nearest: near)
        }
        let far = try nearest(to: coordinate, withinKilometres: CoordinatePlace.zoneRadiusKilometres)
        place.timeZoneIdentifier = far?.place.timeZoneIdentifier
        return CoordinatePlace(place: place, nearest: far)
    }
}
