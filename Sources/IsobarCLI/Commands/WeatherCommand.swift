import IsobarCore
import IsobarRender

/// Compare, now, forecast and the home view of a place: the place asked of every provider, shown as the view asks.
struct WeatherCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Resolves the place named first, asks every provider about it, shows `view`, and returns the exit code.
    func run(_ view: View, failOn: AlertSeverity? = nil) async throws -> ExitCode {
        let setup = try await context.weatherSetup(invocation)
        let resolution = try await context.resolvePlace(invocation.positionals[0], setup: setup, parsed: invocation)
        // The demo leaves the user's data alone.
        if !invocation.options.demo { context.rememberPlace(invocation.positionals[0], resolution) }
        return await context.showWeather(view, resolution, setup, invocation, failOn: failOn)
    }
}

/// `isobar compare PLACE`.
struct CompareCommand: IsobarCommand {
    static let spec = Commands.compare
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Current conditions side by side.
    func run() async throws -> ExitCode { try await WeatherCommand(context: context, invocation: invocation).run(.compare) }
}

/// `isobar now PLACE [--fail-on SEVERITY]`.
struct NowCommand: IsobarCommand {
    typealias Own = FailOnOptions
    static let spec = Commands.now
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Current conditions, the consensus first.
    func run() async throws -> ExitCode { try await WeatherCommand(context: context, invocation: invocation).run(.now, failOn: own.failOn) }
}

/// `isobar forecast PLACE [--days N] [--hourly]`.
struct ForecastCommand: IsobarCommand {
    typealias Own = HorizonOptions
    static let spec = Commands.forecast
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Days, and hours when asked.
    func run() async throws -> ExitCode {
        try await WeatherCommand(context: context, invocation: invocation).run(.forecast(days: own.days, hourly: own.hourly))
    }
}

/// `isobar PLACE`: the home view (now, the next hours, the next days) of a named place; not listed among the commands.
struct PlaceCommand: IsobarCommand {
    static let spec = Commands.place
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// The place in full.
    func run() async throws -> ExitCode { try await WeatherCommand(context: context, invocation: invocation).run(.detail) }
}
