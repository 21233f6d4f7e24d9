import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarPlaces
import IsobarStore

extension IsobarCommandLine {
    /// `isobar home [set PLACE]`, and `isobar` with no arguments.
    func runHome(_ parsed: Invocation) async throws -> ExitCode {
        let action = parsed.positionals.first ?? "show"
        guard Commands.home.actions.contains(action) else {
            throw UsageError("unknown home action '\(action)'; use isobar home, or isobar home set PLACE")
        }
        let setup = try await weatherSetup(parsed)
        let store = try await placesStore(setup, parsed)
        if action == "set" {
            guard parsed.positionals.count == 2 else { throw UsageError("'home set' needs a PLACE") }
            let resolution = try await resolvePlace(parsed.positionals[1], setup: setup, parsed: parsed)
            try await store.setSetting("home", Self.encodePlaces([resolution.place]))
            output.write(parsed.options.format == .jsonl
                ? line("home_set", [("place", Self.placeJSON(resolution.place))])
                : "Home is now \(resolution.place.fullLabel).\n")
            return .success
        }
        let home = try await store.setting("home").flatMap { Self.decodePlaces($0) }?.first
        let place: Place
        if let home {
            place = home
        } else if let first = try await store.favourites(seed: seedCities(), now: time.now()).first {
            place = first
            errors.write("isobar: note: no home set (isobar home set PLACE); showing your first city\n")
        } else {
            throw PlaceError("no home and no cities: isobar home set PLACE")
        }
        return await showWeather(.detail, Resolution(place: place, runnersUp: [], source: "home"), setup, parsed)
    }
}
