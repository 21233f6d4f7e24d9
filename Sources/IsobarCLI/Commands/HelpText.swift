/// Help screens, generated from the command descriptions and the configured providers.
enum HelpText {
    /// The overview: commands, provider types, configured providers, and a command to try (the demo, only when its data is there).
    static func overview(registry: ProviderRegistry, configuration: Configuration?, missingData: String? = nil) -> String {
        var text = """
        isobar \(IsobarCommandLine.version) — asks several weather providers at once and shows where they agree.

        Usage: isobar <command> <place> [options]

        Commands:

        """
        let specs = CommandTable.specs
        let width = specs.map { $0.name.count }.max() ?? 0
        for command in specs {
            text += "  \(command.name)\(String(repeating: " ", count: width - command.name.count))  \(command.summary)\n"
        }
        text += "\nProvider types in this build:\n"
        let typeWidth = registry.factories.map(\.type.count).max() ?? 0
        for factory in registry.factories {
            text += "  \(factory.type)\(String(repeating: " ", count: typeWidth - factory.type.count))  \(factory.summary)\n"
        }
        text += providers(configuration)
        if let missingData {
            text += "\nNote: \(missingData).\n"
        } else {
            text += "\nTry: isobar compare Minsk --demo\n"
        }
        text += "More: isobar <command> --help, isobar --version\n"
        return text
    }

    /// One command's help: usage, discussion, options and the configured providers.
    static func command(_ command: CommandSpec, configuration: Configuration?) -> String {
        let usage = (command.arguments + command.optionalArguments.map { "[\($0)]" }).joined(separator: " ")
        var text = "\(command.summary).\n\nUsage: isobar \(command.name)\(usage.isEmpty ? "" : " " + usage) [options]\n"
        if !command.discussion.isEmpty { text += "\n\(command.discussion)\n" }
        text += "\nOptions:\n"
        let labels = command.options.map { option in "--\(option.name)" + (option.valueName.map { " \($0)" } ?? "") }
        let width = labels.map(\.count).max() ?? 0
        for (label, option) in zip(labels, command.options) {
            text += "  \(label)\(String(repeating: " ", count: width - label.count))  \(option.help)\n"
        }
        text += providers(configuration)
        return text
    }

    private static func providers(_ configuration: Configuration?) -> String {
        guard let configuration else { return "\nConfigured providers: (the configuration could not be read)\n" }
        var text = "\nConfigured providers (\(configuration.file ?? "built-in defaults")):\n"
        let idWidth = configuration.providers.map(\.id.count).max() ?? 0
        for entry in configuration.providers {
            let padding = String(repeating: " ", count: idWidth - entry.id.count)
            let mode = entry.replay.map { "replays \($0)" } ?? "live"
            text += "  \(entry.id)\(padding)  type \(entry.type), \(mode)\(entry.enabled ? "" : ", disabled")\n"
        }
        return text
    }
}
