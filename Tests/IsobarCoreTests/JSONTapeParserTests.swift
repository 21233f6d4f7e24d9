import Foundation
@testable import IsobarCore
import Testing

/// The one-pass parser against jansson: whatever it reads, it reads as jansson does; what it leaves, jansson decides.
@Suite struct JSONTapeParserTests {
    /// Each node as text: its kind and value (a string decoded, a number's exact bits, a container's count and end).
    private func listing(_ tape: JSONTape) -> [String] {
        tape.nodes.indices.map { index in
            let node = tape.nodes[index]
            switch node.kind {
            case .plainString, .escapedString: return "string " + tape.withString(index) { Array($0) }.map(String.init).joined(separator: ",")
            case .integer: return "integer \(tape.integer(index))"
            case .real: return "real \(tape.real(index).bitPattern)"
            case .array, .object: return "\(node.kind) \(node.count) \(node.end)"
            default: return "\(node.kind)"
            }
        }
    }

    /// Checks that the one-pass parser reads `text` as jansson does; returns false when it left the text to jansson.
    @discardableResult
    private func agreesWithJansson(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let fast = JSONTapeParser.tape(of: bytes) else { return false }
        do {
            let reference = try JSONTape.jansson(bytes, rejectingDuplicateKeys: false)
            #expect(listing(fast) == listing(reference), "\(String(decoding: bytes.prefix(200), as: UTF8.self))", sourceLocation: sourceLocation)
        } catch {
            Issue.record("the parser read a text jansson rejects (\(error)): \(String(decoding: bytes.prefix(200), as: UTF8.self))",
                         sourceLocation: sourceLocation)
        }
        return true
    }

    @Test func everyRecordedProviderAnswerIsReadInOnePassAsJanssonReadsIt() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../config/cassettes")
        let files = try #require(FileManager.default.enumerator(atPath: directory.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }
        var bodies = 0
        for file in files {
            let cassette = try JSONDocument(parsing: Array(try Data(contentsOf: directory.appendingPathComponent(file)))).rootValue
            for interaction in try cassette.member("interactions").elements() {
                guard let body = try interaction.member("response").nonNullMember("body") else { continue }
                let bytes = Array(try body.string().utf8)
                guard bytes.first == UInt8(ascii: "{") || bytes.first == UInt8(ascii: "[") else { continue }
                #expect(agreesWithJansson(bytes), "\(file): left to jansson")
                bodies += 1
            }
        }
        #expect(bodies >= 20)
    }

    @Test(arguments: [
        "0", "-0", "7", "-12", "1e22", "1e23", "0.1", "-0.0", "4.35", "0.30000000000000004", "123.456e-7", "1E+2", "2.5e-3",
        "123456789012345678", "9223372036854775807", "-9223372036854775808", "9007199254740993",
        "1.7976931348623157e308", "5e-324", "1e-400", "3.14159265358979323846264338327950288", "100000000000000000000.5",
        "0.000000000000000000000000000001", "12345678901234567890e-5", "[1.5,-2,3e2]",
    ])
    func numbersAreReadExactlyAsJanssonReadsThem(text: String) {
        #expect(agreesWithJansson(Array(text.utf8)), "left to jansson")
    }

    @Test(arguments: ["9223372036854775808", "-9223372036854775809", "1e309", "-1e400", "01", "1.", ".5", "+1", "1e", "-", "0x10"])
    func numbersOutOfRangeOrGrammarAreLeftToJansson(text: String) {
        #expect(JSONTapeParser.tape(of: Array(text.utf8)) == nil)
    }

    @Test(arguments: [
        #""plain""#, #""Zürich 東京 🌧""#, #""a\tb\nc\"d\\e\/f\b\f\r""#, #""caf\u00e9""#, #""\ud83c\udf27""#, #""a\u0000b""#,
        #"{"":1,"k":"v","empty":{},"list":[]}"#, " \t\n\r[ true , false , null ] \n", #"{"a":{"b":[{"c":[[]]}]}}"#,
    ])
    func stringsLiteralsAndContainersAreReadAsJanssonReadsThem(text: String) {
        #expect(agreesWithJansson(Array(text.utf8)), "left to jansson")
    }

    @Test(arguments: [
        #""\ud83c""#, #""\udf27""#, #""\ud83c\u0041""#, #""\x""#, #""\u12""#, "\"a\u{01}b\"", #"{"k\u0041":1}"#,
        #"{"a":1,"a":2}"#, "[1,]", "{\"a\" 1}", "tru", "[1 2]", "1 2", "", "  ", "\"open",
    ])
    func badOrUnusualTextsAreLeftToJansson(text: String) {
        #expect(JSONTapeParser.tape(of: Array(text.utf8)) == nil)
    }

    @Test func invalidUTF8IsLeftToJansson() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
                               [0x22, 0xE2, 0x82, 0x22]] {
            #expect(JSONTapeParser.tape(of: bytes) == nil, "\(bytes)")
        }
    }

    @Test func nestingPastItsLimitIsLeftToJanssonWhichStillReadsIt() throws {
        let depth = JSONTapeParser.maxDepth + 1
        let text = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        #expect(JSONTapeParser.tape(of: Array(text.utf8)) == nil)
        var value = try JSONDocument(parsing: text).rootValue
        for _ in 0..<depth { value = try value.elements()[0] }
        #expect(try value.int() == 1)
        let within = String(repeating: "[", count: depth - 1) + "1" + String(repeating: "]", count: depth - 1)
        #expect(agreesWithJansson(Array(within.utf8)))
    }

    @Test func aKeyNamedTwiceKeepsJanssonsMeaningTheLastValueInTheFirstPlace() throws {
        let value = try JSONDocument(parsing: #"{"a": 1, "b": 2, "a": 3}"#).rootValue
        #expect(try value.int("a") == 3)
        #expect(try value.members().map(\.key) == ["a", "b"])
        // Both ways of finding the repeat: pairwise in a narrow object, by hashes in a wide one.
        for width in [20, 40] {
            let many = "{" + (0..<width).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + ", \"k7\": 70}"
            #expect(JSONTapeParser.tape(of: Array(many.utf8)) == nil, "\(width) keys")
            #expect(try JSONDocument(parsing: many).rootValue.int("k7") == 70)
            #expect(throws: JSONError.self) { try JSONDocument(parsing: Array(many.utf8), rejectingDuplicateKeys: true) }
        }
    }

    @Test func wideObjectsWithDistinctKeysAreReadInOnePass() throws {
        for width in [13, 24, 25, 200] {
            let text = "{" + (0..<width).map { "\"key\($0)\": \($0)" }.joined(separator: ",") + "}"
            #expect(agreesWithJansson(Array(text.utf8)), "\(width) keys left to jansson")
            #expect(try JSONDocument(parsing: text).rootValue.int("key\(width - 1)") == width - 1)
        }
    }

    @Test func keysWithEscapesAreReadThroughJanssonAndANulByteInAKeyIsItsError() throws {
        let text = #"{"caf\u00e9": 2, "tab\tkey": 1, "plain": 3}"#
        #expect(JSONTapeParser.tape(of: Array(text.utf8)) == nil)
        let value = try JSONDocument(parsing: text).rootValue
        #expect(try value.int("café") == 2)
        #expect(try value.int("tab\tkey") == 1)
        #expect(try value.members().map(\.key) == ["café", "tab\tkey", "plain"])
        #expect(throws: JSONError.self) { try JSONDocument(parsing: #"{"a\u0000b": 1}"#) }
    }

    /// Random documents, printed with random spacing and number forms, then mutated byte by byte: every text the parser
    /// reads, it reads as jansson does, and it reads every unmutated one.
    @Test func randomDocumentsAndTheirMutationsAgreeWithJansson() {
        var generator = SplitMix(seed: 20261201)
        var read = 0
        for _ in 0..<400 {
            let text = Array(randomValue(depth: 0, &generator).utf8)
            #expect(agreesWithJansson(text), "\(String(decoding: text, as: UTF8.self))")
            for _ in 0..<5 {
                var mutated = text
                let position = Int(generator.next() % UInt64(mutated.count))
                let bytes: [UInt8] = [0x22, 0x5C, 0x2C, 0x3A, 0x7B, 0x7D, 0x5B, 0x5D, 0x30, 0x2D, 0x65, 0x2E, 0x20, 0x00, 0xC3, 0xFF]
                mutated[position] = bytes[Int(generator.next() % UInt64(bytes.count))]
                if agreesWithJansson(mutated) { read += 1 }
            }
        }
        #expect(read > 0)
    }

    private func randomValue(depth: Int, _ generator: inout SplitMix) -> String {
        let space = [" ", "", "\n", "\t", "  "][Int(generator.next() % 5)]
        switch generator.next() % (depth > 4 ? 4 : 6) {
        case 0: return ["true", "false", "null"][Int(generator.next() % 3)]
        case 1:
            let integer = Int64(bitPattern: generator.next()) >> (generator.next() % 64)
            return String(integer)
        case 2:
            let real = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
            let forms = [String(real), String(format: "%.3f", Double(Int(generator.next() % 100_000)) / 7), String(format: "%.17g", real),
                         String(format: "%de%d", Int(generator.next() % 1000), Int(generator.next() % 40) - 20)]
            return forms[Int(generator.next() % UInt64(forms.count))]
        case 3:
            let pieces = ["a", "é", "東", "🌧", "\\n", "\\u00e9", "\\ud83c\\udf27", "\\\"", " ", "\\/"]
            return "\"" + (0..<Int(generator.next() % 6)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined() + "\""
        case 4:
            let count = Int(generator.next() % 5)
            return "[" + space + (0..<count).map { _ in randomValue(depth: depth + 1, &generator) }.joined(separator: "," + space) + "]"
        default:
            let count = Int(generator.next() % 5)
            return "{" + space + (0..<count).map { index in "\"key\(index)\"" + space + ":" + randomValue(depth: depth + 1, &generator) }
                .joined(separator: "," + space) + space + "}"
        }
    }
}

/// A small seeded generator (SplitMix64).
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
