import FoundationEssentials
import IsobarCore

/// The options of an `exec` entry: the program to run.
public struct ExecOptions: Sendable, Equatable {
    /// `command`: the program and its arguments.
    public var command: [String]

    /// Options running `command`.
    public init(command: [String]) { self.command = command }

    /// The keys an exec entry has of its own.
    public static let keys = ["command"]

    /// As provider options: the command decides the answers (it is part of their cache key) and is shown by `providers list`.
    public var providerOptions: ProviderOptions {
        ProviderOptions(self, endpoint: "command=\(command.joined(separator: "\u{0}"))", notes: ["program: \(command.joined(separator: " "))"])
    }

    /// `command`: a non-empty array of strings, required; relative paths that exist beside the configuration file are taken
    /// from there.
    public static func read(_ source: OptionSource) throws(OptionError) -> ProviderOptions {
        let entry = source.entry
        return try OptionError.reading {
            guard let value = try entry.nonNullMember("command") else {
                throw OptionError("\(entry.path) is an exec provider and needs a \"command\", e.g. [\"python3\", \"provider.py\"]")
            }
            let words = try value.elements().map { word throws(JSONError) in try word.string() }
            guard let first = words.first, !first.isEmpty else { throw OptionError("\(value.path) must name a program") }
            let command = words.map { word in
                guard !word.hasPrefix("/"), word.contains("/") else { return word }
                let beside = source.directory + "/" + word
                return FileManager.default.fileExists(atPath: beside) ? beside : word
            }
            return ExecOptions(command: command).providerOptions
        }
    }
}

extension ExecDiscovery.Program {
    /// True when an entry with these options runs this program.
    public func isRun(by options: ProviderOptions) -> Bool { options.value(as: ExecOptions.self)?.command.first == path }
}
