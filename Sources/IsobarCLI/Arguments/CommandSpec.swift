/// One option a command accepts, described once for parsing, validation and help.
public struct OptionSpec: Sendable {
    /// Long name without dashes, e.g. `units`.
    public let name: String
    /// Placeholder for the value (`SYSTEM`), or nil for a flag.
    public let valueName: String?
    /// Allowed values, when the set is closed.
    public let choices: [String]?
    /// One line of help.
    public let help: String

    /// A flag (no value).
    public static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, choices: nil, help: help)
    }

    /// An option taking a value.
    public static func value(_ name: String, _ valueName: String, _ help: String, choices: [String]? = nil) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, choices: choices, help: help)
    }
}

/// A command's name, arguments and options.
public struct CommandSpec: Sendable {
    /// Name typed after `isobar`, e.g. `compare`.
    public let name: String
    /// One-line summary for help.
    public let summary: String
    /// Positional arguments in order, e.g. `["PLACE"]`; all required.
    public let arguments: [String]
    /// Positional arguments that may follow the required ones.
    public let optionalArguments: [String]
    /// The words the first positional argument may be (`add`, `remove`), when it names an action; empty otherwise.
    public let actions: [String]
    /// Options besides the common ones.
    public let options: [OptionSpec]
    /// Longer help text shown under the usage line.
    public let discussion: String

    /// Creates a command description.
    public init(name: String, summary: String, arguments: [String], optionalArguments: [String] = [], actions: [String] = [],
                options: [OptionSpec], discussion: String = "") {
        self.name = name
        self.summary = summary
        self.arguments = arguments
        self.optionalArguments = optionalArguments
        self.actions = actions
        self.options = options
        self.discussion = discussion
    }
}

/// What was given on the command line for one command.
public struct ParsedArguments: Sendable, Equatable {
    /// Positional arguments.
    public var positionals: [String] = []
    /// Option values by name; flags map to `""`.
    public var options: [String: String] = [:]

    /// True when a flag was given.
    public func has(_ name: String) -> Bool { options[name] != nil }

    /// The value of an option, if given.
    public subscript(_ name: String) -> String? { options[name] }
}
