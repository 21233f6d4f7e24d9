import FoundationEssentials
import IsobarCore
import IsobarRender
import IsobarStore
#if canImport(Glibc)
import Glibc
#endif

/// `isobar config [list|path|get KEY|set KEY VALUE]`.
struct ConfigCommand: CommandWithActions {
    static let spec = Commands.config
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// A setting named on the command line: a top-level one, the contact of every entry that takes one, or one entry's.
    enum SettingKey {
        /// A top-level member.
        case topLevel(ConfigSetting)
        /// `contact`: set on every entry whose type takes a contact.
        case contact(ConfigSetting)
        /// `ID.SETTING`: a member of the entry at `index`.
        case provider(ConfigSetting, index: Int)
    }

    /// `list` when no action is named.
    static let defaultAction = "list"

    /// Its actions.
    static let subcommands: [SubcommandSpec<ConfigCommand>] = [
        SubcommandSpec("list", summary: "Every setting, with its default when the file sets none") { try $0.run("list") },
        SubcommandSpec("path", summary: "The location of the file config set changes") { try $0.run("path") },
        SubcommandSpec("get", arguments: ["KEY"], summary: "One setting's value (the default when the file sets none)") { try $0.run("get") },
        SubcommandSpec("set", arguments: ["KEY", "VALUE"], summary: "Check the value and change only that member of the file") { try $0.run("set") },
    ]

    /// Runs the command and returns its exit code.
    func run() async throws -> ExitCode { try await runAction() }

    /// Runs `action` on the configuration file.
    private func run(_ action: String) throws -> ExitCode {
        let arguments = Array(invocation.positionals.dropFirst())
        let wanted = ["list": 0, "path": 0, "get": 1, "set": 2][action] ?? 0
        guard arguments.count == wanted else {
            let usage = ["list": "config list", "path": "config path", "get": "config get KEY", "set": "config set KEY VALUE"][action] ?? action
            throw UsageError(arguments.count < wanted ? "'\(usage)' needs \(wanted == 1 ? "a KEY" : "a KEY and a VALUE")"
                             : "unexpected argument '\(arguments[wanted])' for '\(usage)'")
        }
        switch action {
        case "path": return try printConfigPath(invocation)
        case "set": return try setConfig(invocation, key: arguments[0], value: arguments[1])
        default:
            let file = try context.editableConfiguration(invocation, changing: false)
            let keys = try arguments.first.map { [try settingKey($0, in: file.text, path: file.path)] } ?? allSettingKeys(file.text)
            let source = file.created ? "the bundled defaults" : file.path
            var text = ""
            var lines = ""
            for key in keys {
                let (name, setting, value) = describe(key, file.text)
                let inEffect = value ?? setting.defaultValue
                if arguments.isEmpty {
                    text += "\(name) = \(inEffect.map(setting.shown) ?? "(not set)")\(value == nil && inEffect != nil ? " (default)" : "")\n"
                } else if let inEffect {
                    text += setting.shown(inEffect) + "\n"
                }
                lines += JSONLine.text("config_value", [("key", .string(name)), ("value", inEffect.map(setting.json) ?? .null), ("set", .bool(value != nil)),
                                                        ("file", file.created ? .null : .string(file.path))])
            }
            if arguments.isEmpty { text = "Settings of \(source):\n\n" + text }
            context.write(TextReport(people: { _ in text }, lines: { lines }), as: invocation.options.format)
            return .success
        }
    }

    /// `config path`: the file `config set` changes (`--config`, else yours), whether or not it exists.
    private func printConfigPath(_ invocation: Invocation) throws -> ExitCode {
        guard let path = invocation.options.configFile ?? context.userConfigurationPath() else {
            throw ConfigurationError("no place for your configuration file: set XDG_CONFIG_HOME or HOME, or pass --config FILE")
        }
        context.write(TextReport(people: { _ in path + "\n" },
                                 lines: { JSONLine.text("config_path", [("path", .string(path)), ("exists", .bool(ConfigurationFile.isPresent(path)))]) }), as: invocation.options.format)
        return .success
    }

    /// `config set KEY VALUE`: the value checked, the one member changed, the rest of the file kept, written in one step.
    private func setConfig(_ invocation: Invocation, key: String, value text: String) throws -> ExitCode {
        var file = try context.editableConfiguration(invocation)
        let resolved = try settingKey(key, in: file.text, path: file.path)
        switch resolved {
        case .topLevel(let setting): file.text.setMember(setting.name, try setting.value(text))
        case .provider(let setting, let index): file.text.setMember(setting.name, try setting.value(text), ofEntry: index)
        case .contact(let setting):
            let value = try setting.value(text)
            let entries = contactEntries(file.text)
            guard !entries.isEmpty else {
                let types = context.registry.factories.filter { $0.contactVariable != nil }.map(\.type).joined(separator: ", ")
                throw UsageError("no provider in \(file.path) takes a contact (types that do: \(types)); add one to the file first")
            }
            for index in entries { file.text.setMember(setting.name, value, ofEntry: index) }
        }
        let bytes = file.text.rendered()
        do {
            _ = try Configuration.parse(bytes, file: file.path, directory: CommandContext.folder(of: file.path))
        } catch {
            throw UsageError("cannot set \(key): \(error.message); nothing was changed")
        }
        if let failure = PrivateFiles.replaceFile(file.path, with: bytes) {
            throw ConfigurationError("cannot write \(failure.file) (\(String(cString: strerror(failure.errorNumber)))); nothing was changed")
        }
        let (name, setting, stored) = describe(resolved, file.text)
        let shown = stored.map(setting.shown) ?? ""
        let made = file.created ? ", made with the bundled defaults' providers" : ""
        context.write(TextReport(people: { TextWrap.fit("Set \(name) = \(shown) in \(file.path)\(made).\n", width: $0) }, lines: {
            JSONLine.text("config_changed", [("key", .string(name)), ("value", stored.map(setting.json) ?? .null), ("file", .string(file.path)),
                                                 ("created", .bool(file.created))])
        }), as: invocation.options.format)
        return .success
    }

    /// The setting `key` names, or a usage error with the nearest spelling.
    func settingKey(_ key: String, in text: ConfigurationText, path: String) throws(UsageError) -> SettingKey {
        if let setting = ConfigSetting.topLevel.first(where: { $0.name == key }) {
            return setting.name == "contact" ? .contact(setting) : .topLevel(setting)
        }
        guard let dot = key.lastIndex(of: ".") else {
            let suggestion = Spelling.closest(to: key, in: ConfigSetting.names).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("unknown setting '\(key)'\(suggestion); settings are \(ConfigSetting.names.joined(separator: ", ")) and ID.SETTING "
                + "(\(ConfigSetting.providerNames.joined(separator: ", ")))")
        }
        let id = String(key[..<dot])
        let name = String(key[key.index(after: dot)...])
        guard let index = text.entry(id) else {
            let ids = text.providers.indices.compactMap { entryID(text, $0) }
            let suggestion = Spelling.closest(to: id, in: ids).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("no provider '\(id)' in \(path)\(suggestion); providers are \(ids.joined(separator: ", "))")
        }
        guard let setting = ConfigSetting.provider.first(where: { $0.name == name }) else {
            let suggestion = Spelling.closest(to: name, in: ConfigSetting.providerNames).map { "; did you mean '\(id).\($0)'?" } ?? ""
            throw UsageError("unknown provider setting '\(name)'\(suggestion); they are \(ConfigSetting.providerNames.joined(separator: ", "))")
        }
        return .provider(setting, index: index)
    }

    /// Every top-level setting, then each entry's settings that it sets or that have a default.
    private func allSettingKeys(_ text: ConfigurationText) -> [SettingKey] {
        let top = ConfigSetting.topLevel.map { $0.name == "contact" ? SettingKey.contact($0) : .topLevel($0) }
        let entries = text.providers.indices.flatMap { index in
            ConfigSetting.provider.filter { text.member($0.name, ofEntry: index) != nil || $0.defaultValue != nil }
                .map { SettingKey.provider($0, index: index) }
        }
        return top + entries
    }

    /// A setting's full key, its description and its value in the file (nil when the file sets none).
    private func describe(_ key: SettingKey, _ text: ConfigurationText) -> (String, ConfigSetting, JSONOutput?) {
        switch key {
        case .topLevel(let setting): return (setting.name, setting, text.member(setting.name))
        case .contact(let setting): return (setting.name, setting, contactEntries(text).lazy.compactMap { text.member("contact", ofEntry: $0) }.first)
        case .provider(let setting, let index): return ("\(entryID(text, index) ?? "?").\(setting.name)", setting, text.member(setting.name, ofEntry: index))
        }
    }

    /// The entries whose type takes a contact.
    private func contactEntries(_ text: ConfigurationText) -> [Int] {
        text.providers.indices.filter { index in
            guard case .string(let type) = text.member("type", ofEntry: index) else { return false }
            return context.registry.factory(for: type)?.contactVariable != nil
        }
    }

    /// The id of the entry at `index` (its type when it has no id).
    private func entryID(_ text: ConfigurationText, _ index: Int) -> String? {
        guard case .string(let id) = text.member("id", ofEntry: index) ?? text.member("type", ofEntry: index) else { return nil }
        return id
    }
}
