/// Cuts members out of a JSON object's top level without parsing their values: a scan that only follows strings and
/// brackets, so that a large block nobody asked for (Open-Meteo's 16 days of hours) costs a pass over its bytes instead
/// of a parse of its thousands of numbers.
enum TopLevelMembers {
    /// `body` without the top-level members named in `dropped`, or nil when it is not one object whose members can be
    /// followed (the caller then parses the body as it is, so that errors are reported as before). Keys written with
    /// escapes are kept.
    static func removing(_ dropped: Set<String>, from body: [UInt8]) -> [UInt8]? {
        body.withUnsafeBufferPointer { bytes -> [UInt8]? in
            var scanner = Scanner(bytes: bytes)
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: "{")) else { return nil }
            var kept: [Range<Int>] = []
            var removed = false
            scanner.skipSpace()
            if scanner.take(UInt8(ascii: "}")) { return scanner.atEndAfterSpace() ? body : nil }
            while true {
                scanner.skipSpace()
                let start = scanner.offset
                guard let key = scanner.string() else { return nil }
                scanner.skipSpace()
                guard scanner.take(UInt8(ascii: ":")) else { return nil }
                scanner.skipSpace()
                guard scanner.skipValue() else { return nil }
                let name = String(decoding: bytes[(key.lowerBound + 1)..<(key.upperBound - 1)], as: UTF8.self)
                if dropped.contains(name) {
                    removed = true
                } else {
                    kept.append(start..<scanner.offset)
                }
                scanner.skipSpace()
                if scanner.take(UInt8(ascii: ",")) { continue }
                guard scanner.take(UInt8(ascii: "}")), scanner.atEndAfterSpace() else { return nil }
                break
            }
            guard removed else { return body }
            var trimmed: [UInt8] = [UInt8(ascii: "{")]
            trimmed.reserveCapacity(kept.reduce(2) { $0 + $1.count + 1 })
            for (index, range) in kept.enumerated() {
                if index > 0 { trimmed.append(UInt8(ascii: ",")) }
                trimmed.append(contentsOf: bytes[range])
            }
            trimmed.append(UInt8(ascii: "}"))
            return trimmed
        }
    }

    /// A cursor over the body's bytes.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        }

        mutating func skipSpace() {
            while offset < bytes.count, Self.isSpace(bytes[offset]) { offset += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard offset < bytes.count, bytes[offset] == byte else { return false }
            offset += 1
            return true
        }

        mutating func atEndAfterSpace() -> Bool {
            skipSpace()
            return offset == bytes.count
        }

        /// A string's range, quotes included; nil when there is none or it never ends. A key with escapes gets a range whose
        /// text holds the backslashes, so it matches no plain name.
        mutating func string() -> Range<Int>? {
            let start = offset
            guard take(UInt8(ascii: "\"")) else { return nil }
            while offset < bytes.count {
                offset = Self.nextQuoteOrBackslash(in: bytes, from: offset)
                guard offset < bytes.count else { break }
                switch bytes[offset] {
                case UInt8(ascii: "\\"): offset += 2
                case UInt8(ascii: "\""):
                    offset += 1
                    return start..<offset
                default: offset += 1
                }
            }
            return nil
        }

        /// The offset of the first `"`, `[`, `]`, `{` or `}` at or after `offset` (the end when none): eight bytes at a
        /// time through the long runs of numbers between them.
        @inline(__always)
        static func nextStructural(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int {
            var index = offset
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while index + 8 <= bytes.count {
                    let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    // `[` and `]` are `{` and `}` without the 0x20 bit.
                    let folded = word | 0x2020_2020_2020_2020
                    let found = zeroBytes(word ^ 0x2222_2222_2222_2222) | zeroBytes(folded ^ 0x7B7B_7B7B_7B7B_7B7B)
                        | zeroBytes(folded ^ 0x7D7D_7D7D_7D7D_7D7D)
                    if found != 0 { return index + found.trailingZeroBitCount >> 3 }
                    index += 8
                }
            }
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"): return index
                default: index += 1
                }
            }
            return index
        }

        /// The offset of the first `"` or `\` at or after `offset` (the end when none).
        @inline(__always)
        static func nextQuoteOrBackslash(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int {
            var index = offset
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while index + 8 <= bytes.count {
                    let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    let found = zeroBytes(word ^ 0x2222_2222_2222_2222) | zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C)
                    if found != 0 { return index + found.trailingZeroBitCount >> 3 }
                    index += 8
                }
            }
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
            return index
        }

        /// The high bit of each byte of `word` that is zero; exact up to the first zero byte (the lowest set bit), which
        /// is all the callers read.
        @inline(__always)
        static func zeroBytes(_ word: UInt64) -> UInt64 {
            (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
        }

        /// Moves past one value (its strings and brackets followed, its scalars taken as they are); false when it never ends.
        mutating func skipValue() -> Bool {
            guard offset < bytes.count else { return false }
            switch bytes[offset] {
            case UInt8(ascii: "\""): return string() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while offset < bytes.count {
                    offset = Self.nextStructural(in: bytes, from: offset)
                    guard offset < bytes.count else { break }
                    switch bytes[offset] {
                    case UInt8(ascii: "\""):
                        guard string() != nil else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            offset += 1
                            return true
                        }
                    default: break
                    }
                    offset += 1
                }
                return false
            default:
                let start = offset
                while offset < bytes.count, !Self.isSpace(bytes[offset]) {
                    let byte = bytes[offset]
                    if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") { break }
                    offset += 1
                }
                return offset > start
            }
        }
    }
}
