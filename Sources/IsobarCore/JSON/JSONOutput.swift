/// A JSON value built for output, with members kept in the order given and numbers in shortest round-trip form.
public enum JSONOutput: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, printed in its shortest form.
    case number(Double)
    /// A whole number.
    case integer(Int)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONOutput])
    /// An object, its members in this order.
    case object([(String, JSONOutput)])

    /// A number, or null when absent or not finite.
    public static func number(_ value: Double?) -> JSONOutput {
        guard let value, value.isFinite else { return .null }
        return .number(value)
    }

    /// A string, or null when absent.
    public static func string(_ value: String?) -> JSONOutput {
        value.map(JSONOutput.string) ?? .null
    }

    /// Compact JSON text on one line.
    public func serialized() -> String { String(decoding: utf8(), as: UTF8.self) }

    /// Compact JSON text on one line, as UTF-8 bytes.
    public func utf8() -> [UInt8] {
        var buffer = JSONOutputBuffer()
        buffer.value(self)
        return buffer.bytes
    }

    /// Appends compact JSON text to `output`.
    public func write(to output: inout String) { output += serialized() }

    /// Shortest text that reads back as the same number; integral values print without a fraction.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 {
            return String(Int(value))
        }
        return value.description
    }

    /// Equal when the text is equal.
    public static func == (lhs: JSONOutput, rhs: JSONOutput) -> Bool {
        lhs.utf8() == rhs.utf8()
    }
}
