import IsobarRender

/// One `isobar` command: its description, and how it runs once its invocation is parsed and validated.
protocol IsobarCommand: Sendable {
    /// The options of its own, beside the shared ones.
    associatedtype Own: OwnOptions = NoOwnOptions
    /// Name, arguments, options and help.
    static var spec: CommandSpec { get }
    /// Its arguments and options.
    var invocation: Invocation { get }
    /// The command, given what it runs with and its validated invocation.
    init(context: CommandContext, invocation: Invocation)
    /// Runs it and returns the exit code.
    func run() async throws -> ExitCode
    /// What the invocation writes on standard output: text for people, JSON lines or CSV.
    static func writes(_ invocation: Invocation) -> OutputText
}

extension IsobarCommand {
    /// What `--format` asks for: tables and sentences for people, JSON lines or CSV.
    static func writes(_ invocation: Invocation) -> OutputText { invocation.options.format.text }

    /// `arguments` (after the command's name) read for this command: the shared options and its own.
    static func invocation(_ arguments: [String]) throws(UsageError) -> Invocation {
        try Invocation(arguments, command: spec, own: Own.self)
    }

    /// Its own options, as given.
    var own: Own { invocation.own(Own.self) }
}

/// Every command, in help order.
enum CommandTable {
    static let all: [any IsobarCommand.Type] = [
        CompareCommand.self, NowCommand.self, ForecastCommand.self, AlertsCommand.self, AirCommand.self, BatchCommand.self, SearchCommand.self,
        CitiesCommand.self, HomeCommand.self, CacheCommand.self, ArchiveCommand.self, VerifyCommand.self, LearnCommand.self, ProvidersCommand.self,
        DoctorCommand.self, SetupCommand.self, ConfigCommand.self, CompletionsCommand.self,
    ]

    /// Every command's description, in help order.
    static var specs: [CommandSpec] { all.map { $0.spec } }

    /// The command called `name`.
    static func named(_ name: String) -> (any IsobarCommand.Type)? { all.first { $0.spec.name == name } }
}
