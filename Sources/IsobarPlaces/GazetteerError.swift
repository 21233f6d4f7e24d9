import IsobarCore

/// Why a place search gave no answer; equal when the codes are equal.
public struct GazetteerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: Sendable, Equatable {
        /// The gazetteer file does not exist.
        case missingFile
        /// The gazetteer file exists but cannot be read.
        case unreadableFile
        /// The gazetteer file is not a valid gazetteer (wrong format, version, truncated or damaged).
        case corruptFile
        /// The query cannot be searched: empty, too short, too long, control characters, invalid UTF-8.
        case invalidQuery
        /// The query is a coordinate pair that is malformed or out of range.
        case invalidCoordinate
        /// No place matches the query.
        case notFound
    }

    /// The kind of failure.
    public var code: Code
    /// One line for people.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = MessageText.oneLine(message)
    }

    /// The message.
    public var description: String { message }

    /// Errors are equal when their codes are.
    public static func == (lhs: GazetteerError, rhs: GazetteerError) -> Bool { lhs.code == rhs.code }
}
