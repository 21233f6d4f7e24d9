import IsobarCore
import IsobarRender

/// `isobar config list` (and `isobar config`): every setting, with its default when the file sets none.
struct ConfigListCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Writes every setting.
    func run() throws -> ExitCode {
        _ = try ConfigCommand.arguments(invocation, of: "list")
        return try ConfigValues(context: context, invocation: invocation).write(nil)
    }
}

/// `isobar config get KEY`: one setting's value (the default when the file sets none, nothing when unset).
struct ConfigGetCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Writes the setting KEY names.
    func run() throws -> ExitCode {
        let arguments = try ConfigCommand.arguments(invocation, of: "get")
        return try ConfigValues(context: context, invocation: invocation).write(arguments[0])
    }
}

/// `isobar config path`: the file `config set` changes (`--config`, else yours), whether or not it exists.
struct ConfigPathCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Writes the path, and in JSON lines whether the file exists.
    func run() throws -> ExitCode {
        _ = try ConfigCommand.arguments(invocation, of: "path")
        guard let path = invocation.options.configFile ?? context.userConfigurationPath() else {
            throw ConfigurationError("no place for your configuration file: set XDG_CONFIG_HOME or HOME, or pass --config FILE")
        }
        context.write(TextReport(people: { _ in path + "\n" },
                                 lines: { JSONLine.text("config_path", [("path", .string(path)), ("exists", .bool(ConfigurationFile.isPresent(path)))]) }),
                      as: invocation.options.format)
        return .success
    }
}

/// The values `config list` and `config get` write: each setting's value in effect, and whether the file sets it.
struct ConfigValues {
    /// What the command runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Writes the setting `named` names (its value alone), or every setting (`name = value`, under a heading) when it is nil.
    func write(_ named: String?) throws -> ExitCode {
        let settings = ConfigSettings(context: context)
        let file = try context.editableConfiguration(invocation, changing: false)
        let keys = try named.map { [try settings.key($0, in: file.text, path: file.path)] } ?? settings.allKeys(file.text)
        let source = file.created ? "the bundled defaults" : file.path
        var text = ""
        var lines = ""
        for key in keys {
            let (name, setting, value) = settings.describe(key, file.text)
            let inEffect = value ?? setting.defaultValue
            if named == nil {
                text += "\(name) = \(inEffect.map(setting.shown) ?? "(not set)")\(value == nil && inEffect != nil ? " (default)" : "")\n"
            } else if let inEffect {
                text += setting.shown(inEffect) + "\n"
            }
            lines += JSONLine.text("config_value", [("key", .string(name)), ("value", inEffect.map(setting.json) ?? .null), ("set", .bool(value != nil)),
                                                    ("file", file.created ? .null : .string(file.path))])
        }
        if named == nil { text = "Settings of \(source):\n\n" + text }
        context.write(TextReport(people: { _ in text }, lines: { lines }), as: invocation.options.format)
        return .success
    }
}
