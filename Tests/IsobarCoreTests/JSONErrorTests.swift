import IsobarCore
import Testing

@Suite("JSONPath and JSONError")
struct JSONErrorTests {
    @Test func rootIsDollar() {
        #expect(JSONPath.root.description == "$")
    }

    @Test func plainKeysAndIndices() {
        let path = JSONPath.root.appending(key: "list").appending(index: 3).appending(key: "main").appending(key: "temp")
        #expect(path.description == "$.list[3].main.temp")
        #expect(JSONPath.root.appending(index: 0).appending(index: 12).description == "$[0][12]")
        #expect(JSONPath.root.appending(key: "wind_speed_10m").description == "$.wind_speed_10m")
        #expect(JSONPath.root.appending(key: "Temp2").description == "$.Temp2")
    }

    @Test func appendingDoesNotChangeTheParent() {
        let parent = JSONPath.root.appending(key: "hourly")
        let first = parent.appending(key: "time")
        let second = parent.appending(key: "temperature_2m").appending(index: 5)
        #expect(parent.description == "$.hourly")
        #expect(first.description == "$.hourly.time")
        #expect(second.description == "$.hourly.temperature_2m[5]")
    }

    /// Keys that are not identifiers are written in brackets. A name starting with a digit is not a
    /// JSONPath member-name shorthand (RFC 9535), so OpenWeatherMap's `rain.1h` must be bracketed.
    @Test(arguments: [
        ("1h", #"$.rain["1h"]"#),
        ("3h", #"$.rain["3h"]"#),
        ("a.b", #"$.rain["a.b"]"#),
        ("two words", #"$.rain["two words"]"#),
        ("", #"$.rain[""]"#),
        ("é", #"$.rain["é"]"#),
        ("x-y", #"$.rain["x-y"]"#),
    ])
    func keysNeedingQuotesAreBracketed(key: String, expected: String) {
        #expect(JSONPath.root.appending(key: "rain").appending(key: key).description == expected)
    }

    /// A quote or backslash inside a bracketed key must be escaped, or the path is ambiguous.
    @Test func quotesInsideBracketedKeysAreEscaped() {
        #expect(JSONPath.root.appending(key: #"say "hi""#).description == #"$["say \"hi\""]"#)
        #expect(JSONPath.root.appending(key: #"back\slash"#).description == #"$["back\\slash"]"#)
    }

    @Test func pathFromAParsedDocumentUsesTheSameRules() throws {
        let document = try JSONDocument(parsing: #"{"rain": {"1h": "lots"}, "a b": {"c": null}}"#)
        do throws(JSONError) {
            _ = try document.rootValue.member("rain").double("1h")
            Issue.record("expected a type mismatch")
        } catch {
            #expect(error.path == #"$.rain["1h"]"#)
        }
        do throws(JSONError) {
            _ = try document.rootValue.member("a b").member("c").member("d")
            Issue.record("expected a type mismatch")
        } catch {
            #expect(error.path == #"$["a b"].c"#)
            #expect(error.code == .typeMismatch(expected: "object", found: "null"))
        }
    }

    @Test func descriptions() {
        let path = JSONPath.root.appending(key: "main")
        #expect(JSONError(.missing, path: path).description == "missing value at $.main")
        #expect(JSONError(.typeMismatch(expected: "number", found: "string"), path: path).description
            == "expected number at $.main, found string")
        #expect(JSONError(.syntax("boom"), path: .root).description == "invalid JSON: boom")
    }

    @Test func equalityComparesCodeAndPath() {
        let a = JSONError(.missing, path: JSONPath.root.appending(key: "a"))
        #expect(a == JSONError(.missing, path: JSONPath.root.appending(key: "a")))
        #expect(a != JSONError(.missing, path: JSONPath.root.appending(key: "b")))
        #expect(a != JSONError(.syntax("x"), path: JSONPath.root.appending(key: "a")))
    }
}
