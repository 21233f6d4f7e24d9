import Exec
import IsobarCore
import IsobarRender

/// `isobar providers --available`: the plug-in programs found on `PATH` and in the user's plug-in folder, each with
struct ProvidersAvailableCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Runs the command and returns its exit code.
    /// whether an entry uses it, and the ones hidden by an earlier program of the same name; none is run.
    func run() throws -> ExitCode {
        if let action = invocation.positionals.first, action != "list" {
            throw UsageError("--available lists plug-in programs; it cannot be used with 'providers \(action)'")
        }
        let configuration = try context.loadConfiguration(invocation)
        let found = ExecDiscovery.discover(environment: context.environment)
        let folders = ExecDiscovery.folders(environment: context.environment).joined(separator: ":")
        var text = found.programs.isEmpty ? "No plug-in programs (\(ExecDiscovery.prefix)NAME) in \(folders).\n"
            : "Plug-in programs found (none runs until you enable it: isobar providers enable NAME):\n\n"
        for program in found.programs {
            text += "\(program.name): \(program.path) (\(Self.pluginStatus(program, configuration).words))\n"
            for hidden in found.shadowed where hidden.usedInstead == program.path {
                text += "  shadows \(hidden.program.path), never used\n"
            }
        }
        context.write(TextReport(people: { TextWrap.fit(text, width: $0) }, lines: {
            found.programs.map { program in
                JSONLine.text("plugin_available", [
                    ("provider", .string(program.name)), ("path", .string(program.path)),
                    ("state", .string(Self.pluginStatus(program, configuration).rawValue)),
                    ("shadowed", .array(found.shadowed.filter { $0.usedInstead == program.path }.map { .string($0.program.path) })),
                ])
            }.joined()
        }), as: invocation.options.format)
        return .success
    }

    /// Whether the configuration uses a plug-in program found.
    enum PluginStatus: String {
        /// An enabled entry runs this program.
        case enabled
        /// An entry for this program says `"enabled": false`.
        case disabled
        /// No entry has its name.
        case available
        /// An entry of that id runs something else.
        case nameTaken = "name_taken"

        /// The words shown in the listing.
        var words: String {
            switch self {
            case .enabled: "enabled"
            case .disabled: "disabled in the configuration"
            case .available: "not enabled"
            case .nameTaken: "not used: the configured provider of that id runs another program"
            }
        }
    }

    /// How `configuration` treats `program`.
    static func pluginStatus(_ program: ExecDiscovery.Program, _ configuration: Configuration) -> PluginStatus {
        guard let entry = configuration.providers.first(where: { $0.id == program.name }) else { return .available }
        guard program.isRun(by: entry.options) else { return .nameTaken }
        return entry.enabled ? .enabled : .disabled
    }
}
