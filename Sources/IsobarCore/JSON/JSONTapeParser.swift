/// Reads a JSON text (RFC 8259, any value at the top level) into a `JSONTape` in one pass, without an allocation per value.
///
/// It decides only what it is sure of: the well-formed texts that name no key twice in an object, whose integers fit in 64
/// bits and whose reals are finite, nested at most `maxDepth` deep. For anything else it gives up (nil), and jansson, which
/// accepts exactly those texts and more, reads the text instead and words the error. Every value it reads is the one jansson
/// would read: integers exact, reals correctly rounded.
struct JSONTapeParser {
    /// Deeper nesting is left to jansson (whose own limit is 2,048).
    static let maxDepth = 512

    private let text: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var nodes: [JSONTape.Node] = []
    /// Open containers: the index of each one's node.
    private var open: [Int] = []
    /// The key nodes of the objects open, innermost last; `keyFrames` holds where each object's keys start.
    private var keys: [Int] = []
    private var keyFrames: [Int] = []

    private init(_ text: UnsafeBufferPointer<UInt8>) {
        self.text = text
        nodes.reserveCapacity(min(text.count / 8 + 4, 1 << 16))
        // Room for the usual nesting and keys at once, rather than growing them a step at a time.
        open.reserveCapacity(16)
        keyFrames.reserveCapacity(16)
        keys.reserveCapacity(64)
    }

    /// The tape of `bytes`, or nil when the parser leaves the text to jansson.
    static func tape(of bytes: [UInt8]) -> JSONTape? {
        guard bytes.count <= JSONTape.maxBytes else { return nil }
        let nodes = bytes.withUnsafeBufferPointer { buffer -> [JSONTape.Node]? in
            var parser = JSONTapeParser(buffer)
            return parser.parseDocument() ? parser.nodes : nil
        }
        return nodes.map { JSONTape(nodes: $0, bytes: bytes) }
    }

    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":"),
                       comma = UInt8(ascii: ","), openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}"),
                       openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")

    @inline(__always) private mutating func skipSpace() {
        while position < text.count {
            switch text[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// The byte at the current position, or nil at the end.
    @inline(__always) private func peek() -> UInt8? { position < text.count ? text[position] : nil }

    private mutating func parseDocument() -> Bool {
        skipSpace()
        guard position < text.count else { return false }
        while true {
            // A value starts here.
            skipSpace()
            guard let byte = peek() else { return false }
            switch byte {
            case Self.openBrace:
                guard openContainer(.object) else { return false }
                skipSpace()
                if peek() == Self.closeBrace {
                    position += 1
                    guard closeContainer() else { return false }
                } else {
                    guard readKey() else { return false }
                    continue
                }
            case Self.openBracket:
                guard openContainer(.array) else { return false }
                skipSpace()
                if peek() == Self.closeBracket {
                    position += 1
                    guard closeContainer() else { return false }
                } else {
                    continue
                }
            case Self.quote:
                guard readString(asKey: false) else { return false }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard readNumber() else { return false }
            case UInt8(ascii: "t"):
                guard literal("true", .true) else { return false }
            case UInt8(ascii: "f"):
                guard literal("false", .false) else { return false }
            case UInt8(ascii: "n"):
                guard literal("null", .null) else { return false }
            default:
                return false
            }
            // A value ended: what follows it in its container, closing containers as they end.
            while true {
                guard let container = open.last else {
                    skipSpace()
                    return position == text.count
                }
                nodes[container].low += 1
                skipSpace()
                guard let next = peek() else { return false }
                position += 1
                if next == Self.comma {
                    if nodes[container].kind == .object {
                        skipSpace()
                        guard readKey() else { return false }
                    }
                    break
                }
                guard next == (nodes[container].kind == .object ? Self.closeBrace : Self.closeBracket), closeContainer() else { return false }
            }
        }
    }

    private mutating func openContainer(_ kind: JSONTape.Kind) -> Bool {
        guard open.count < Self.maxDepth else { return false }
        position += 1
        open.append(nodes.count)
        if kind == .object { keyFrames.append(keys.count) }
        nodes.append(.container(kind))
        return true
    }

    /// Ends the innermost container (its closing byte already read); false when an object named a key twice.
    private mutating func closeContainer() -> Bool {
        let container = open.removeLast()
        nodes[container].high = UInt32(nodes.count)
        guard nodes[container].kind == .object else { return true }
        let first = keyFrames.removeLast()
        defer { keys.removeSubrange(first...) }
        return hasDistinctKeys(keys[first...])
    }

    /// A key, then `:`; the key is kept for the duplicate check when its object ends.
    private mutating func readKey() -> Bool {
        guard peek() == Self.quote, readString(asKey: true) else { return false }
        skipSpace()
        guard peek() == Self.colon else { return false }
        position += 1
        return true
    }

    private mutating func literal(_ word: StaticString, _ kind: JSONTape.Kind) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= text.count else { return false }
        for offset in 0..<count where text[position + offset] != word.utf8Start[offset] { return false }
        position += count
        nodes.append(.literal(kind))
        return true
    }

    /// A string (the opening quote at the current position): unescaped, valid UTF-8 and free of control characters, its
    /// escapes well formed (a high surrogate followed by a low one). Escaped keys are left to jansson.
    private mutating func readString(asKey: Bool) -> Bool {
        let start = position + 1
        var index = start
        var escaped = false
        while true {
            guard index < text.count else { return false }
            let byte = text[index]
            if byte == Self.quote { break }
            if byte == Self.backslash {
                guard !asKey, let length = escapeLength(at: index) else { return false }
                escaped = true
                index += length
            } else if byte < 0x20 {
                return false
            } else if byte < 0x80 {
                index += 1
            } else {
                guard let length = utf8Length(at: index) else { return false }
                index += length
            }
        }
        position = index + 1
        if asKey { keys.append(nodes.count) }
        nodes.append(.string(escaped ? .escapedString : .plainString, start: start, length: index - start))
        return true
    }

    /// The length of the well-formed escape at `index` (a backslash), or nil.
    private func escapeLength(at index: Int) -> Int? {
        guard index + 1 < text.count else { return nil }
        switch text[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return 2
        case UInt8(ascii: "u"):
            guard let unit = JSONEscapes.hex4(text, at: index + 2) else { return nil }
            switch unit {
            case 0xDC00...0xDFFF:
                return nil
            case 0xD800...0xDBFF:
                guard index + 11 < text.count, text[index + 6] == Self.backslash, text[index + 7] == UInt8(ascii: "u"),
                      let low = JSONEscapes.hex4(text, at: index + 8), (0xDC00...0xDFFF).contains(low) else { return nil }
                return 12
            default:
                return 6
            }
        default:
            return nil
        }
    }

    /// The length of the well-formed UTF-8 sequence (Unicode's table: no overlong form, surrogate or value past U+10FFFF)
    /// starting at `index` with a byte of 0x80 or more, or nil.
    private func utf8Length(at index: Int) -> Int? {
        let lead = text[index]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard index + length <= text.count else { return nil }
        guard (low...high).contains(text[index + 1]) else { return nil }
        for offset in 2..<length where !(0x80...0xBF).contains(text[index + offset]) { return nil }
        return length
    }

    /// A number by JSON's grammar: an integer when it has neither fraction nor exponent (it must fit in `Int64`), else a
    /// finite real, correctly rounded.
    private mutating func readNumber() -> Bool {
        let start = position
        var index = position
        let negative = text[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < text.count, isDigit(text[index]) else { return false }
        // Significant digits gathered into `mantissa` while they fit (19 digits always do).
        var mantissa: UInt64 = 0
        var digits = 0
        var droppedDigits = false
        func take(_ digit: UInt8) {
            if digits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(digit - UInt8(ascii: "0"))
                if mantissa != 0 { digits += 1 }
            } else {
                droppedDigits = true
            }
        }
        if text[index] == UInt8(ascii: "0") {
            index += 1
            if index < text.count, isDigit(text[index]) { return false }
        } else {
            while index < text.count, isDigit(text[index]) {
                take(text[index])
                index += 1
            }
        }
        var isInteger = true
        var fractionDigits = 0
        if index < text.count, text[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < text.count, isDigit(text[index]) else { return false }
            while index < text.count, isDigit(text[index]) {
                take(text[index])
                if !droppedDigits { fractionDigits += 1 }
                index += 1
            }
        }
        var exponent = 0
        if index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            var exponentNegative = false
            if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < text.count, isDigit(text[index]) else { return false }
            while index < text.count, isDigit(text[index]) {
                exponent = min(exponent * 10 + Int(text[index] - UInt8(ascii: "0")), 100_000)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        position = index
        if isInteger {
            guard !droppedDigits, let value = Self.integer(mantissa, negative: negative) else { return false }
            nodes.append(.integer(value))
            return true
        }
        let value: Double
        let scale = exponent - fractionDigits
        if !droppedDigits, mantissa < (1 << 53), (-22...22).contains(scale) {
            // Exact: both the mantissa and the power of ten are exact doubles, and one rounding gives the nearest.
            let magnitude = scale < 0 ? Double(mantissa) / Self.powersOfTen[-scale] : Double(mantissa) * Self.powersOfTen[scale]
            value = negative ? -magnitude : magnitude
        } else {
            guard let parsed = Double(String(decoding: UnsafeBufferPointer(rebasing: text[start..<index]), as: UTF8.self)) else { return false }
            value = parsed
        }
        guard value.isFinite else { return false }
        nodes.append(.real(value))
        return true
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// The integer of that magnitude and sign, or nil past `Int64`.
    private static func integer(_ magnitude: UInt64, negative: Bool) -> Int64? {
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    private static let powersOfTen: [Double] = (0...22).map { power in (0..<power).reduce(1.0) { value, _ in value * 10 } }

    /// True when no two of an object's keys (plain strings) are the same.
    private func hasDistinctKeys(_ keys: ArraySlice<Int>) -> Bool {
        guard keys.count > 1 else { return true }
        // Pairwise up to a few dozen keys (most pairs differ in length): cheaper than hashing them into a set.
        if keys.count <= 24 {
            for (offset, key) in keys.enumerated() {
                for other in keys.dropFirst(offset + 1) where sameKey(key, other) { return false }
            }
            return true
        }
        var seen = Set<UInt64>(minimumCapacity: keys.count)
        for key in keys {
            // A repeated hash is a repeated key or, rarely, a collision: either way jansson decides.
            guard seen.insert(hash(key)).inserted else { return false }
        }
        return true
    }

    private func sameKey(_ first: Int, _ second: Int) -> Bool {
        let a = nodes[first], b = nodes[second]
        guard a.length == b.length else { return false }
        for offset in 0..<a.length where text[a.start + offset] != text[b.start + offset] { return false }
        return true
    }

    /// FNV-1a of a key's bytes.
    private func hash(_ key: Int) -> UInt64 {
        let node = nodes[key]
        var hash: UInt64 = 0xcbf29ce484222325
        for offset in 0..<node.length { hash = (hash ^ UInt64(text[node.start + offset])) &* 0x100000001b3 }
        return hash
    }
}
