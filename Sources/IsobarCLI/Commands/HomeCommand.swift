import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarPlaces
import IsobarRender
import IsobarStore

/// `isobar home [set PLACE | unset]`, and `isobar` with no arguments.
struct HomeCommand: IsobarCommand {
    static let spec = Commands.home
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Runs the command and returns its exit code.
    func run() async throws -> ExitCode {
        let action = invocation.positionals.first ?? "show"
        let arguments = ["show": 0, "set": 1, "unset": 0]
        guard let wanted = arguments[action] else {
            throw UsageError("unknown home action '\(action)'; use isobar home, isobar home set PLACE, or isobar home unset")
        }
        guard invocation.positionals.count == wanted + 1 || (action == "show" && invocation.positionals.isEmpty) else {
            throw UsageError(wanted == 1 ? "'home \(action)' needs a PLACE" : "'home \(action)' takes no PLACE")
        }
        let setup = try await context.weatherSetup(invocation)
        let store = try await context.userData(setup.configuration)
        switch action {
        case "set":
            let resolution = try await context.resolvePlace(invocation.positionals[1], setup: setup, parsed: invocation)
            try await store.setHome(resolution.place, now: context.time.now())
            context.write(TextReport(people: { _ in "Home is now \(resolution.place.fullLabel).\n" },
                                     lines: { JSONLine.text("home_set", [("place", CommandContext.placeJSON(resolution.place)), ("runners_up", .array(resolution.runnersUp.map(CommandContext.placeJSON)))]) }), as: invocation.options.format)
            return .success
        case "unset":
            let removed = try await store.unsetHome()
            context.write(TextReport(people: { _ in removed.map { "Home unset (it was \($0.fullLabel)); isobar now shows your first city.\n" } ?? "No home was set.\n" },
                                     lines: { JSONLine.text("home_unset", [("place", removed.map(CommandContext.placeJSON) ?? .null)]) }), as: invocation.options.format)
            return .success
        default:
            return try await showHome(store, setup, invocation)
        }
    }

    /// The home place in full, or the first city (with a note) when none is set.
    private func showHome(_ store: UserDataStore, _ setup: WeatherSetup, _ invocation: Invocation) async throws -> ExitCode {
        let place: Place
        if let home = try await store.home() {
            place = home
        } else if let first = try await store.cities(seed: context.seedCities(), now: context.time.now()).first {
            place = first
            context.errors.write("isobar: note: no home set (isobar home set PLACE); showing your first city\n")
        } else {
            throw PlaceError("no home and no cities: isobar home set PLACE")
        }
        return await context.showWeather(.detail, Resolution(place: place, runnersUp: [], source: "home"), setup, invocation)
    }
}
