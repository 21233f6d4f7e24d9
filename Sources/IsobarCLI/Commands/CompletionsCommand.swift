/// `isobar completions bash|zsh|fish`: prints the shell completion script, generated from the command table.
enum CompletionsCommand: IsobarCommand {
    static let spec = Commands.completions
    static func run(_ invocation: Invocation, on cli: IsobarCommandLine) async throws -> ExitCode {
        let name = invocation.positionals[0]
        guard let shell = CompletionShell(rawValue: name.lowercased()) else {
            let shells = CompletionShell.allCases.map(\.rawValue)
            let suggestion = Spelling.closest(to: name, in: shells).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("no completions for the shell '\(name)'\(suggestion); shells are \(shells.joined(separator: ", "))")
        }
        if let kind = invocation.options.completionWords.flatMap(CompletionWords.init(rawValue:)) {
            cli.output.write(await cli.completionWords(kind).map { $0 + "\n" }.joined())
            return .success
        }
        cli.output.write(CompletionModel.standard.script(for: shell))
        return .success
    }
}
