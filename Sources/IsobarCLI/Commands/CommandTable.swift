/// One `isobar` command: its description, and how it runs once its invocation is parsed and validated.
protocol IsobarCommand: Sendable {
    /// Name, arguments, options and help.
    static var spec: CommandSpec { get }
    /// Runs on a validated invocation and returns the exit code.
    static func run(_ invocation: Invocation, on cli: IsobarCommandLine) async throws -> ExitCode
    /// What the invocation writes on standard output: text for people, JSON lines or CSV.
    static func writes(_ invocation: Invocation) -> OutputText
}

extension IsobarCommand {
    /// What `--format` asks for: tables and sentences for people, JSON lines or CSV.
    static func writes(_ invocation: Invocation) -> OutputText {
        switch invocation.options.format {
        case .table: .people
        case .jsonl: .jsonLines
        case .csv: .csv
        }
    }
}

/// `isobar compare PLACE`.
enum CompareCommand: IsobarCommand {
    static let spec = Commands.compare
    static func run(_ invocation: Invocation, on cli: IsobarCommandLine) async throws -> ExitCode {
        try await cli.runWeather(.compare, invocation)
    }
}

/// `isobar now PLACE`.
enum NowCommand: IsobarCommand {
    static let spec = Commands.now
    static func run(_ invocation: Invocation, on cli: IsobarCommandLine) async throws -> ExitCode {
        try await cli.runWeather(.now, invocation)
    }
}

/// `isobar forecast PLACE [--days N] [--hourly]`.
enum ForecastCommand: IsobarCommand {
    static let spec = Commands.forecast
    static func run(_ invocation: Invocation, on cli: IsobarCommandLine) async throws -> ExitCode {
        try await cli.runWeather(.forecast(days: invocation.options.days, hourly: invocation.options.hourly), invocation)
    }
}

/// `isobar batch [FILE|-]`.
enum BatchCommand: IsobarCommand {
    static let spec = Commands.batch
    static func run(_ invocation: Invocation, on cli: IsobarCommandLine) async throws -> ExitCode { try await cli.runBatch(invocation) }
    /// JSON lines unless `--format csv`: a batch has no table.
    static func writes(_ invocation: Invocation) -> OutputText { invocation.options.format == .csv ? .csv : .jsonLines }
}

/// `isobar search TEXT`.
enum SearchCommand: IsobarCommand {
    static let spec = Commands.search
    static func run(_ invocation: Invocation, on cli: IsobarCommandLine) async throws -> ExitCode { try await cli.runSearch(invocation) }
}

/// `isobar cities [add|remove|rm PLACE | move FROM TO]`.
enum CitiesCommand: IsobarCommand {
    static let spec = Commands.cities
    static func run(_ invocation: Invocation, on cli: IsobarCommandLine) async throws -> ExitCode { try await cli.runCities(invocation) }
}

/// `isobar home [set PLACE | unset]`, and `isobar` alone.
enum HomeCommand: IsobarCommand {
    static let spec = Commands.home
    static func run(_ invocation: Invocation, on cli: IsobarCommandLine) async throws -> ExitCode { try await cli.runHome(invocation) }
}

/// `isobar cache stats|clear|prune`.
enum CacheCommand: IsobarCommand {
    static let spec = Commands.cache
    static func run(_ invocation: Invocation, on cli: IsobarCommandLine) async throws -> ExitCode { try await cli.runCache(invocation) }
}

/// `isobar archive stats|prune|clear|export`.
enum ArchiveCommand: IsobarCommand {
    static let spec = Commands.archive
    static func run(_ invocation: Invocation, on cli: IsobarCommandLine) async throws -> ExitCode { try await cli.runArchive(invocation) }
    /// `export` writes JSON lines whatever `--format` says; the other actions follow it.
    static func writes(_ invocation: Invocation) -> OutputText {
        invocation.positionals.first == "export" ? .jsonLines : invocation.options.format == .jsonl ? .jsonLines : .people
    }
}

/// `isobar verify [PLACE]`.
enum VerifyCommand: IsobarCommand {
    static let spec = Commands.verify
    static func run(_ invocation: Invocation, on cli: IsobarCommandLine) async throws -> ExitCode { try await cli.runVerify(invocation) }
}

/// `isobar providers`.
enum ProvidersCommand: IsobarCommand {
    static let spec = Commands.providers
    static func run(_ invocation: Invocation, on cli: IsobarCommandLine) async throws -> ExitCode { try await cli.runProviders(invocation) }
}

/// Every command, in help order.
enum CommandTable {
    static let all: [any IsobarCommand.Type] = [
        CompareCommand.self, NowCommand.self, ForecastCommand.self, AirCommand.self, BatchCommand.self, SearchCommand.self, CitiesCommand.self, HomeCommand.self,
        CacheCommand.self, ArchiveCommand.self, VerifyCommand.self, ProvidersCommand.self,
        DoctorCommand.self, SetupCommand.self, ConfigCommand.self, CompletionsCommand.self,
    ]

    /// Every command's description, in help order.
    static var specs: [CommandSpec] { all.map { $0.spec } }

    /// The command called `name`.
    static func named(_ name: String) -> (any IsobarCommand.Type)? { all.first { $0.spec.name == name } }
}
