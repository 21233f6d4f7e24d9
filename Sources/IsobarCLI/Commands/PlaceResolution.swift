import FoundationEssentials
import IsobarCore
import IsobarPlaces
import IsobarStore
import OpenMeteo

extension IsobarCommandLine {
    /// The bundled places and the offline gazetteer (loaded only when a name is not among the bundled places).
    func placeResolver() throws(PlaceError) -> PlaceResolver {
        let directory = DataDirectory.locate(environment: environment)
        return PlaceResolver(bundled: try places(), gazetteer: directory.map { Gazetteer(dataDirectory: $0) })
    }

    /// Resolves what the user typed; says on stderr which place it chose when the name was ambiguous.
    /// Unknown names go to Open-Meteo's geocoding when `network` allows (cached for 30 days).
    func resolvePlace(_ text: String, network: (any Transport)?, store: @autoclosure () -> Store?,
                      geocodingURL: RequestURL? = nil, announce: Bool = true) async throws(PlaceError) -> Resolution {
        let resolver = try placeResolver()
        if let resolution = try resolver.resolveOffline(text) {
            if announce && resolution.source == "gazetteer (typo)" {
                errors.write("isobar: note: no place is called '\(text.trimmingSpaces())'; using \(resolution.place.fullLabel)\n")
            } else if announce && !resolution.runnersUp.isEmpty {
                let others = resolution.runnersUp.prefix(4).map(\.fullLabel).joined(separator: "; ")
                errors.write("isobar: note: '\(text.trimmingSpaces())' is \(resolution.place.fullLabel); also: \(others)\n")
            }
            return resolution
        }
        if let network, let found = try await geocode(text.trimmingSpaces(), transport: network, store: store(), baseURL: geocodingURL) {
            return found
        }
        let suggestions = resolver.suggestions(text).map(\.fullLabel)
        let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: " or "))?"
        throw PlaceError("unknown place '\(text.trimmingSpaces())'\(hint) (try isobar search, or give coordinates such as 53.9,27.57)")
    }

    private func geocode(_ text: String, transport: any Transport, store: Store?, baseURL: RequestURL?) async throws(PlaceError) -> Resolution? {
        let key = PlaceDirectory.fold(text)
        let now = time.now()
        if let entry = try? store?.geocoded(provider: "open-meteo", query: key), now.timeIntervalSince(entry.fetchedAt) < 30 * 86_400,
           let places = Self.decodePlaces(entry.payload) {
            return places.first.map { Resolution(place: $0, runnersUp: Array(places.dropFirst().prefix(4)), source: "open-meteo") }
        }
        do {
            let geocoder = baseURL.map(OpenMeteoGeocoder.init(baseURL:)) ?? OpenMeteoGeocoder()
            let places = try await geocoder.search(text, count: 5, transport: transport)
            try? store?.storeGeocoded(provider: "open-meteo", query: key, entry: CacheEntry(fetchedAt: now, payload: Self.encodePlaces(places)))
            return places.first.map { Resolution(place: $0, runnersUp: Array(places.dropFirst()), source: "open-meteo") }
        } catch {
            warn("geocoding '\(text)' failed: \(error.message)")
            return nil
        }
    }

    static func encodePlaces(_ places: [Place]) -> String {
        JSONOutput.array(places.map { place in
            .object([("name", .string(place.name)), ("admin_area", .string(place.adminArea)), ("country_code", .string(place.countryCode)),
                     ("latitude", .number(place.coordinate.latitude)), ("longitude", .number(place.coordinate.longitude)),
                     ("timezone", .string(place.timeZoneIdentifier))])
        }).serialized()
    }

    static func decodePlaces(_ text: String) -> [Place]? {
        guard let items = try? JSONDocument(parsing: text).rootValue.elements() else { return nil }
        return items.compactMap { item in
            guard let name = try? item.string("name"), let latitude = try? item.double("latitude"), let longitude = try? item.double("longitude"),
                  let coordinate = Coordinate(latitude: latitude, longitude: longitude) else { return nil }
            return Place(name: name, adminArea: try? item.optionalString("admin_area"), countryCode: try? item.optionalString("country_code"),
                         coordinate: coordinate, timeZoneIdentifier: try? item.optionalString("timezone"))
        }
    }
}
