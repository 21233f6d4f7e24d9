import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRender
import IsobarStore

/// `isobar providers [list|reset [ID]|check ID [PLACE]|new NAME|enable NAME|disable NAME]`, and `--available`.
struct ProvidersCommand: CommandWithActions {
    typealias Own = ProvidersOptions
    static let spec = Commands.providers
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// `list` when no action is named.
    static let defaultAction = "list"

    /// Its actions.
    static let subcommands: [SubcommandSpec<ProvidersCommand>] = [
        SubcommandSpec("list", summary: "Each configured provider with its capabilities, limits and their use, cooldown and breaker",
                       runs: ProvidersListCommand.self),
        SubcommandSpec("reset", optionalArguments: ["ID"], summary: "Clear the cooldown and close the breaker of provider ID, or of every provider") {
            try await ProvidersResetCommand(context: $0.context, invocation: $0.invocation).run(id: $0.invocation.positionals.dropFirst().first)
        },
        SubcommandSpec("check", arguments: ["ID"], optionalArguments: ["PLACE"],
                       summary: "Run the conformance rules and the report validation against provider ID and print each rule's verdict",
                       runs: ProvidersCheckCommand.self),
        SubcommandSpec("new", arguments: ["NAME"], summary: "Write a provider skeleton (--lang python, sh or swift) with a recorded fixture that passes check",
                       runs: ProvidersNewCommand.self),
        SubcommandSpec("enable", arguments: ["NAME"], summary: "Turn on entry NAME, or add one for the plug-in program isobar-provider-NAME, in your configuration file") {
            try ProvidersEnableCommand(context: $0.context, invocation: $0.invocation).run(enable: true)
        },
        SubcommandSpec("disable", arguments: ["NAME"], summary: "Keep entry NAME of your configuration file with \"enabled\": false") {
            try ProvidersEnableCommand(context: $0.context, invocation: $0.invocation).run(enable: false)
        },
    ]

    /// Runs the command and returns its exit code.
    func run() async throws -> ExitCode {
        if own.available { return try ProvidersAvailableCommand(context: context, invocation: invocation).run() }
        return try await runAction()
    }

    /// `N problem(s) with the store (run with --verbose to see them)`, or nil when there were none.
    static func problemSummary(_ diagnostics: DiagnosticLog) -> String? {
        let count = diagnostics.total
        guard count > 0 else { return nil }
        return "\(count) problem(s) with the store while reading it (run with --verbose to see them)"
    }

    /// `2026-11-28 09:00 UTC`.
    static func utc(_ date: Date) -> String {
        "\(LocalDate(date, utcOffsetSeconds: 0)) \(CivilTime.clock(date, utcOffsetSeconds: 0)) UTC"
    }
}
