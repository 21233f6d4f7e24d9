import FoundationEssentials
import IsobarCore
import IsobarPlaces

/// A resolved place, with the others the text could have meant.
public struct Resolution: Sendable {
    /// The place chosen.
    public var place: Place
    /// Other places with an equally good name match, best first.
    public var runnersUp: [Place]
    /// Where it was found: `coordinates`, `bundled`, `gazetteer` or a geocoding provider's id.
    public var source: String
}

/// Turns what a user typed into a place: coordinates, the bundled places, then the offline gazetteer, then (when allowed) geocoding.
struct PlaceResolver {
    /// The bundled places, read only when a name is looked up.
    let bundled: BundledPlaces
    let gazetteer: Gazetteer?
    /// Told why coordinates could not be named (a missing or damaged spatial index); they still resolve.
    var warn: @Sendable (String) -> Void = { _ in }

    /// Resolves `text` offline; nil result means no match anywhere offline (the caller may try geocoding).
    func resolveOffline(_ text: String) throws(PlaceError) -> Resolution? {
        let trimmed = try PlaceDirectory.validate(text)
        if let coordinate = try PlaceDirectory.coordinate(trimmed) {
            return Resolution(place: name(coordinate).place, runnersUp: [], source: "coordinates")
        }
        let bundledPlaces = try bundled.directory()
        if let place = bundledPlaces.lookup(trimmed) {
            return Resolution(place: place, runnersUp: [], source: "bundled")
        }
        guard let gazetteer else { return nil }
        let matches = try search(gazetteer, trimmed, limit: 6)
        guard let best = matches.first else { return nil }
        let equallyGood = matches.dropFirst().filter { $0.kind == best.kind && best.kind <= .exactAlternate }
        return Resolution(place: preferBundled(best.place, bundledPlaces), runnersUp: equallyGood.map(\.place),
                          source: best.kind == .typo ? "gazetteer (typo)" : "gazetteer")
    }

    /// Coordinates named after the nearest city within 25 km (`near Minsk`, in its country and zone), else plainly
    /// (`53.9,27.57`) with the zone of the nearest city within 300 km, if any. Reads a few cells of the spatial index
    /// and one gazetteer line; a missing or damaged index leaves the plain name and no zone, with a warning.
    func name(_ coordinate: Coordinate) -> CoordinatePlace {
        let plain = "\(JSONOutput.format(coordinate.latitude)),\(JSONOutput.format(coordinate.longitude))"
        guard let gazetteer else { return CoordinatePlace(place: Place(name: plain, coordinate: coordinate), nearest: nil) }
        do {
            return try gazetteer.place(at: coordinate, plainName: plain)
        } catch {
            warn("coordinates are not named: \(error.message)")
            return CoordinatePlace(place: Place(name: plain, coordinate: coordinate), nearest: nil)
        }
    }

    /// The bundled entry for the same city (within about a kilometre), which carries its admin area and matches the recordings.
    private func preferBundled(_ place: Place, _ bundled: PlaceDirectory) -> Place {
        bundled.places.first {
            abs($0.coordinate.latitude - place.coordinate.latitude) < 0.01 && abs($0.coordinate.longitude - place.coordinate.longitude) < 0.01
        } ?? place
    }

    /// Up to `limit` matches for a search, best first (an empty list when nothing matches).
    func search(_ text: String, limit: Int) throws(PlaceError) -> [PlaceMatch] {
        let trimmed = try PlaceDirectory.validate(text)
        guard let gazetteer else { return [] }
        return try search(gazetteer, trimmed, limit: limit)
    }

    private func search(_ gazetteer: Gazetteer, _ text: String, limit: Int) throws(PlaceError) -> [PlaceMatch] {
        do {
            return try gazetteer.search(text, limit: limit)
        } catch {
            switch error.code {
            case .notFound: return []
            case .invalidQuery, .invalidCoordinate: throw PlaceError(error.message)
            default: throw PlaceError("the gazetteer cannot be used: \(error.message)")
            }
        }
    }

    /// Suggestions for an unknown name: close spellings from the gazetteer.
    func suggestions(_ text: String) -> [Place] {
        guard let gazetteer, let matches = try? gazetteer.search(text, limit: 3) else { return [] }
        return matches.map(\.place)
    }
}
