import FoundationEssentials
import IsobarCore
import IsobarRender
import IsobarStore
#if canImport(Glibc)
import Glibc
#endif

/// `isobar setup`: writes a starter configuration (asking on a terminal for what the options leave out), never over an
struct SetupCommand: IsobarCommand {
    typealias Own = SetupOptions
    static let spec = Commands.setup
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// What a starter configuration holds besides the providers that need nothing.
    struct SetupChoices {
        /// The contact for providers whose terms ask for one; nil leaves them out.
        var contact: String?
        /// Provider types that need a key, with the variable each key is read from.
        var keys: [KeyVariable]
        /// The units shown.
        var units: UnitSystem
    }

    /// Runs the command and returns its exit code.
    /// existing file without `--force` (and then keeping a copy), in one step with mode 0600.
    func run() throws -> ExitCode {
        let options = invocation.options
        guard let path = options.configFile ?? context.userConfigurationPath() else {
            throw ConfigurationError("no place for your configuration file: set XDG_CONFIG_HOME or HOME, or pass --config FILE")
        }
        let existing = ConfigurationFile.isPresent(path)
        if existing && !own.force {
            throw UsageError("\(path) already exists; isobar config set KEY VALUE changes one setting, isobar setup --force replaces the file (keeping a copy)")
        }
        let types = context.registry.defaultConfiguration().providers.compactMap { context.registry.factory(for: $0.type) }
        let keyed = types.filter { $0.keyVariable != nil }
        for key in own.keyVariables where !keyed.contains(where: { $0.type == key.type }) {
            throw UsageError("--key-env: '\(key.type)' is not a provider type that needs a key; those are \(keyed.map(\.type).joined(separator: ", "))")
        }
        var choices = SetupChoices(contact: own.contact, keys: own.keyVariables, units: options.units ?? .metric)
        if context.prompter.isTerminal && !own.yes && options.format.isForPeople { try ask(&choices, types: types) }

        var entries: [JSONOutput] = []
        var included: [String] = []
        var leftOut: [String] = []
        for factory in types {
            var entry: [(String, JSONOutput)] = [("id", .string(factory.type)), ("type", .string(factory.type))]
            if factory.contactVariable != nil {
                guard let contact = choices.contact else {
                    leftOut.append("\(factory.type) (it needs a contact: --contact EMAIL)")
                    continue
                }
                entry.append(("contact", .string(contact)))
            }
            if let usual = factory.keyVariable {
                guard let key = choices.keys.first(where: { $0.type == factory.type }) else {
                    leftOut.append("\(factory.type) (it needs an API key: --key-env \(factory.type)=VAR)")
                    continue
                }
                let variable = key.variable ?? usual
                if own.writeKeyValues {
                    guard let value = context.environment[variable], !value.isEmpty else {
                        throw UsageError("--write-key-values: \(variable) is not set or empty, so there is no key of \(factory.type) to store")
                    }
                    entry.append(("api_key", .string(value)))
                } else {
                    entry.append(("api_key_env", .string(variable)))
                }
            }
            entries.append(.object(entry))
            included.append(factory.type)
        }
        let document = JSONOutput.object([("units", .string(choices.units.rawValue)), ("providers", .array(entries))])
        let bytes = try ConfigurationText(parsing: document.utf8()).rendered()
        _ = try Configuration.parse(bytes, file: path, directory: CommandContext.folder(of: path))

        let backup = existing ? try keepCopy(of: path) : nil
        if let failure = PrivateFiles.replaceFile(path, with: bytes, mode: 0o600) {
            throw ConfigurationError("cannot write \(failure.file) (\(String(cString: strerror(failure.errorNumber)))); nothing was changed")
        }
        let next = "isobar doctor"
        var text = "Wrote \(path) with \(included.joined(separator: ", ")).\n"
        if let backup { text += "The earlier file is kept as \(backup).\n" }
        if !leftOut.isEmpty { text += "Left out: \(leftOut.joined(separator: "; ")).\n" }
        text += "Next: \(next) (checks that everything works), then isobar Minsk.\n"
        context.write(TextReport(people: { TextWrap.fit(text, width: $0) }, lines: {
            JSONLine.text("setup_written", [
                ("file", .string(path)), ("providers", .array(included.map { .string($0) })), ("backup", .string(backup)), ("next", .string(next)),
            ])
        }), as: options.format)
        return .success
    }

    /// Asks on the terminal for the contact and the keys' variables the options leave out; Enter leaves a provider out.
    private func ask(_ choices: inout SetupChoices, types: [ProviderFactory]) throws {
        for factory in types where factory.contactVariable != nil && choices.contact == nil {
            let name = Self.displayName(factory)
            choices.contact = try answer("\(name)'s terms ask for a contact sent with each request: your e-mail address or URL "
                                         + "(Enter leaves \(name) out): ", invalid: "not an e-mail address or http(s) URL", SetupOptions.contact)
        }
        for factory in types where factory.keyVariable != nil && !choices.keys.contains(where: { $0.type == factory.type }) {
            let name = Self.displayName(factory)
            let variable = try answer("\(name) needs an API key. The environment variable that holds it, e.g. \(factory.keyVariable ?? "") "
                                      + "(Enter leaves \(name) out): ", invalid: "not a variable name (letters, digits and _)") {
                SetupOptions.isVariableName($0) ? $0 : nil
            }
            if let variable { choices.keys.append(KeyVariable(type: factory.type, variable: variable)) }
        }
    }

    /// One answer, checked by `accept`; blank or the end of input is none; three unusable answers are a usage error.
    private func answer(_ question: String, invalid: String, _ accept: (String) -> String?) throws(UsageError) -> String? {
        for _ in 0..<3 {
            context.errors.write(question)
            context.errors.flush()
            guard let line = context.prompter.readAnswer()?.trimmingSpaces(), !line.isEmpty else { return nil }
            if let accepted = accept(line) { return accepted }
            context.errors.write("'\(line.prefix(80))' is \(invalid).\n")
        }
        throw UsageError("no usable answer after three tries; nothing was written")
    }

    /// The name a factory's summary starts with (`OpenWeatherMap: ...`), else its type.
    static func displayName(_ factory: ProviderFactory) -> String {
        factory.summary.split(separator: ":", maxSplits: 1).first.map(String.init) ?? factory.type
    }

    /// Copies the file at `path` to the first of `PATH.bak`, `PATH.bak.2`, ... that does not exist, mode 0600; returns that name.
    private func keepCopy(of path: String) throws(ConfigurationError) -> String {
        let bytes = try ConfigurationFile.read(path)
        var number = 1
        var backup = path + ".bak"
        while ConfigurationFile.isPresent(backup) {
            number += 1
            backup = path + ".bak.\(number)"
        }
        if let failure = PrivateFiles.replaceFile(backup, with: bytes, mode: 0o600) {
            throw ConfigurationError("cannot keep a copy of \(path) as \(failure.file) (\(String(cString: strerror(failure.errorNumber)))); nothing was changed")
        }
        return backup
    }
}
