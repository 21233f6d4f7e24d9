import IsobarRender

/// `isobar cache stats|clear|prune`.
struct CacheCommand: CommandWithActions {
    typealias Own = CacheOptions
    static let spec = Commands.cache
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// `stats` when no action is named.
    static let defaultAction = "stats"

    /// Its actions, each a type of its own.
    static let subcommands: [SubcommandSpec<CacheCommand>] = [
        SubcommandSpec("stats", summary: "Count the cached entries per provider and kind, locally and in the shared store",
                       runs: CacheStatsCommand.self),
        SubcommandSpec("clear", summary: "Delete every cached answer (with --shared: every answer in the shared store)",
                       runs: CacheClearCommand.self),
        SubcommandSpec("prune", summary: "Delete old answers and the rate-limit records no window needs",
                       runs: CachePruneCommand.self),
    ]

    /// Runs the command and returns its exit code.
    func run() async throws -> ExitCode { try await runAction() }

    /// The provider id of a storage key (`open-meteo@3f2a…` → `open-meteo`).
    static func providerID(_ storageKey: String) -> String { String(storageKey.prefix { $0 != "@" }) }

    /// The endpoint fingerprint of a storage key, or nil when it has none.
    static func endpoint(_ storageKey: String) -> String? {
        storageKey.firstIndex(of: "@").map { String(storageKey[storageKey.index(after: $0)...]) }
    }

    /// `42 s`, `5 min`, `3 h`, `2 d`.
    static func age(_ seconds: Double) -> String { TableRenderer.ageText(seconds) }
}
