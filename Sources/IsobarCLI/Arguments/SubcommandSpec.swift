/// One action of a command (`cities add`, `providers check`), described once: its name and other names, its arguments,
/// its summary for `--help`, and what runs it. A command's actions are a table of these (see `CommandWithActions`).
struct SubcommandSpec<Parent: Sendable>: Sendable {
    /// The word typed after the command, e.g. `add`.
    let name: String
    /// Other words for it, e.g. `rm` for `remove`.
    let aliases: [String]
    /// Its arguments after the action, e.g. `["FROM", "TO"]`.
    let arguments: [String]
    /// Arguments it may take after those.
    let optionalArguments: [String]
    /// One line for `--help`.
    let summary: String
    /// Runs it as part of `Parent`.
    let run: @Sendable (Parent) async throws -> ExitCode

    /// An action and what runs it.
    init(_ name: String, aliases: [String] = [], arguments: [String] = [], optionalArguments: [String] = [], summary: String,
         run: @escaping @Sendable (Parent) async throws -> ExitCode) {
        self.name = name
        self.aliases = aliases
        self.arguments = arguments
        self.optionalArguments = optionalArguments
        self.summary = summary
        self.run = run
    }

    /// Its help, as a command of its own named `parent action`, taking `parent`'s options.
    func spec(of parent: CommandSpec) -> CommandSpec {
        CommandSpec(name: "\(parent.name) \(name)", summary: summary, arguments: arguments, optionalArguments: optionalArguments,
                    options: parent.options)
    }
}

/// One action of a command as a type of its own (`CityAddCommand`): made with what its command runs with, then run.
protocol ActionCommand: Sendable {
    /// The action, given what its command runs with and its command's validated invocation.
    init(context: CommandContext, invocation: Invocation)
    /// Runs it and returns the exit code.
    func run() async throws -> ExitCode
}

extension SubcommandSpec where Parent: CommandWithActions {
    /// An action run by the type `action`.
    init<Action: ActionCommand>(_ name: String, aliases: [String] = [], arguments: [String] = [], optionalArguments: [String] = [],
                                summary: String, runs action: Action.Type) {
        self.init(name, aliases: aliases, arguments: arguments, optionalArguments: optionalArguments, summary: summary) {
            try await Action(context: $0.context, invocation: $0.invocation).run()
        }
    }
}

/// A command whose first argument names one of its actions (`isobar cities add PLACE`): the actions are a table, the first
/// argument picks one (the default when there is none), and an unknown one is a usage error naming them all.
protocol CommandWithActions: IsobarCommand {
    /// Its actions, in help order.
    static var subcommands: [SubcommandSpec<Self>] { get }
    /// The action run when none is named.
    static var defaultAction: String { get }
    /// What it runs with, handed to its actions.
    var context: CommandContext { get }
    /// Its arguments and options.
    var invocation: Invocation { get }
    /// The usage error for an action it does not have.
    static func unknownAction(_ word: String) -> UsageError
}

extension CommandWithActions {
    /// Every word that names an action, aliases after their action, in help order.
    static var actionNames: [String] { subcommands.flatMap { [$0.name] + $0.aliases } }

    /// `unknown cities action 'ad'; did you mean 'add'?; actions are list, add, remove, rm, move`.
    static func unknownAction(_ word: String) -> UsageError {
        let names = actionNames
        let suggestion = Spelling.closest(to: word, in: names).map { "; did you mean '\($0)'?" } ?? ""
        return UsageError("unknown \(spec.name) action '\(word)'\(suggestion); actions are \(names.joined(separator: ", "))")
    }

    /// The action `word` names, or nil.
    static func subcommand(named word: String) -> SubcommandSpec<Self>? {
        subcommands.first { $0.name == word || $0.aliases.contains(word) }
    }

    /// The action the invocation names (the default when it names none); an unknown one is a usage error.
    static func action(_ invocation: Invocation) throws(UsageError) -> SubcommandSpec<Self> {
        let word = invocation.positionals.first ?? defaultAction
        guard let action = subcommand(named: word) else { throw unknownAction(word) }
        return action
    }

    /// The help of the action `word` names, when it names one.
    static func actionHelp(_ word: String) -> CommandSpec? { subcommand(named: word)?.spec(of: spec) }

    /// Runs the action the invocation names.
    func runAction() async throws -> ExitCode { try await Self.action(invocation).run(self) }
}
