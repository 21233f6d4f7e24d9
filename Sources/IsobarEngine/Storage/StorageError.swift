/// A storage backend could not do what was asked; the message names the file or server and the cause.
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line for people.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
