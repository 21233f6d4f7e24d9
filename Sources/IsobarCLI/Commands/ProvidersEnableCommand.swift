import Exec
import FoundationEssentials
import IsobarCore
import IsobarRender
import IsobarStore
#if canImport(Glibc)
import Glibc
#endif

/// `isobar providers enable|disable NAME`: turns entry NAME on or off in the configuration file (`--config`, else the
struct ProvidersEnableCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Runs the command and returns its exit code.
    /// user's, made from the bundled defaults when missing); enabling a name without an entry adds one for the plug-in
    /// program `isobar-provider-NAME`. Disabling keeps the entry with `"enabled": false`.
    func run(enable: Bool) throws -> ExitCode {
        let action = enable ? "enable" : "disable"
        guard let name = invocation.positionals.dropFirst().first else { throw UsageError("providers \(action) needs the NAME of a provider") }
        if invocation.positionals.count > 2 { throw UsageError("unexpected argument '\(invocation.positionals[2])' for 'providers \(action)'") }
        if invocation.options.demo { throw UsageError("providers \(action) changes a configuration file; --demo has none to change") }
        var file = try context.editableConfiguration(invocation)
        var program: ExecDiscovery.Program?
        if let index = file.text.entry(name) {
            guard file.text.isEnabled(index) != enable else {
                throw UsageError("provider '\(name)' is already \(action)d in \(file.path)")
            }
            file.text.setEnabled(enable, index)
        } else if enable {
            guard let found = ExecDiscovery.find(name, environment: context.environment) else {
                let folders = ExecDiscovery.folders(environment: context.environment).joined(separator: ":")
                throw UsageError("no plug-in program \(ExecDiscovery.prefix)\(name) in \(folders) and no provider '\(name)' in \(file.path); "
                    + "isobar providers --available lists the programs found")
            }
            program = found
            file.text.append([("id", .string(name)), ("type", .string("exec")), ("command", .array([.string(found.path)]))])
        } else {
            throw UsageError("no provider '\(name)' in \(file.path); isobar providers lists the configured ones")
        }
        let bytes = file.text.rendered()
        _ = try Configuration.parse(bytes, file: file.path, directory: CommandContext.folder(of: file.path), registry: context.registry)
        if let failure = PrivateFiles.replaceFile(file.path, with: bytes) {
            throw ConfigurationError("cannot write \(failure.file) (\(String(cString: strerror(failure.errorNumber)))); nothing was changed")
        }
        var text = enable ? "Enabled \(name)" : "Disabled \(name)"
        if let program { text += " (the plug-in program \(program.path))" }
        text += " in \(file.path)"
        if file.created { text += ", made with the bundled defaults' providers" }
        text += enable ? "; it is asked from the next command on.\n"
            : "; the entry is kept with \"enabled\": false (isobar providers enable \(name) turns it back on).\n"
        context.write(TextReport(people: { TextWrap.fit(text, width: $0) }, lines: {
            JSONLine.text(enable ? "provider_enabled" : "provider_disabled", [
                ("provider", .string(name)), ("file", .string(file.path)), ("path", .string(program?.path)), ("created", .bool(file.created)),
            ])
        }), as: invocation.options.format)
        return .success
    }
}

extension CommandContext {
    /// The configuration file enable, disable and `config set` change (and `config get` reads), its text, and whether it is
    /// yet to be made; `changing` adds to a refusal that nothing was changed.
    func editableConfiguration(_ parsed: Invocation, changing: Bool = true) throws(ConfigurationError) -> (path: String, text: ConfigurationText, created: Bool) {
        let path: String
        let bytes: [UInt8]
        var created = false
        if let explicit = parsed.options.configFile {
            path = explicit
            guard let data = FileManager.default.contents(atPath: path) else { throw ConfigurationError("cannot read the configuration file \(path)") }
            bytes = Array(data)
        } else {
            guard let user = userConfigurationPath() else {
                throw ConfigurationError("no place for your configuration file: set XDG_CONFIG_HOME or HOME, or pass --config FILE")
            }
            path = user
            if let data = FileManager.default.contents(atPath: path) {
                bytes = Array(data)
            } else if FileManager.default.fileExists(atPath: path) {
                throw ConfigurationError("cannot read the configuration file \(path)")
            } else {
                created = true
                bytes = try defaultConfigurationText()
            }
        }
        let refusal = changing ? "; nothing was changed (fix the file first)" : ""
        do {
            _ = try Configuration.parse(bytes, file: path, directory: Self.folder(of: path), registry: registry)
            return (path, try ConfigurationText(parsing: bytes), created)
        } catch let error as ConfigurationError {
            throw ConfigurationError("\(error.message)\(refusal)")
        } catch {
            throw ConfigurationError("\(path): \(error)\(refusal)")
        }
    }

    /// The text a new configuration file starts from: the bundled `isobar.json`, else the built-in providers.
    private func defaultConfigurationText() throws(ConfigurationError) -> [UInt8] {
        if let bundled = bundledConfigurationPath() {
            guard let data = FileManager.default.contents(atPath: bundled) else { throw ConfigurationError("cannot read the configuration file \(bundled)") }
            return Array(data)
        }
        let entries = registry.defaultConfiguration().providers.map { JSONOutput.object([("id", .string($0.id)), ("type", .string($0.type))]) }
        return JSONOutput.object([("providers", .array(entries))]).utf8()
    }

    /// The folder holding `path` (relative `replay` and `cache_dir` paths are taken from it).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
