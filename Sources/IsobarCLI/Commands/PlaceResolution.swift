import FoundationEssentials
import IsobarCore
import IsobarPlaces
import IsobarStore
import OpenMeteo
import OpenWeatherMap

extension IsobarCommandLine {
    /// The bundled places and the offline gazetteer (loaded only when a name is not among the bundled places).
    func placeResolver() throws(PlaceError) -> PlaceResolver {
        let directory = DataDirectory.locate(environment: environment)
        return PlaceResolver(bundled: try places(), gazetteer: directory.map { Gazetteer(dataDirectory: $0) })
    }

    /// Resolves what the user typed; says on stderr which place it chose when the name was ambiguous.
    /// Unknown names go to the geocoding services when `network` allows (answers cached for 30 days).
    func resolvePlace(_ text: String, network: (any Transport)?, store: @autoclosure () -> Store?,
                      geocoders: [Geocoder] = [], announce: Bool = true) async throws(PlaceError) -> Resolution {
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
        if let network, let found = await geocode(text.trimmingSpaces(), transport: network, store: store(), geocoders: geocoders) {
            return found
        }
        let suggestions = resolver.suggestions(text).map(\.fullLabel)
        let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: " or "))?"
        throw PlaceError("unknown place '\(text.trimmingSpaces())'\(hint) (try isobar search, or give coordinates such as 53.9,27.57)")
    }

    /// A geocoding service the command may ask: its id for the cache, and how to search.
    struct Geocoder: Sendable {
        let id: String
        let search: @Sendable (String, any Transport) async throws(ProviderError) -> [Place]
    }

    /// Open-Meteo's geocoding, then OpenWeatherMap's when a key is configured for it.
    func geocoders(_ configuration: Configuration) -> [Geocoder] {
        let meteoURL = configuration.providers.first { $0.type == "open-meteo" && $0.geocodingURL != nil }?.geocodingURL
        var result = [Geocoder(id: "open-meteo") { name, transport throws(ProviderError) in
            let geocoder = meteoURL.map(OpenMeteoGeocoder.init(baseURL:)) ?? OpenMeteoGeocoder()
            return try await geocoder.search(name, count: 5, transport: transport)
        }]
        if let entry = configuration.providers.first(where: { $0.type == "openweathermap" && $0.enabled && $0.replay == nil }),
           let key = entry.resolvedKey(environment) {
            let url = entry.geocodingURL ?? entry.baseURL ?? RequestURL(string: "https://api.openweathermap.org")!
            result.append(Geocoder(id: "openweathermap") { name, transport throws(ProviderError) in
                try await OpenWeatherMapGeocoder(baseURL: url, apiKey: key).search(name, limit: 5, transport: transport)
            })
        }
        return result
    }

    private func geocode(_ text: String, transport: any Transport, store: Store?, geocoders: [Geocoder]) async -> Resolution? {
        let key = PlaceDirectory.fold(text)
        let now = time.now()
        for geocoder in geocoders {
            if let entry = try? store?.geocoded(provider: geocoder.id, query: key), now.timeIntervalSince(entry.fetchedAt) < 30 * 86_400,
               let places = Self.decodePlaces(entry.payload) {
                if let first = places.first { return Resolution(place: first, runnersUp: Array(places.dropFirst().prefix(4)), source: geocoder.id) }
                continue
            }
            do {
                let places = try await geocoder.search(text, transport)
                try? store?.storeGeocoded(provider: geocoder.id, query: key, entry: CacheEntry(fetchedAt: now, payload: Self.encodePlaces(places)))
                if let first = places.first { return Resolution(place: first, runnersUp: Array(places.dropFirst()), source: geocoder.id) }
            } catch {
                warn("geocoding '\(text)' with \(geocoder.id) failed: \(error.message)")
            }
        }
        return nil
    }

    static func encodePlaces(_ places: [Place]) -> String {
        JSONOutput.array(places.map(placeJSON)).serialized()
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
