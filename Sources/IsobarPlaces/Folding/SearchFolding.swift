/// Folds names for search the way `scripts/make-gazetteer.py` folded them when it sorted the index:
/// each scalar lower-cased on its own, then replaced through `foldingTable`, runs of spaces collapsed
/// and the ends trimmed. Folded text is kept as Unicode scalar values, whose order is the UTF-8 byte
/// order the script sorted by.
public enum SearchFolding {
    /// The folded scalars of `text`: `"São Paulo"` → `"sao paulo"`, `"Łódź"` → `"lodz"`.
    public static func fold(_ text: String) -> [UInt32] {
        var folded: [UInt32] = []
        folded.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars { append(scalar, to: &folded) }
        trimTrailingSpace(&folded)
        return folded
    }

    /// `fold(_:)` as a `String`.
    public static func foldedString(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for value in fold(text) {
            if let scalar = Unicode.Scalar(value) { result.append(scalar) }
        }
        return String(result)
    }

    /// Folds the UTF-8 `bytes[range]` into `folded` (emptied first); stops early once it holds more than `limit` scalars.
    static func fold(utf8 bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into folded: inout [UInt32], limit: Int = .max) {
        folded.removeAll(keepingCapacity: true)
        var position = range.lowerBound
        while position < range.upperBound {
            let byte = bytes[position]
            if byte < 0x80 {
                appendASCII(byte, to: &folded)
                position += 1
            } else {
                let (value, length) = decodeScalar(bytes, at: position, end: range.upperBound)
                append(Unicode.Scalar(value) ?? "\u{FFFD}", to: &folded)
                position += length
            }
            if folded.count > limit { return }
        }
        trimTrailingSpace(&folded)
    }

    /// Appends the folded form of one scalar, never starting with or doubling a space.
    static func append(_ scalar: Unicode.Scalar, to folded: inout [UInt32]) {
        if scalar.isASCII {
            appendASCII(UInt8(scalar.value), to: &folded)
            return
        }
        let properties = scalar.properties
        if properties.changesWhenLowercased {
            for lower in properties.lowercaseMapping.unicodeScalars { appendMapped(lower, to: &folded) }
        } else {
            appendMapped(scalar, to: &folded)
        }
    }

    private static func appendMapped(_ scalar: Unicode.Scalar, to folded: inout [UInt32]) {
        guard let replacement = foldingTable[scalar.value] else {
            appendValue(scalar.value, to: &folded)
            return
        }
        for part in replacement.unicodeScalars { appendValue(part.value, to: &folded) }
    }

    private static func appendASCII(_ byte: UInt8, to folded: inout [UInt32]) {
        let mapped = asciiFolding[Int(byte)]
        if mapped >= 0 { appendValue(UInt32(mapped), to: &folded) }
    }

    private static func appendValue(_ value: UInt32, to folded: inout [UInt32]) {
        if value == 0x20, folded.last ?? 0x20 == 0x20 { return }
        folded.append(value)
    }

    private static func trimTrailingSpace(_ folded: inout [UInt32]) {
        if folded.last == 0x20 { folded.removeLast() }
    }

    /// Folded value of each ASCII byte, or −1 when folding drops it.
    private static let asciiFolding: [Int32] = (0..<128).map { byte -> Int32 in
        let value = UInt32(byte)
        let lowered = (0x41...0x5A).contains(value) ? value + 0x20 : value
        guard let replacement = foldingTable[lowered] else { return Int32(lowered) }
        return replacement.unicodeScalars.first.map { Int32($0.value) } ?? -1
    }

    /// Decodes the scalar starting at `bytes[position]`; malformed UTF-8 gives U+FFFD and a length of 1.
    static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, end: Int) -> (UInt32, Int) {
        let lead = UInt32(bytes[position])
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0
        guard length > 0, position + length <= end, lead < 0xF5 else { return (0xFFFD, 1) }
        var value = lead & (0xFF >> UInt32(length + 1))
        for offset in 1..<length {
            let next = UInt32(bytes[position + offset])
            guard next & 0xC0 == 0x80 else { return (0xFFFD, 1) }
            value = value << 6 | (next & 0x3F)
        }
        return (value, length)
    }
}
