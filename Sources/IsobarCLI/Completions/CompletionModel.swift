/// A shell `isobar completions` writes a script for.
enum CompletionShell: String, Sendable, CaseIterable {
    /// GNU bash, through `complete -F`.
    case bash
    /// zsh, through `compdef` and `_arguments`.
    case zsh
    /// fish, through `complete -c`.
    case fish
}

/// Words a completion script asks `isobar completions SHELL --words KIND` for while completing, read from the user's data.
enum CompletionWords: String, Sendable, CaseIterable {
    /// Home, the saved cities and the places asked about lately by name.
    case places
    /// Every id output prints for the configured providers (`open-meteo`, `open-meteo/ecmwf_ifs025`).
    case providers

    /// The words a positional argument of this name takes, if any are known.
    static func forArgument(_ name: String) -> CompletionWords? {
        switch name {
        case "PLACE", "TO": .places
        case "ID": .providers
        default: nil
        }
    }
}

/// What a shell can complete after `isobar`, read from the command table so the scripts never drift from the commands.
struct CompletionModel: Sendable {
    /// What may follow an option.
    enum Value: Sendable, Equatable {
        /// Nothing: the option is a flag.
        case none
        /// One of a closed set of words.
        case words([String])
        /// A file name.
        case file
        /// A directory name.
        case directory
        /// Free text (a number): nothing to offer.
        case text
        /// A comma-separated list of words read from the user's data when completing.
        case listed(CompletionWords)
    }

    /// One option of a command.
    struct Option: Sendable {
        /// Long name without dashes.
        let name: String
        /// One-letter alias without the dash, if any.
        let short: Character?
        /// One line of help.
        let help: String
        /// What follows it.
        let value: Value
    }

    /// One command and what may follow it.
    struct Command: Sendable {
        /// Name typed after `isobar`.
        let name: String
        /// One-line summary.
        let summary: String
        /// Positional arguments in order, required ones first.
        let arguments: [String]
        /// How many of `arguments` are required.
        let required: Int
        /// The words the first argument may be, or empty.
        let actions: [String]
        /// What each positional argument (in `arguments`' order) is completed from, if anything.
        var argumentWords: [CompletionWords?] { arguments.map(CompletionWords.forArgument) }
        /// Its options, in help order.
        let options: [Option]
    }

    /// The commands, in help order.
    let commands: [Command]
    /// Options given with no command: help and version.
    let topLevel: [Option]
    /// The word that shows a command's help: `isobar help COMMAND`.
    let helpWord = "help"

    /// The model of the given command descriptions.
    init(_ specs: [CommandSpec]) {
        commands = specs.map { spec in
            Command(name: spec.name, summary: spec.summary, arguments: spec.arguments + spec.optionalArguments, required: spec.arguments.count,
                    actions: spec.actions, options: spec.options.map(Self.option))
        }
        topLevel = [Option(name: "help", short: "h", help: "show help", value: .none),
                    Option(name: "version", short: "V", help: "print the version", value: .none)]
    }

    /// The model of every command in the table.
    static var standard: CompletionModel { CompletionModel(CommandTable.specs) }

    /// Every option name (without dashes) that takes a value, in any command, sorted.
    var valueOptions: [String] {
        Set(commands.flatMap { $0.options.filter { $0.value != .none }.map(\.name) }).sorted()
    }

    /// The script for `shell`.
    func script(for shell: CompletionShell) -> String {
        switch shell {
        case .bash: BashCompletion(model: self).script
        case .zsh: ZshCompletion(model: self).script
        case .fish: FishCompletion(model: self).script
        }
    }

    private static func option(_ spec: OptionSpec) -> Option {
        let value: Value
        if let choices = spec.choices {
            value = .words(choices)
        } else {
            switch spec.valueName {
            case nil: value = .none
            case "FILE": value = .file
            case "DIR": value = .directory
            case "IDS": value = .listed(.providers)
            default: value = .text
            }
        }
        return Option(name: spec.name, short: spec.name == "help" ? "h" : nil, help: spec.help, value: value)
    }
}
