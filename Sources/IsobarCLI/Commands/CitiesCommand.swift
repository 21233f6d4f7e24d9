/// `isobar cities`, `isobar cities add PLACE`, `isobar cities remove|rm PLACE|NUMBER`, `isobar cities move FROM TO`.
struct CitiesCommand: CommandWithActions {
    static let spec = Commands.cities
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// `list` when no action is named.
    static let defaultAction = "list"

    /// Its actions, each a type of its own.
    static let subcommands: [SubcommandSpec<CitiesCommand>] = [
        SubcommandSpec("list", summary: "Your cities with the consensus temperature and condition now",
                       runs: CitiesListCommand.self),
        SubcommandSpec("add", arguments: ["PLACE"], summary: "Add a place to your cities", runs: CityAddCommand.self),
        SubcommandSpec("remove", aliases: ["rm"], arguments: ["PLACE|NUMBER"], summary: "Remove a city, by name, coordinates or number",
                       runs: CityRemoveCommand.self),
        SubcommandSpec("move", arguments: ["FROM", "TO"], summary: "Move a city to another place in the list (numbers, names or coordinates)",
                       runs: CityMoveCommand.self),
    ]

    /// Runs the command and returns its exit code.
    func run() async throws -> ExitCode { try await runAction() }
}
