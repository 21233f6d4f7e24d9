/// Why a time zone could not be loaded; equal when the codes are equal.
public struct ZoneInfoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: Sendable, Equatable {
        /// The identifier is empty, absolute, climbs out of the zone directory (`..`) or holds characters no zone name has.
        case invalidIdentifier
        /// No zone file of that name exists (or it is a directory).
        case notFound
        /// The file exists but cannot be read.
        case unreadable
        /// The file (or a POSIX `TZ` string) is not valid TZif data.
        case corrupt
    }

    /// The kind of failure.
    public var code: Code
    /// One line for people.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }

    public static func == (lhs: ZoneInfoError, rhs: ZoneInfoError) -> Bool { lhs.code == rhs.code }
}
