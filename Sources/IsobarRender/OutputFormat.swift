/// How a command writes its output.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// Tables and sentences for people.
    case table
    /// One JSON object per line.
    case jsonl
    /// Comma-separated values: one row per place × source × time.
    case csv

    /// The formats of commands that show weather (compare, now, forecast).
    public static let weather: [OutputFormat] = [.table, .jsonl, .csv]
    /// The formats of the other commands.
    public static let lines: [OutputFormat] = [.table, .jsonl]

    /// The kind of text the format writes, which decides how it is put in ASCII under a locale that is not UTF-8.
    public var text: OutputText {
        switch self {
        case .table: .people
        case .jsonl: .jsonLines
        case .csv: .csv
        }
    }
}
