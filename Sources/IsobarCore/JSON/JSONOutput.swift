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
    public func serialized() -> String {
        var output = ""
        write(to: &output)
        return output
    }

    /// Appends compact JSON text to `output`.
    public func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value): output += JSONOutput.format(value)
        case .string(let value): JSONOutput.writeString(value, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                JSONOutput.writeString(key, to: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    /// Shortest text that reads back as the same number; integral values print without a fraction.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 {
            return String(Int(value))
        }
        return value.description
    }

    private static func writeString(_ value: String, to output: inout String) {
        // Most strings need no escape: appended whole, not scalar by scalar.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output += "\""
            output += value
            output += "\""
            return
        }
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    public static func == (lhs: JSONOutput, rhs: JSONOutput) -> Bool {
        lhs.serialized() == rhs.serialized()
    }
}
