/// How wide table output may be, in terminal cells.
public enum TerminalWidth: Sendable {
    /// The narrowest width laid out for: a smaller `COLUMNS` or terminal counts as this.
    public static let minimum = 20

    /// `COLUMNS` when it is a whole number above zero, else the width of `output` when it is a terminal, else nil:
    /// no limit, so output into a pipe or a file is the same whatever the terminal.
    public static func resolve(environment: [String: String], output: any OutputSink) -> Int? {
        if let text = environment["COLUMNS"], let columns = Int(text.trimmingSpaces()), columns > 0 {
            return max(minimum, columns)
        }
        guard output.isTerminal, let columns = output.columns, columns > 0 else { return nil }
        return max(minimum, columns)
    }
}
