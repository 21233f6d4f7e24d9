#if canImport(Glibc)
import Glibc
#endif

/// A parsed JSON text as a flat list of nodes in document order, over the bytes its strings are read from: no node is an
/// allocation of its own, and a string is decoded only when it is read.
///
/// An object's node is followed by its members, each a key (a string node) and then the value's nodes; an array's node by
/// its elements. A container records its member or element count and the index just past its last node, so a reader
/// steps over a whole value at once.
final class JSONTape: Sendable {
    /// What a node is.
    enum Kind: UInt8 {
        case null, `false`, `true`, integer, real
        /// A string with no escapes: its bytes are its UTF-8.
        case plainString
        /// A string with backslash escapes, decoded when read.
        case escapedString
        case array, object
    }

    /// One value (or an object's key), in 12 bytes: texts up to 4 GiB (`maxBytes`).
    struct Node {
        var kind: Kind
        /// A string's first byte, a container's member or element count, or the low half of a number's bits.
        var low: UInt32
        /// A string's length in bytes, a container's end (the index just past its last node), or the high half of a
        /// number's bits.
        var high: UInt32

        /// A string over `length` bytes from `start`.
        static func string(_ kind: Kind, start: Int, length: Int) -> Node { Node(kind: kind, low: UInt32(start), high: UInt32(length)) }

        /// A container, its count and end set when it closes.
        static func container(_ kind: Kind) -> Node { Node(kind: kind, low: 0, high: 0) }

        /// `true`, `false` or `null`.
        static func literal(_ kind: Kind) -> Node { Node(kind: kind, low: 0, high: 0) }

        /// An integer.
        static func integer(_ value: Int64) -> Node { number(.integer, UInt64(bitPattern: value)) }

        /// A real.
        static func real(_ value: Double) -> Node { number(.real, value.bitPattern) }

        private static func number(_ kind: Kind, _ bits: UInt64) -> Node {
            Node(kind: kind, low: UInt32(truncatingIfNeeded: bits), high: UInt32(truncatingIfNeeded: bits >> 32))
        }

        /// A string's first byte.
        var start: Int { Int(low) }
        /// A string's length.
        var length: Int { Int(high) }
        /// A container's member or element count.
        var count: Int { Int(low) }
        /// A container's end: the index just past its last node.
        var end: Int { Int(high) }
        /// A number's bits.
        var bits: UInt64 { UInt64(high) << 32 | UInt64(low) }

        /// The index of the node after this value, which sits at `index`.
        @inline(__always) func next(after index: Int) -> Int {
            kind == .array || kind == .object ? end : index + 1
        }
    }

    /// The longest text a tape holds (its offsets are 32 bits).
    static let maxBytes = Int(UInt32.max) - 1

    /// The nodes; the first is the top-level value.
    let nodes: [Node]
    /// The bytes strings point into: the parsed text itself, or decoded strings one after another.
    let bytes: [UInt8]

    /// A tape of `nodes` over `bytes`.
    init(nodes: [Node], bytes: [UInt8]) {
        self.nodes = nodes
        self.bytes = bytes
    }

    /// The integer at `index`.
    func integer(_ index: Int) -> Int64 { Int64(bitPattern: nodes[index].bits) }

    /// The real at `index`.
    func real(_ index: Int) -> Double { Double(bitPattern: nodes[index].bits) }

    /// Calls `body` with the UTF-8 of the string at `index`, decoding its escapes first if it has any.
    func withString<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let node = nodes[index]
        return bytes.withUnsafeBufferPointer { all in
            let raw = UnsafeBufferPointer(rebasing: all[node.start..<(node.start + node.length)])
            guard node.kind == .escapedString else { return body(raw) }
            let decoded = JSONEscapes.decode(raw)
            return decoded.withUnsafeBufferPointer(body)
        }
    }

    /// The string at `index`.
    func string(_ index: Int) -> String {
        withString(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// True when the string at `index` is `key`.
    func string(_ index: Int, equals key: UnsafeBufferPointer<UInt8>) -> Bool {
        let node = nodes[index]
        if node.kind == .plainString {
            guard node.length == key.count else { return false }
            return bytes.withUnsafeBufferPointer { all in
                guard let base = all.baseAddress, let other = key.baseAddress else { return key.isEmpty }
                return memcmp(base + node.start, other, key.count) == 0
            }
        }
        return withString(index) { $0.elementsEqual(key) }
    }
}

/// Backslash escapes inside JSON strings, already checked by the parser.
enum JSONEscapes {
    /// The UTF-8 of a string's raw bytes (between its quotes) with its escapes decoded.
    static func decode(_ raw: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            let escape = raw[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = UInt32(hex4(raw, at: index) ?? 0)
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    let low = UInt32(hex4(raw, at: index + 2) ?? 0)
                    index += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                appendUTF8(scalar, to: &out)
            default: out.append(escape)
            }
        }
        return out
    }

    /// The value of the four hex digits at `index`, or nil when they are not four hex digits.
    static func hex4(_ raw: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt16? {
        guard index + 4 <= raw.count else { return nil }
        var value: UInt16 = 0
        for offset in 0..<4 {
            let byte = raw[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Appends the UTF-8 of a Unicode scalar value.
    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
