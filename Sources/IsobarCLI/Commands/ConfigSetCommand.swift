import FoundationEssentials
import IsobarCore
import IsobarRender
import IsobarStore
#if canImport(Glibc)
import Glibc
#endif

/// `isobar config set KEY VALUE`: the value checked, the one member changed, the rest of the file and its order kept (a file that
/// does not exist yet is made from the bundled defaults).
struct ConfigSetCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Checks the value, changes the one member, keeps the rest of the file, and writes it in one step.
    func run() throws -> ExitCode {
        let arguments = try ConfigCommand.arguments(invocation, of: "set")
        let (key, text) = (arguments[0], arguments[1])
        let settings = ConfigSettings(context: context)
        var file = try context.editableConfiguration(invocation)
        let resolved = try settings.key(key, in: file.text, path: file.path)
        switch resolved {
        case .topLevel(let setting): file.text.setMember(setting.name, try setting.value(text))
        case .provider(let setting, let index): file.text.setMember(setting.name, try setting.value(text), ofEntry: index)
        case .contact(let setting):
            let value = try setting.value(text)
            let entries = settings.contactEntries(file.text)
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
        let (name, setting, stored) = settings.describe(resolved, file.text)
        let shown = stored.map(setting.shown) ?? ""
        let made = file.created ? ", made with the bundled defaults' providers" : ""
        context.write(TextReport(people: { TextWrap.fit("Set \(name) = \(shown) in \(file.path)\(made).\n", width: $0) }, lines: {
            JSONLine.text("config_changed", [("key", .string(name)), ("value", stored.map(setting.json) ?? .null), ("file", .string(file.path)),
                                                 ("created", .bool(file.created))])
        }), as: invocation.options.format)
        return .success
    }
}
