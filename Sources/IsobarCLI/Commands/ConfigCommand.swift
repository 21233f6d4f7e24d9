/// `isobar config [list|path|get KEY|set KEY VALUE]`.
struct ConfigCommand: CommandWithActions {
    static let spec = Commands.config
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// `list` when no action is named.
    static let defaultAction = "list"

    /// Its actions, each a type of its own.
    static let subcommands: [SubcommandSpec<ConfigCommand>] = [
        SubcommandSpec("list", summary: "Every setting, with its default when the file sets none", runs: ConfigListCommand.self),
        SubcommandSpec("path", summary: "The location of the file config set changes", runs: ConfigPathCommand.self),
        SubcommandSpec("get", arguments: ["KEY"], summary: "One setting's value (the default when the file sets none)",
                       runs: ConfigGetCommand.self),
        SubcommandSpec("set", arguments: ["KEY", "VALUE"], summary: "Check the value and change only that member of the file",
                       runs: ConfigSetCommand.self),
    ]

    /// Runs the command and returns its exit code.
    func run() async throws -> ExitCode { try await runAction() }

    /// The arguments after the action `named`, exactly as many as its spec lists: too few or too many is a usage error
    /// (`'config get KEY' needs a KEY`).
    static func arguments(_ invocation: Invocation, of named: String) throws(UsageError) -> [String] {
        let arguments = Array(invocation.positionals.dropFirst())
        let wanted = subcommand(named: named)?.arguments ?? []
        guard arguments.count == wanted.count else {
            let usage = ([spec.name, named] + wanted).joined(separator: " ")
            throw UsageError(arguments.count < wanted.count ? "'\(usage)' needs \(wanted.map { "a \($0)" }.joined(separator: " and "))"
                             : "unexpected argument '\(arguments[wanted.count])' for '\(usage)'")
        }
        return arguments
    }
}
