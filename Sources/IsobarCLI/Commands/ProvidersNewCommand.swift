import FoundationEssentials
import IsobarCore
#if canImport(Glibc)
import Glibc
#endif

/// `isobar providers new NAME --lang python|sh|swift [--dir DIR]`: writes a provider skeleton that passes `providers check`
struct ProvidersNewCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Runs the command and returns its exit code.
    /// on its fixture, never over an existing file, and says how to use it.
    func run() throws -> ExitCode {
        guard invocation.positionals.count == 2 else {
            throw invocation.positionals.count < 2
                ? UsageError("'providers new' needs a NAME, e.g. isobar providers new my-source --lang python")
                : UsageError("unexpected argument '\(invocation.positionals[2])' for 'providers new'")
        }
        let name = invocation.positionals[1]
        guard ProviderSkeleton.isValidName(name) else {
            throw UsageError("provider name '\(name)' must be 1 to 40 lower-case letters, digits and hyphens (such as my-source)")
        }
        guard let text = invocation.own(ProvidersOptions.self).language, let language = ProviderSkeleton.Language(rawValue: text) else {
            throw UsageError("'providers new' needs --lang python, sh or swift")
        }
        let skeleton = ProviderSkeleton(name: name, language: language)
        let given = invocation.own(ProvidersOptions.self).directory ?? (language == .swift ? "Providers/\(skeleton.typeName)" : skeleton.programName)
        let directory = Self.absolute(given)
        let files = skeleton.files
        for file in files where FileManager.default.fileExists(atPath: directory + "/" + file.path) {
            throw UsageError("\(given)/\(file.path) already exists; nothing was written (choose another --dir or NAME)")
        }
        for file in files { try write(file, into: directory) }
        context.output.write(Self.newReport(skeleton, directory: directory, given: given, files: files))
        return .success
    }

    /// Writes one file (and its folders); the program is made executable.
    private func write(_ file: ProviderSkeleton.File, into directory: String) throws(ConfigurationError) {
        let path = directory + "/" + file.path
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw ConfigurationError("cannot make the folder \(folder): \(error)")
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(file.contents.utf8)) else {
            throw ConfigurationError("cannot write \(path)")
        }
        if file.executable && chmod(path, 0o755) != 0 { throw ConfigurationError("cannot make \(path) executable") }
    }

    /// `path` from the working directory, so that the configuration entry works from anywhere.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let base = FileManager.default.currentDirectoryPath
        let relative = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        return relative.isEmpty || relative == "." ? base : base + "/" + relative
    }

    /// What was written, the configuration entry, and the next steps.
    private static func newReport(_ skeleton: ProviderSkeleton, directory: String, given: String, files: [ProviderSkeleton.File]) -> String {
        var text = "Wrote \(files.map { given + "/" + $0.path }.joined(separator: ", ")).\n\n"
        let entry = skeleton.entry(directory: directory)
        if skeleton.language == .swift {
            text += """
                To build it into isobar:
                  Package.swift, in providerTargets (the target and the dependency of "IsobarCLI"):
                    ("\(skeleton.typeName)", uses: [], exclude: ["cassettes"]),
                  Sources/IsobarCLI/Config/ProviderRegistry.swift: import \(skeleton.typeName), and in standard():  \(skeleton.typeName)Provider.factory,

                """
        }
        text += """
            Add this entry to "providers" in your configuration (it replays the recorded fixture; leave out "replay" to go live):
              \(entry)

            Then: isobar providers check \(skeleton.name)    and    isobar compare Minsk

            """
        return text
    }
}
