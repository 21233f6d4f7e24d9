/// Why a document is not XML this reader takes: what is wrong, and on which line.
public struct XMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `</info> closes <area>`.
    public var message: String
    /// The line it was found on, from 1.
    public var line: Int

    /// Creates an error; text from the document in `message` is made fit for one line.
    public init(_ message: String, line: Int) {
        self.message = MessageText.oneLine(message)
        self.line = line
    }

    /// `line 12: </info> closes <area>`.
    public var description: String { "line \(line): \(message)" }
}
