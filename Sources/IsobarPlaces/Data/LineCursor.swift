#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Walks the lines of a byte buffer and decodes the numbers in them, never reading past its end.
struct LineCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0
    /// 1-based number of the line last returned.
    private(set) var lineNumber = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Whether every line has been read.
    var isAtEnd: Bool { position >= bytes.count }

    /// The next line's byte range without its line feed, or nil at the end.
    mutating func nextLine() -> Range<Int>? {
        guard position < bytes.count, let base = bytes.baseAddress else { return nil }
        let start = position
        let end: Int
        if let found = memchr(base + start, 0x0A, bytes.count - start) {
            end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            position = end + 1
        } else {
            end = bytes.count
            position = end
        }
        lineNumber += 1
        return start..<end
    }

    /// Puts the byte ranges of the fields of `line`, separated by `separator`, in `result` (emptied first).
    func fields(_ line: Range<Int>, separator: UInt8 = 0x09, into result: inout [Range<Int>]) {
        result.removeAll(keepingCapacity: true)
        var start = line.lowerBound
        for index in line where bytes[index] == separator {
            result.append(start..<index)
            start = index + 1
        }
        result.append(start..<line.upperBound)
    }

    /// Reads `count` lines that each hold one decimal number below `bound`; nil on anything else.
    mutating func numberLines(count: Int, below bound: Int) -> [UInt32]? {
        var numbers = [UInt32](repeating: 0, count: count)
        var index = position
        for slot in 0..<count {
            var value = 0
            let start = index
            while index < bytes.count, bytes[index] != 0x0A {
                let digit = Int(bytes[index]) &- 0x30
                guard (0...9).contains(digit), index - start < 10 else { return nil }
                value = value * 10 + digit
                index += 1
            }
            guard index > start, value < bound else { return nil }
            numbers[slot] = UInt32(value)
            lineNumber += 1
            index += 1
        }
        position = min(index, bytes.count)
        return numbers
    }

    /// Splits `line` at tabs into `fields` and, in one pass, its last field at `|` into `parts`
    /// once `fields` holds `partsAfter` fields (both emptied first; `parts` stays empty for an empty last field).
    func fields(_ line: Range<Int>, into fields: inout [Range<Int>], splittingLastAfter partsAfter: Int, into parts: inout [Range<Int>]) {
        fields.removeAll(keepingCapacity: true)
        parts.removeAll(keepingCapacity: true)
        var start = line.lowerBound
        while fields.count < partsAfter, let tab = find(0x09, in: start..<line.upperBound) {
            fields.append(start..<tab)
            start = tab + 1
        }
        guard fields.count == partsAfter else {
            fields.append(start..<line.upperBound)
            return
        }
        if let tab = find(0x09, in: start..<line.upperBound) {  // one field too many: report the count, skip the parts
            fields.append(start..<tab)
            fields.append(tab + 1..<line.upperBound)
            return
        }
        fields.append(start..<line.upperBound)
        guard start < line.upperBound else { return }
        while let bar = find(0x7C, in: start..<line.upperBound) {
            parts.append(start..<bar)
            start = bar + 1
        }
        parts.append(start..<line.upperBound)
    }

    /// The position of the first `byte` in `range`, or nil.
    private func find(_ byte: UInt8, in range: Range<Int>) -> Int? {
        guard !range.isEmpty, let base = bytes.baseAddress,
              let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The byte ranges of the fields of `line` separated by `separator`.
    func fields(_ line: Range<Int>, separator: UInt8 = 0x09) -> [Range<Int>] {
        var result: [Range<Int>] = []
        fields(line, separator: separator, into: &result)
        return result
    }

    /// The text of a byte range.
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// A non-negative decimal integer of at most 18 digits, or nil.
    func integer(_ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.count <= 18 else { return nil }
        var value = 0
        for index in range {
            let digit = Int(bytes[index]) - 0x30
            guard (0...9).contains(digit) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// A decimal number such as `-23.5475` (optional minus, digits, optional point and digits), or nil.
    func decimal(_ range: Range<Int>) -> Double? {
        var index = range.lowerBound
        let negative = index < range.upperBound && bytes[index] == 0x2D
        if negative { index += 1 }
        var mantissa: Int64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == 0x2E, !seenPoint {
                seenPoint = true
            } else if (0x30...0x39).contains(byte), digits < 15 {
                mantissa = mantissa * 10 + Int64(byte - 0x30)
                digits += 1
                if seenPoint { fractionDigits += 1 }
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        var scale = 1.0
        for _ in 0..<fractionDigits { scale *= 10 }
        let value = Double(mantissa) / scale
        return negative ? -value : value
    }
}
