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

    /// Its actions, each a type of its own.
    static let subcommands: [SubcommandSpec<HomeCommand>] = [
        SubcommandSpec("show", summary: "Your home place: now, the next hours, the next days (your first city when no home is set)",
                       runs: HomeShowCommand.self),
        SubcommandSpec("set", arguments: ["PLACE"], summary: "Make PLACE your home", runs: HomeSetCommand.self),
        SubcommandSpec("unset", summary: "Forget your home; isobar then shows your first city", runs: HomeUnsetCommand.self),
    ]

    /// `unknown home action 'x'; use isobar home, isobar home set PLACE, or isobar home unset`.
    static func unknownAction(_ word: String) -> UsageError {
        UsageError("unknown home action '\(word)'; use isobar home, isobar home set PLACE, or isobar home unset")
    }

    /// Runs the command and returns its exit code.
    func run() async throws -> ExitCode { try await runAction() }
}

/// What every `home` action starts from: its arguments checked, the weather setup and the user's data.
struct HomeAccess {
    /// The providers, store and options.
    let setup: WeatherSetup
    /// The user's data, which holds the home.
    let store: UserDataStore

    /// Checks the arguments after the action `named` against its spec (the default action may be left unnamed), then opens
    /// what every action works on.
    static func open(_ context: CommandContext, _ invocation: Invocation, for named: String) async throws -> HomeAccess {
        let wanted = HomeCommand.subcommand(named: named)?.arguments.count ?? 0
        guard invocation.positionals.count == wanted + 1 || (named == HomeCommand.defaultAction && invocation.positionals.isEmpty) else {
            throw UsageError(wanted == 1 ? "'home \(named)' needs a PLACE" : "'home \(named)' takes no PLACE")
        }
        let setup = try await context.weatherSetup(invocation)
        return HomeAccess(setup: setup, store: try await context.userData(setup.configuration))
    }
}

/// `isobar home` (and `isobar`): the home place in full, or the first city (with a note) when none is set.
struct HomeShowCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Shows the home view.
    func run() async throws -> ExitCode {
        let access = try await HomeAccess.open(context, invocation, for: "show")
        let place: Place
        if let home = try await access.store.home() {
            place = home
        } else if let first = try await access.store.cities(seed: context.seedCities(), now: context.time.now()).first {
            place = first
            context.errors.write("isobar: note: no home set (isobar home set PLACE); showing your first city\n")
        } else {
            throw PlaceError("no home and no cities: isobar home set PLACE")
        }
        return await context.showWeather(.detail, Resolution(place: place, runnersUp: [], source: "home"), access.setup, invocation)
    }
}

/// `isobar home set PLACE`.
struct HomeSetCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Makes the place named the home.
    func run() async throws -> ExitCode {
        let access = try await HomeAccess.open(context, invocation, for: "set")
        let resolution = try await context.resolvePlace(invocation.positionals[1], setup: access.setup, parsed: invocation)
        try await access.store.setHome(resolution.place, now: context.time.now())
        context.write(TextReport(people: { _ in "Home is now \(resolution.place.fullLabel).\n" },
                                 lines: { JSONLine.text("home_set", [("place", PlaceJSON.object(resolution.place)), ("runners_up", .array(resolution.runnersUp.map(PlaceJSON.object)))]) }),
                      as: invocation.options.format)
        return .success
    }
}

/// `isobar home unset`: isobar then shows the first city.
struct HomeUnsetCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Forgets the home, saying which it was.
    func run() async throws -> ExitCode {
        let access = try await HomeAccess.open(context, invocation, for: "unset")
        let removed = try await access.store.unsetHome()
        context.write(TextReport(people: { _ in removed.map { "Home unset (it was \($0.fullLabel)); isobar now shows your first city.\n" } ?? "No home was set.\n" },
                                 lines: { JSONLine.text("home_unset", [("place", removed.map(PlaceJSON.object) ?? .null)]) }),
                      as: invocation.options.format)
        return .success
    }
}
