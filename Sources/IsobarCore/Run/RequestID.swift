/// Identifies one request among many in flight through one engine.
public struct RequestID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The request's number, in the order the engine took it.
    public let rawValue: Int

    /// Wraps a number.
    public init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Orders by number.
    public static func < (lhs: RequestID, rhs: RequestID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The number.
    public var description: String { String(rawValue) }
}
