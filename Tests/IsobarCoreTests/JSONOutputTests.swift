import IsobarCore
import Testing

@Suite("JSONOutput")
struct JSONOutputTests {
    // MARK: Numbers

    @Test(arguments: [
        (21.3, "21.3"),
        (0.1 + 0.2, "0.30000000000000004"),
        (2.0, "2"),
        (-7.0, "-7"),
        (0.0, "0"),
        (-0.0, "0"),
        (1e14, "100000000000000"),
        (-273.15, "-273.15"),
        (0.5, "0.5"),
        (123456789.123, "123456789.123"),
    ])
    func numbersUseShortestRoundTripText(value: Double, expected: String) {
        #expect(JSONOutput.format(value) == expected)
        #expect(JSONOutput.number(value).serialized() == expected)
    }

    @Test func nonFiniteNumbersBecomeNull() {
        #expect(JSONOutput.format(.nan) == "null")
        #expect(JSONOutput.format(.infinity) == "null")
        #expect(JSONOutput.format(-.infinity) == "null")
        let absent: Double? = nil
        #expect(JSONOutput.number(absent).serialized() == "null")
        #expect(JSONOutput.number(Double?.some(.nan)).serialized() == "null")
        #expect(JSONOutput.number(Double?.some(.infinity)).serialized() == "null")
        #expect(JSONOutput.array([.number(.nan), .number(1.5)]).serialized() == "[null,1.5]")
    }

    @Test func largeIntegralDoublesStayValidJSON() throws {
        // Beyond 1e15 integral doubles are written in exponent form, which is still a JSON number.
        for value in [1e15, 1e16, 5e300, -1e20] {
            let text = JSONOutput.format(value)
            #expect(!text.hasSuffix(".0"), "\(text)")
            #expect(try JSONDocument(parsing: text).rootValue.double() == value)
        }
    }

    @Test func integers() {
        #expect(JSONOutput.integer(0).serialized() == "0")
        #expect(JSONOutput.integer(-42).serialized() == "-42")
        #expect(JSONOutput.integer(Int.max).serialized() == "9223372036854775807")
    }

    // MARK: Strings

    @Test(arguments: [
        ("plain", #""plain""#),
        (#"say "hi""#, #""say \"hi\"""#),
        (#"back\slash"#, #""back\\slash""#),
        ("line\nbreak", #""line\nbreak""#),
        ("cr\rtab\t", #""cr\rtab\t""#),
        ("\u{0}", #""\u0000""#),
        ("\u{1}x", #""\u0001x""#),
        ("bell\u{7}", #""bell\u0007""#),
        ("Zürich 東京 🌧", #""Zürich 東京 🌧""#),
        ("a/b", #""a/b""#),
        ("", #""""#),
    ])
    func stringsAreEscaped(value: String, expected: String) {
        #expect(JSONOutput.string(value).serialized() == expected)
    }

    @Test func controlCharactersUseFourHexDigits() {
        let text = JSONOutput.string("\u{1F}\u{0B}\u{10}").serialized()
        #expect(text.lowercased() == #""\u001f\u000b\u0010""#)
    }

    @Test func optionalStringNilIsNull() {
        let absent: String? = nil
        #expect(JSONOutput.string(absent).serialized() == "null")
        #expect(JSONOutput.string(String?.some("x")).serialized() == #""x""#)
    }

    // MARK: Structure

    @Test func objectMembersKeepTheirOrder() {
        let object = JSONOutput.object([("z", .integer(1)), ("a", .bool(true)), ("m", .null), ("b", .bool(false))])
        #expect(object.serialized() == #"{"z":1,"a":true,"m":null,"b":false}"#)
    }

    @Test func nestedArraysAndObjects() {
        let value = JSONOutput.object([
            ("place", .object([("name", .string("Minsk")), ("lat", .number(53.9))])),
            ("steps", .array([.array([]), .object([]), .array([.integer(1), .array([.number(2.5)])])])),
            ("keys \"q\"", .string("v")),
        ])
        #expect(value.serialized() == #"{"place":{"name":"Minsk","lat":53.9},"steps":[[],{},[1,[2.5]]],"keys \"q\"":"v"}"#)
    }

    @Test func writeAppendsToExistingText() {
        var output = "prefix "
        JSONOutput.array([.integer(1), .string("a")]).write(to: &output)
        #expect(output == #"prefix [1,"a"]"#)
    }

    @Test func equalityComparesSerializedText() {
        #expect(JSONOutput.object([("a", .integer(1))]) == JSONOutput.object([("a", .integer(1))]))
        #expect(JSONOutput.object([("a", .integer(1)), ("b", .null)]) != JSONOutput.object([("b", .null), ("a", .integer(1))]))
    }

    // MARK: Round trip through JSONDocument

    @Test func trickyDoublesRoundTrip() throws {
        let values: [Double] = [
            1e-7, 123456789.123, -273.15, 5e300, 0.1 + 0.2, 21.3, -0.0, 1e15, 2.2250738585072014e-308,
            1.7976931348623157e308, 4.35, 0.000123, 1 / 3.0, -1e-300, 9_007_199_254_740_992,
        ]
        let text = JSONOutput.array(values.map { .number($0) }).serialized()
        let parsed = try JSONDocument(parsing: text).rootValue.numbersOrNulls()
        #expect(parsed.count == values.count)
        for (written, read) in zip(values, parsed) {
            #expect(read == written, "\(written) came back as \(String(describing: read)) from \(text)")
        }
    }

    @Test func trickyStringsRoundTrip() throws {
        let values = ["", "a\"b", "\\", "\n\r\t", "\u{0}mid\u{0}", "\u{1}\u{1F}\u{7F}", "é東🌧", "\u{2028}", "</script>"]
        let text = JSONOutput.array(values.map { .string($0) }).serialized()
        let parsed = try JSONDocument(parsing: text).rootValue.stringsOrNulls()
        #expect(parsed == values)
    }

    @Test func objectRoundTripKeepsOrderAndValues() throws {
        let output = JSONOutput.object([
            ("temp", .number(-3.25)), ("ok", .bool(true)), ("none", .null), ("name", .string("Nuuk")), ("n", .integer(12)),
        ])
        let root = try JSONDocument(parsing: output.serialized()).rootValue
        #expect(try root.members().map(\.key) == ["temp", "ok", "none", "name", "n"])
        #expect(try root.double("temp") == -3.25)
        #expect(try root.member("ok").bool() == true)
        #expect(try root.member("none").isNull)
        #expect(try root.string("name") == "Nuuk")
        #expect(try root.int("n") == 12)
    }
}
