import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarPlaces
import IsobarStore

extension IsobarCommandLine {
    /// The store that keeps favourites and home: opened even when every provider replays.
    func placesStore(_ setup: WeatherSetup, _ parsed: Invocation) async throws -> Store {
        if let store = setup.store { return store }
        guard let store = await openStore(parsed, setup.configuration) else {
            throw ConfigurationError("no store for your cities: set XDG_CACHE_HOME or HOME, or pass --cache-dir")
        }
        return store
    }

    /// The first run's cities, from the bundled places; without the bundled data, a configuration error saying where it was looked for
    /// (so a misplaced binary never uses up the one-time seeding).
    func seedCities() throws(ConfigurationError) -> [Place] {
        guard DataDirectory.locate(environment: environment) != nil else {
            throw ConfigurationError(DataDirectory.notFoundMessage(environment: environment))
        }
        guard let bundled = try? places() else { return [] }
        return ["Minsk", "Moscow"].compactMap { bundled.lookup($0) }
    }

    /// A place as written in JSON lines and in the store's settings.
    static func placeJSON(_ place: Place) -> JSONOutput {
        .object([("name", .string(place.name)), ("admin_area", .string(place.adminArea)), ("country_code", .string(place.countryCode)),
                 ("latitude", .number(place.coordinate.latitude)), ("longitude", .number(place.coordinate.longitude)),
                 ("timezone", .string(place.timeZoneIdentifier))])
    }
}
