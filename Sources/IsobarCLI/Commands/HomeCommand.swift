import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarPlaces
import IsobarRender
import IsobarStore

/// `isobar home [set PLACE | unset]`, and `isobar` with no arguments.
struct HomeCommand: CommandWithActions {
    static let spec = Commands.home
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// `show` when no action is named.
    static let defaultAction = "show"

    /// Its actions.
    static let subcommands: [SubcommandSpec<HomeCommand>] = [
        SubcommandSpec("show", summary: "Your home place: now, the next hours, the next days (your first city when no home is set)") {
            try await $0.run("show")
        },
        SubcommandSpec("set", arguments: ["PLACE"], summary: "Make PLACE your home") { try await $0.run("set") },
        SubcommandSpec("unset", summary: "Forget your home; isobar then shows your first city") { try await $0.run("unset") },
    ]

    /// `unknown home action 'x'; use isobar home, isobar home set PLACE, or isobar home unset`.
    static func unknownAction(_ word: String) -> UsageError {
        UsageError("unknown home action '\(word)'; use isobar home, isobar home set PLACE, or isobar home unset")
    }

    /// Runs the command and returns its exit code.
    func run() async throws -> ExitCode { try await runAction() }

    /// Runs `action`, its arguments checked first.
    private func run(_ action: String) async throws -> ExitCode {
        let wanted = Self.subcommand(named: action)?.arguments.count ?? 0
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
                                     lines: { JSONLine.text("home_set", [("place", PlaceJSON.object(resolution.place)), ("runners_up", .array(resolution.runnersUp.map(PlaceJSON.object)))]) }), as: invocation.options.format)
            return .success
        case "unset":
            let removed = try await store.unsetHome()
            context.write(TextReport(people: { _ in removed.map { "Home unset (it was \($0.fullLabel)); isobar now shows your first city.\n" } ?? "No home was set.\n" },
                                     lines: { JSONLine.text("home_unset", [("place", removed.map(PlaceJSON.object) ?? .null)]) }), as: invocation.options.format)
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
