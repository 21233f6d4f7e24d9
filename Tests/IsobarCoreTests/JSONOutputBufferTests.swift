import FoundationEssentials
@testable import IsobarCore
import IsobarTestKit
import Testing

@Suite("JSONOutputBuffer writes the same bytes as the text writer it replaced")
struct JSONOutputBufferTests {
    /// The text writer JSON output used before the byte buffer, kept as the reference the buffer must match byte for byte.
    enum ReferenceText {
        static func write(_ value: JSONOutput, to output: inout String) {
            switch value {
            case .null: output += "null"
            case .bool(let value): output += value ? "true" : "false"
            case .integer(let value): output += String(value)
            case .number(let value): output += JSONOutput.format(value)
            case .string(let value): writeString(value, to: &output)
            case .array(let elements):
                output += "["
                for (index, element) in elements.enumerated() {
                    if index > 0 { output += "," }
                    write(element, to: &output)
                }
                output += "]"
            case .object(let members):
                output += "{"
                for (index, (key, value)) in members.enumerated() {
                    if index > 0 { output += "," }
                    writeString(key, to: &output)
                    output += ":"
                    write(value, to: &output)
                }
                output += "}"
            }
        }

        static func writeString(_ value: String, to output: inout String) {
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

        static func text(_ value: JSONOutput) -> String {
            var output = ""
            write(value, to: &output)
            return output
        }
    }

    /// Pieces random strings are made of: every control character, quotes, backslashes, non-ASCII of every UTF-8 length,
    /// combining marks and line separators.
    static let pieces: [String] = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        + ["\"", "\\", "/", "a", "Z", " ", "~", "\u{7F}", "é", "ß", "東京", "🌧", "e\u{301}", "\u{2028}", "\u{FEFF}", "near Minsk", "\u{10FFFF}"]

    static func randomString(_ generator: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    static func randomDouble(_ generator: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: [0.0, -0.0, .nan, .infinity, -.infinity, .ulpOfOne, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                 9_007_199_254_740_992, 9_007_199_254_740_992.nextUp, -9_007_199_254_740_994, 1e15, 1e16, 1e-7, 0.1 + 0.2]
            .randomElement(using: &generator)!
        case 1: Double(bitPattern: generator.next())
        case 2: (Double.random(in: -1000...1000, using: &generator) * 1000).rounded() / 1000
        case 3: Double(Int.random(in: -100_000...100_000, using: &generator))
        default: Double.random(in: -1e6...1e6, using: &generator)
        }
    }

    static func randomValue(_ generator: inout SeededGenerator, depth: Int = 0) -> JSONOutput {
        switch Int.random(in: 0..<(depth < 4 ? 8 : 6), using: &generator) {
        case 0: .null
        case 1: .bool(Bool.random(using: &generator))
        case 2: .integer([Int.min, Int.max, 0, -1, Int.random(in: -1_000_000...1_000_000, using: &generator),
                          Int(truncatingIfNeeded: generator.next())].randomElement(using: &generator)!)
        case 3, 4: .number(randomDouble(&generator))
        case 5: .string(randomString(&generator))
        case 6: .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(&generator, depth: depth + 1) })
        default: .object((0..<Int.random(in: 0...4, using: &generator)).map { _ in
            (randomString(&generator), randomValue(&generator, depth: depth + 1))
        })
        }
    }

    @Test func randomValuesMatchTheReferenceByteForByte() {
        var generator = SeededGenerator(seed: 2026_12_01)
        for _ in 0..<3_000 {
            let value = Self.randomValue(&generator)
            let expected = ReferenceText.text(value)
            #expect(value.utf8() == Array(expected.utf8), "\(expected)")
            #expect(value.serialized() == expected)
        }
    }

    @Test func everyControlCharacterQuoteAndBackslashIsEscapedAsBefore() {
        for byte in UInt8(0)...UInt8(0x7F) {
            let text = "x" + String(UnicodeScalar(byte)) + "y"
            var buffer = JSONOutputBuffer()
            buffer.string(text)
            #expect(buffer.bytes == Array(ReferenceText.text(.string(text)).utf8), "byte \(byte)")
        }
        var buffer = JSONOutputBuffer()
        buffer.string("\u{1F}\u{0B}\"\\\n\r\t")
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == #""\u001f\u000b\"\\\n\r\t""#)
    }

    @Test func nonASCIIIsWrittenAsItIs() {
        let text = "Zürich 東京 🌧 e\u{301} \u{2028}"
        var buffer = JSONOutputBuffer()
        buffer.string(text)
        #expect(buffer.bytes == [UInt8(ascii: "\"")] + Array(text.utf8) + [UInt8(ascii: "\"")])
    }

    @Test func numbersAreWrittenAsFormatGivesThem() {
        var generator = SeededGenerator(seed: 7)
        let edges: [Double] = [0, -0.0, 1, -1, 21.3, -273.15, 0.5, 1e14, 1e15, 1e16, -1e20, 5e300, 9_007_199_254_740_992,
                               9_007_199_254_740_994, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .nan, .infinity, -.infinity]
        for value in edges + (0..<2_000).map({ _ in Self.randomDouble(&generator) }) {
            var buffer = JSONOutputBuffer()
            buffer.number(value)
            #expect(String(decoding: buffer.bytes, as: UTF8.self) == JSONOutput.format(value), "\(value)")
        }
        for value in [Int.min, Int.min + 1, -10, -9, 0, 9, 10, 99, 100, Int.max] {
            var buffer = JSONOutputBuffer()
            buffer.integer(value)
            #expect(String(decoding: buffer.bytes, as: UTF8.self) == String(value))
        }
    }

    @Test func decimalsOfUpToThreePlacesAreWrittenAsTheGeneralConversionWritesThem() {
        var generator = SeededGenerator(seed: 1_000)
        var values: [Double] = [0.001, -0.001, 0.01, 0.1, 0.5, -0.43, 2.979, 998.95, 0.1 + 0.2, 999_999_999.999, -999_999_999.999,
                                1e9 + 0.5, 1e9 - 0.5, 123_456.000_1, 5e-4]
        // Every scale from thousandths to just under and over 10⁹, and the doubles either side of each decimal, which are
        // not decimals of three places and take the general conversion.
        for digits in 1...13 {
            let top = (0..<digits).reduce(1) { power, _ in power * 10 }
            for _ in 0..<300 {
                let decimal = Double(Int.random(in: -top...top, using: &generator)) / 1000
                values += [decimal, decimal.nextUp, decimal.nextDown]
            }
        }
        for value in values {
            var buffer = JSONOutputBuffer()
            buffer.number(value)
            #expect(String(decoding: buffer.bytes, as: UTF8.self) == value.description || value == value.rounded(), "\(value)")
            #expect(String(decoding: buffer.bytes, as: UTF8.self) == JSONOutput.format(value), "\(value)")
        }
        #expect(JSONOutputBuffer.thousandths(-0.43) == -430)
        #expect(JSONOutputBuffer.thousandths(0.1 + 0.2) == nil)
        #expect(JSONOutputBuffer.thousandths(1e9 + 0.5) == nil)
        #expect(JSONOutputBuffer.thousandths(0.000_5) == nil)
    }

    @Test func paddedNumbersHaveTheirSignBeforeTheZeros() {
        let cases: [(Int, Int, String)] = [
            (0, 0, "0"), (0, 2, "00"), (7, 2, "07"), (7, 4, "0007"), (12, 2, "12"), (123, 2, "123"), (-7, 2, "-07"), (-123, 4, "-0123"),
            (2026, 4, "2026"), (Int.max, 4, String(Int.max)), (Int.min, 4, String(Int.min)), (Int.min, 20, "-09223372036854775808"),
            (5, 20, String(repeating: "0", count: 19) + "5"),
        ]
        for (value, width, expected) in cases {
            var buffer = JSONOutputBuffer()
            buffer.appendPadded(value, width: width)
            #expect(String(decoding: buffer.bytes, as: UTF8.self) == expected, "\(value) width \(width)")
        }
    }

    @Test func absentValuesAreNull() {
        var buffer = JSONOutputBuffer()
        buffer.beginArray()
        buffer.number(Double?.none)
        buffer.integer(Int?.none)
        buffer.string(String?.none)
        buffer.bool(Bool?.none)
        buffer.number(Double?.some(.nan))
        buffer.integer(Int?.some(3))
        buffer.bool(Bool?.some(false))
        buffer.endArray()
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "[null,null,null,null,null,3,false]")
    }

    @Test func membersAndElementsAreSeparatedByCommas() {
        var buffer = JSONOutputBuffer()
        buffer.beginObject()
        buffer.key("a")
        buffer.beginArray()
        buffer.endArray()
        buffer.key(text: "b \"q\"")
        buffer.beginObject()
        buffer.endObject()
        buffer.key("c")
        buffer.strings(["x", "y"])
        buffer.key("d")
        buffer.value(.array([.integer(1), .object([("e", .null)])]))
        buffer.endObject()
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == #"{"a":[],"b \"q\"":{},"c":["x","y"],"d":[1,{"e":null}]}"#)
    }

    @Test func timesAndDatesAreWrittenAsCivilTimeWritesThem() {
        var generator = SeededGenerator(seed: 31)
        let offsets = [0, 3_600, -3_600, 19_800, 20_700, -34_200, 50_400, -43_200, 1, -1, 59, 3_599, -86_399, 360_000]
        let instants: [Double] = [0, -1, 1, 86_399.5, -86_400.25, 1_795_856_400, -62_135_596_800, 253_402_300_799, 951_782_400]
            + (0..<1_000).map { _ in Double.random(in: -70_000_000_000...260_000_000_000, using: &generator) }
        for seconds in instants {
            let instant = Date(timeIntervalSince1970: seconds)
            let offset = offsets.randomElement(using: &generator)!
            var buffer = JSONOutputBuffer()
            buffer.isoTime(instant, utcOffsetSeconds: offset)
            #expect(String(decoding: buffer.bytes, as: UTF8.self) == "\"" + CivilTime.iso(instant, utcOffsetSeconds: offset) + "\"", "\(seconds)")
            let date = LocalDate(instant, utcOffsetSeconds: offset)
            buffer.removeAll()
            buffer.isoDate(date)
            #expect(String(decoding: buffer.bytes, as: UTF8.self) == "\"\(date.description)\"")
        }
        var buffer = JSONOutputBuffer()
        buffer.beginArray()
        buffer.isoTime(Date(timeIntervalSince1970: 0), utcOffsetSeconds: -19_800)
        buffer.isoDate(LocalDate(daysSinceEpoch: 0))
        buffer.endArray()
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == #"["1969-12-31T18:30:00-05:30","1970-01-01"]"#)
    }

    @Test func eachLineStartsAfresh() {
        var buffer = JSONOutputBuffer()
        buffer.value(.object([("a", .integer(1))]))
        buffer.endLine()
        buffer.value(.object([("b", .integer(2))]))
        buffer.endLine()
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "{\"a\":1}\n{\"b\":2}\n")
        buffer.removeAll()
        buffer.integer(5)
        #expect(buffer.bytes == Array("5".utf8))
    }
}
