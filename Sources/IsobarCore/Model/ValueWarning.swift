/// A value left out of an answer because it is impossible, in a unit Isobar does not know, or of the wrong type.
public struct ValueWarning: Sendable, Equatable {
    /// The quantity, e.g. `humidity_percent` or `visibility`.
    public var field: String
    /// Where it sat: a JSON path such as `$.main.humidity`, or the report's own location such as `current.humidity_percent`.
    public var path: String
    /// The value as sent, e.g. `250` or `"furlong"`.
    public var value: String
    /// Why it was left out, e.g. `outside 0…100` or `unknown unit`.
    public var reason: String

    /// Creates a warning.
    public init(field: String, path: String, value: String, reason: String) {
        self.field = field
        self.path = path
        self.value = value
        self.reason = reason
    }
}
