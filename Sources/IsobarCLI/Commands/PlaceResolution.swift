import FoundationEssentials
import IsobarCore
import IsobarPlaces
import IsobarRender
import IsobarStore
import IsobarEngine

extension CommandContext {
    /// The bundled places (read when a name is looked up) and the offline gazetteer (loaded only when a name is not among
    /// the bundled places, or coordinates are named).
    func placeResolver() throws(PlaceError) -> PlaceResolver {
        let directory = DataDirectory.locate(environment: environment)
        let errors = errors
        let bundled = BundledPlaces { [self] () throws(PlaceError) -> PlaceDirectory in try places() }
        return PlaceResolver(bundled: bundled, gazetteer: directory.map { Gazetteer(dataDirectory: $0) },
                             warn: { errors.write("isobar: warning: \($0)\n") })
    }

    /// Names countries for sentences (`BY` → `Belarus`) from the gazetteer, read once on the first call; a code the
    /// gazetteer does not list, or a gazetteer that cannot be read, leaves the code (nil for no code).
    func countryNames() -> (String?) -> String? {
        let gazetteer = DataDirectory.locate(environment: environment).map { Gazetteer(dataDirectory: $0) }
        return { code in
            guard let code, let gazetteer else { return code }
            do {
                return try gazetteer.countryName(of: code) ?? code
            } catch {
                // Only the wording is at stake: the sentence says the code instead.
                return code
            }
        }
    }

    /// Resolves what the user typed for a weather command; unknown names go to the configured geocoders when the network is allowed.
    func resolvePlace(_ text: String, setup: WeatherSetup, parsed: Invocation, announce: Bool = true) async throws -> Resolution {
        try await resolvePlace(text, geocoding: geocodingChain(setup, parsed), network: networkTransport(setup, parsed), announce: announce)
    }

    /// Resolves what the user typed; says on stderr which place it chose when the name was ambiguous.
    /// Unknown names go to `geocoding` when `network` allows (answers cached for 30 days); the chain is made only then. A name
    /// with no bundled data to look in is a configuration error saying where the data was looked for.
    func resolvePlace(_ text: String, geocoding: @autoclosure () -> GeocodingChain, network: (any Transport)?,
                      announce: Bool = true) async throws -> Resolution {
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
        guard resolver.gazetteer != nil else { throw ConfigurationError(DataDirectory.notFoundMessage(environment: environment)) }
        let name = text.trimmingSpaces()
        if let network, let found = await geocoding().resolve(name, query: PlaceDirectory.fold(name), context: FetchContext(transport: network, time: time),
                                                           warn: { [errors] in errors.write("isobar: warning: \($0)\n") }) {
            return Resolution(place: found.place, runnersUp: found.runnersUp, source: found.source)
        }
        let suggestions = resolver.suggestions(text).map(\.fullLabel)
        let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: " or "))?"
        throw PlaceError("unknown place '\(name)'\(hint) (try isobar search, or give coordinates such as 53.9,27.57)")
    }

    /// The configured providers' geocoders, answers cached in the store.
    func geocodingChain(_ setup: WeatherSetup, _ parsed: Invocation) -> GeocodingChain {
        let network = networkTransport(setup, parsed) ?? NoNetworkTransport()
        // A provider's geocoding requests count in its rate-limit windows, as its weather calls do.
        let (store, bindings, diagnostics, wait) = (setup.store, setup.bindings, setup.diagnostics, setup.options.timeoutSeconds)
        let limited = { @Sendable [time] (entry: ProviderEntry, transport: any Transport) -> any Transport in
            guard let store, let binding = bindings.first(where: { $0.provider.id == entry.id }) else { return transport }
            return LedgerTransport(base: transport, binding: binding, ledger: store, time: time, diagnostics: diagnostics, waitSeconds: wait)
        }
        return GeocodingChain(geocoders: registry.geocoders(for: setup.configuration, environment: environment, transport: network, time: time,
                                                            wrap: limited),
                              cache: setup.store.map(StoreGeocodingCache.init), diagnostics: setup.diagnostics)
    }

}

/// Geocoding answers in the store, encoded as the places list of the home setting.
struct StoreGeocodingCache: GeocodingCache {
    let store: Store

    func places(geocoder: String, query: String) async throws(StorageError) -> (fetchedAt: Date, places: [Place])? {
        do {
            guard let entry = try await store.geocoded(provider: geocoder, query: query),
                  let places = PlaceJSON.places(entry.payload) else { return nil }
            return (entry.fetchedAt, places)
        } catch {
            throw StorageError(error.message)
        }
    }

    func store(_ places: [Place], geocoder: String, query: String, fetchedAt: Date) async throws(StorageError) {
        do {
            try await store.storeGeocoded(provider: geocoder, query: query,
                                          entry: CacheEntry(fetchedAt: fetchedAt, payload: PlaceJSON.array(places)))
        } catch {
            throw StorageError(error.message)
        }
    }
}
