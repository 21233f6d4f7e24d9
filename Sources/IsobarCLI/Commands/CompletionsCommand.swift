/// `isobar completions bash|zsh|fish`: prints the shell completion script, generated from the command table.
struct CompletionsCommand: IsobarCommand {
    typealias Own = CompletionsOptions
    static let spec = Commands.completions
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Prints the script of the shell named.
    func run() async throws -> ExitCode {
        let name = invocation.positionals[0]
        guard let shell = CompletionShell(rawValue: name.lowercased()) else {
            let shells = CompletionShell.allCases.map(\.rawValue)
            let suggestion = Spelling.closest(to: name, in: shells).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("no completions for the shell '\(name)'\(suggestion); shells are \(shells.joined(separator: ", "))")
        }
        if let kind = own.words.flatMap(CompletionWords.init(rawValue:)) {
            context.output.write(await context.completionWords(kind).map { $0 + "\n" }.joined())
            return .success
        }
        context.output.write(CompletionModel.standard.script(for: shell))
        return .success
    }
}
