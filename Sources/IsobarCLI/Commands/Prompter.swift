#if canImport(Glibc)
import Glibc
#endif

/// Where a command's questions are answered: a person at a terminal, or (in tests) a script of answers.
public struct Prompter: Sendable {
    /// True when a person can answer.
    public let isTerminal: Bool
    /// The next answer line without its line feed; nil at the end of input.
    public let readAnswer: @Sendable () -> String?

    /// A prompter over the given source of answers.
    public init(isTerminal: Bool, readAnswer: @escaping @Sendable () -> String?) {
        self.isTerminal = isTerminal
        self.readAnswer = readAnswer
    }

    /// Standard input, asked only when it is a terminal.
    public static func standardInput() -> Prompter {
        Prompter(isTerminal: isatty(STDIN_FILENO) == 1, readAnswer: { readLine(strippingNewline: true) })
    }
}
