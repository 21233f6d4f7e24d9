import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarPlaces
import IsobarRender
import IsobarStore

extension IsobarCommandLine {
    /// `isobar home [set PLACE | unset]`, and `isobar` with no arguments.
    func runHome(_ parsed: Invocation) async throws -> ExitCode {
        let action = parsed.positionals.first ?? "show"
        let arguments = ["show": 0, "set": 1, "unset": 0]
        guard let wanted = arguments[action] else {
            throw UsageError("unknown home action '\(action)'; use isobar home, isobar home set PLACE, or isobar home unset")
        }
        guard parsed.positionals.count == wanted + 1 || (action == "show" && parsed.positionals.isEmpty) else {
            throw UsageError(wanted == 1 ? "'home \(action)' needs a PLACE" : "'home \(action)' takes no PLACE")
        }
        let setup = try await weatherSetup(parsed)
        let store = try await userData(setup.configuration)
        switch action {
        case "set":
            let resolution = try await resolvePlace(parsed.positionals[1], setup: setup, parsed: parsed)
            try await store.setHome(resolution.place, now: time.now())
            output.write(parsed.options.format == .jsonl
                ? line("home_set", [("place", Self.placeJSON(resolution.place)), ("runners_up", .array(resolution.runnersUp.map(Self.placeJSON)))])
                : "Home is now \(resolution.place.fullLabel).\n")
            return .success
        case "unset":
            let removed = try await store.unsetHome()
            if parsed.options.format == .jsonl {
                output.write(line("home_unset", [("place", removed.map(Self.placeJSON) ?? .null)]))
            } else {
                output.write(removed.map { "Home unset (it was \($0.fullLabel)); isobar now shows your first city.\n" } ?? "No home was set.\n")
            }
            return .success
        default:
            return try await showHome(store, setup, parsed)
        }
    }

    /// The home place in full, or the first city (with a note) when none is set.
    private func showHome(_ store: UserDataStore, _ setup: WeatherSetup, _ parsed: Invocation) async throws -> ExitCode {
        let place: Place
        if let home = try await store.home() {
            place = home
        } else if let first = try await store.cities(seed: seedCities(), now: time.now()).first {
            place = first
            errors.write("isobar: note: no home set (isobar home set PLACE); showing your first city\n")
        } else {
            throw PlaceError("no home and no cities: isobar home set PLACE")
        }
        return await showWeather(.detail, Resolution(place: place, runnersUp: [], source: "home"), setup, parsed)
    }
}
