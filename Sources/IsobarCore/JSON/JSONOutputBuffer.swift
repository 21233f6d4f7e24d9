/// Compact JSON text written straight into UTF-8 bytes, exactly as `JSONOutput.serialized()` writes it: members in the order
/// written, strings escaped only where they need it, numbers in shortest round-trip form, and the commas placed by the buffer.
///
/// Write a value with one call (`string`, `number`, …), a member with `key` then its value, and nest with `beginObject` /
/// `endObject` and `beginArray` / `endArray`.
public struct JSONOutputBuffer: Sendable {
    /// The text written so far, as UTF-8.
    public private(set) var bytes: [UInt8] = []
    /// True when the next value or key follows another in the same object or array.
    private var needsComma = false

    /// An empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Empties the buffer, keeping its storage for the next text.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    /// Ends a line: a line feed, and the next value starts a new text.
    public mutating func endLine() {
        bytes.append(0x0A)
        needsComma = false
    }

    // MARK: Structure

    /// `{`: members follow.
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
    }

    /// `}`.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// `[`: elements follow.
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
    }

    /// `]`.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A member's key and colon, for a name written in the source (printable ASCII without `"` or `\`, so written as it is).
    public mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A member's key and colon, for a name made at run time: escaped as any string.
    public mutating func key(text name: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Values

    /// `null`.
    public mutating func null() {
        separate()
        appendASCII("null")
        needsComma = true
    }

    /// `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        appendASCII(value ? "true" : "false")
        needsComma = true
    }

    /// `true`, `false`, or `null` when absent.
    public mutating func bool(_ value: Bool?) {
        guard let value else { return null() }
        bool(value)
    }

    /// A whole number.
    public mutating func integer(_ value: Int) {
        separate()
        appendInteger(value)
        needsComma = true
    }

    /// A whole number, or `null` when absent.
    public mutating func integer(_ value: Int?) {
        guard let value else { return null() }
        integer(value)
    }

    /// A number in its shortest form (see `JSONOutput.format`), `null` when not finite.
    public mutating func number(_ value: Double) {
        separate()
        appendNumber(value)
        needsComma = true
    }

    /// A number, or `null` when absent or not finite.
    public mutating func number(_ value: Double?) {
        guard let value else { return null() }
        number(value)
    }

    /// A string, escaped where it must be.
    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    /// A string, or `null` when absent.
    public mutating func string(_ value: String?) {
        guard let value else { return null() }
        string(value)
    }

    /// An array of strings. Inlinable, so that a caller's sequence (a lazy filter, say) is walked by code specialised for it.
    @inlinable
    public mutating func strings(_ values: some Sequence<String>) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    /// A value already written as compact JSON text (by another buffer), copied as it is.
    public mutating func serialized(_ text: [UInt8]) {
        separate()
        bytes.append(contentsOf: text)
        needsComma = true
    }

    /// A value built as a tree.
    public mutating func value(_ value: JSONOutput) {
        switch value {
        case .null: null()
        case .bool(let value): bool(value)
        case .integer(let value): integer(value)
        case .number(let value): number(value)
        case .string(let value): string(value)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, member) in members {
                key(text: name)
                self.value(member)
            }
            endObject()
        }
    }

    // MARK: Bytes

    /// Starts a string whose text the caller appends with `appendByte` and `appendPadded`, needing no escape.
    mutating func beginPlainString() {
        separate()
        bytes.append(UInt8(ascii: "\""))
    }

    /// Ends a string started with `beginPlainString`.
    mutating func endPlainString() {
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// One byte of text.
    mutating func appendByte(_ byte: UInt8) { bytes.append(byte) }

    /// `value` in decimal with zeros in front up to `width` digits, and `-` before them when negative (as `CivilTime` pads).
    /// The text is written backwards into a buffer on the stack and appended at once; a `width` above 20 counts as 20.
    mutating func appendPadded(_ value: Int, width: Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.paddedCapacity) { text in
            var start = text.count
            var magnitude = value.magnitude
            repeat {
                start -= 1
                text[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            while text.count - start < min(width, Self.paddedCapacity - 1) {
                start -= 1
                text[start] = UInt8(ascii: "0")
            }
            if value < 0 {
                start -= 1
                text[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
        }
    }

    /// Room for `appendPadded`'s text: a sign and 20 digits, the most padding or any `Int` takes.
    private static let paddedCapacity = 21

    /// A comma before a value that follows another.
    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = false
    }

    private mutating func appendASCII(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Decimal digits, with `-` for a negative value.
    private mutating func appendInteger(_ value: Int) { appendPadded(value, width: 0) }

    /// The text `JSONOutput.format` gives: whole values up to 2⁵³ as integers, others in shortest round-trip form.
    private mutating func appendNumber(_ value: Double) {
        guard value.isFinite else { return appendASCII("null") }
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 { return appendInteger(Int(value)) }
        if let thousandths = Self.thousandths(value) { return appendThousandths(thousandths) }
        appendUTF8(value.description)
    }

    /// `value` × 1000 when `value` is the double nearest a decimal of at most three places below 10⁹ in size: that decimal
    /// is then `value`'s shortest round-trip form (doubles that size lie far less than 0.001 apart), so it is written from
    /// the integer without the general conversion. Most numbers written are such decimals (values rounded to 3 places).
    static func thousandths(_ value: Double) -> Int? {
        guard abs(value) < 1e9 else { return nil }
        let scaled = (value * 1000).rounded()
        guard scaled / 1000 == value else { return nil }
        return Int(scaled)
    }

    /// A decimal of thousandths that is not whole: `-`, the whole part, `.` and one to three places, no trailing zero.
    private mutating func appendThousandths(_ thousandths: Int) {
        if thousandths < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = thousandths.magnitude
        appendPadded(Int(magnitude / 1000), width: 0)
        bytes.append(UInt8(ascii: "."))
        let places = magnitude % 1000
        if places % 100 == 0 {
            appendPadded(Int(places / 100), width: 1)
        } else if places % 10 == 0 {
            appendPadded(Int(places / 10), width: 2)
        } else {
            appendPadded(Int(places), width: 3)
        }
    }

    private mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A string in quotes: `"` and `\` escaped with a backslash, line feed, carriage return and tab as `\n`, `\r`, `\t`,
    /// other control characters as `\u00xx`; everything else (all of non-ASCII) as it is.
    private mutating func appendQuoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var run = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                appendEscape(byte)
                run = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
        }
    }
}
