import IsobarCore
import Testing

@Suite("JSONDocument and JSONValue")
struct JSONDocumentTests {
    private func root(_ text: String) throws(JSONError) -> JSONValue {
        try JSONDocument(parsing: text).rootValue
    }

    /// The `JSONError` thrown by `body`, or nil when it throws nothing (any other error is recorded as an issue).
    private func error(_ body: () throws -> Void) -> JSONError? {
        do {
            try body()
            return nil
        } catch let error as JSONError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    // MARK: Parsing

    @Test func parsesObjectMembersInDocumentOrder() throws {
        let value = try root(#"{"zeta": 1, "alpha": "a", "mid": [true, null], "obj": {}}"#)
        #expect(value.kind == .object)
        let members = try value.members()
        #expect(members.map(\.key) == ["zeta", "alpha", "mid", "obj"])
        #expect(members.map(\.value.kind) == [.number, .string, .array, .object])
        #expect(members[2].value.path.description == "$.mid")
        #expect(try value.int("zeta") == 1)
        #expect(try value.string("alpha") == "a")
        #expect(try value.member("obj").members().isEmpty)
    }

    @Test func parsesArrays() throws {
        let value = try root(#"[1, "two", 3.5, false, null, [], {}]"#)
        #expect(try value.count() == 7)
        let elements = try value.elements()
        #expect(elements.map(\.kind) == [.number, .string, .number, .bool, .null, .array, .object])
        #expect(elements.map(\.path.description) == ["$[0]", "$[1]", "$[2]", "$[3]", "$[4]", "$[5]", "$[6]"])
        #expect(try elements[0].int() == 1)
        #expect(try elements[1].string() == "two")
        #expect(try elements[2].double() == 3.5)
        #expect(try elements[3].bool() == false)
        #expect(elements[4].isNull)
        #expect(try elements[5].count() == 0)
    }

    @Test(arguments: [
        ("42", JSONKind.number), ("-0.5", .number), (#""text""#, .string), ("true", .bool), ("false", .bool), ("null", .null),
    ])
    func parsesScalarsAtTopLevel(text: String, kind: JSONKind) throws {
        let value = try root(text)
        #expect(value.kind == kind)
        #expect(value.path.description == "$")
        #expect(value.isNull == (kind == .null))
    }

    @Test func topLevelScalarValues() throws {
        #expect(try root("42").int() == 42)
        #expect(try root("-0.5").double() == -0.5)
        #expect(try root(#""text""#).string() == "text")
        #expect(try root("true").bool() == true)
    }

    @Test func integersAndRealsBothReadAsDoubles() throws {
        let value = try root(#"{"i": 7, "r": 7.25, "neg": -12, "exp": 1.5e3, "big": 9007199254740993}"#)
        #expect(try value.double("i") == 7)
        #expect(try value.double("r") == 7.25)
        #expect(try value.double("neg") == -12)
        #expect(try value.double("exp") == 1500)
        #expect(try value.int("exp") == 1500)
        // A JSON integer is kept exactly as an integer (2^53 + 1 is not representable as a double).
        #expect(try value.int("big") == 9_007_199_254_740_993)
    }

    @Test func intAcceptsIntegralRealsOnly() throws {
        #expect(try root("3").int() == 3)
        #expect(try root("3.0").int() == 3)
        #expect(try root("-4.0").int() == -4)
        let fractional = error { _ = try root("3.5").int() }
        #expect(fractional?.code == .typeMismatch(expected: "whole number", found: "number"))
        #expect(fractional?.path == "$")
        let huge = error { _ = try root("1e300").int() }
        #expect(huge?.code == .typeMismatch(expected: "whole number", found: "number"))
        let text = error { _ = try root(#""3""#).int() }
        #expect(text?.code == .typeMismatch(expected: "whole number", found: "string"))
    }

    @Test func numbersOrNullsKeepsNullsAsNil() throws {
        let value = try root(#"{"t": [1, null, 2.5, -3, null]}"#)
        #expect(try value.member("t").numbersOrNulls() == [1, nil, 2.5, -3, nil])
        #expect(try root("[]").numbersOrNulls() == [])
    }

    @Test func numbersOrNullsRejectsOtherElementsWithTheirPath() throws {
        let value = try root(#"{"t": [1, "2", 3]}"#)
        let failure = error { _ = try value.member("t").numbersOrNulls() }
        #expect(failure?.code == .typeMismatch(expected: "number or null", found: "string"))
        #expect(failure?.path == "$.t[1]")
        let notArray = error { _ = try value.member("t").member("x") }
        #expect(notArray?.code == .typeMismatch(expected: "object", found: "array"))
        #expect(notArray?.path == "$.t")
    }

    @Test func stringsOrNulls() throws {
        let value = try root(#"["a", null, "ü"]"#)
        #expect(try value.stringsOrNulls() == ["a", nil, "ü"])
        let failure = error { _ = try root(#"["a", 1]"#).stringsOrNulls() }
        #expect(failure?.code == .typeMismatch(expected: "string", found: "number"))
        #expect(failure?.path == "$[1]")
    }

    // MARK: Members and errors with paths

    @Test func missingMemberNamesItsPath() throws {
        let value = try root(#"{"main": {"humidity": 80}}"#)
        let failure = error { _ = try value.member("main").double("temp") }
        #expect(failure?.code == .missing)
        #expect(failure?.path == "$.main.temp")
        #expect(failure?.description == "missing value at $.main.temp")
    }

    @Test func membersAreFoundByTheirWholeKeyWhateverItsLengthOrBytes() throws {
        // (jansson refuses a NUL in a key, so none can be asked for either.)
        let value = try root(#"{"a": 1, "ab": 2, "temperature_2m_best_match": 3, "t\u00e9": 4, "": 5}"#)
        #expect(try value.double("a") == 1)
        #expect(try value.double("ab") == 2)
        #expect(try value.member(ifPresent: "a\u{0}") == nil)
        #expect(try value.member(ifPresent: "a\u{0}b") == nil)
        #expect(try value.double("temperature_2m_best_match") == 3)
        #expect(try value.member(ifPresent: "temperature_2m_best_matc") == nil)
        #expect(try value.double("t\u{e9}") == 4)
        #expect(try value.double("") == 5)
    }

    @Test func aScalarDeepInTheDocumentNamesItsWholePath() throws {
        let value = try root(#"{"outer": {"rows": [{"v": 1}, {"v": "x"}], "n": true}}"#)
        let rows = try value.member("outer").member("rows").elements()
        let failure = error { _ = try rows[1].member("v").double() }
        #expect(failure?.path == "$.outer.rows[1].v")
        let member = try value.member("outer").members().first { $0.key == "n" }
        #expect(member?.value.path.description == "$.outer.n")
        let missing = error { _ = try rows[0].member("w") }
        #expect(missing?.path == "$.outer.rows[0].w")
    }

    @Test func optionalAccessorsTreatAbsentAndNullAsNil() throws {
        let value = try root(#"{"a": null, "b": 2, "s": "x"}"#)
        #expect(try value.optionalDouble("a") == nil)
        #expect(try value.optionalDouble("missing") == nil)
        #expect(try value.optionalDouble("b") == 2)
        #expect(try value.optionalInt("b") == 2)
        #expect(try value.optionalString("s") == "x")
        #expect(try value.optionalString("a") == nil)
        #expect(try value.member(ifPresent: "a")?.isNull == true)
        #expect(try value.member(ifPresent: "nope") == nil)
        #expect(try value.nonNullMember("a") == nil)
        // Present but of the wrong type is still an error.
        let failure = error { _ = try value.optionalDouble("s") }
        #expect(failure?.code == .typeMismatch(expected: "number", found: "string"))
        #expect(failure?.path == "$.s")
        // Null where a value is required is a type mismatch, not "missing".
        let required = error { _ = try value.double("a") }
        #expect(required?.code == .typeMismatch(expected: "number", found: "null"))
    }

    @Test func typeMismatchPathThroughArrayIndices() throws {
        let text = #"{"list": [{"main": {"temp": 1}}, {"main": {"temp": 2}}, {"main": {"temp": 3}}, {"main": {"temp": "warm"}}]}"#
        let value = try root(text)
        var failure: JSONError?
        for (index, entry) in try value.member("list").elements().enumerated() {
            do throws(JSONError) {
                _ = try entry.member("main").double("temp")
            } catch {
                #expect(index == 3)
                failure = error
            }
        }
        let thrown = try #require(failure)
        #expect(thrown.code == .typeMismatch(expected: "number", found: "string"))
        #expect(thrown.path == "$.list[3].main.temp")
        #expect(thrown.description == "expected number at $.list[3].main.temp, found string")
    }

    @Test func memberOnNonObjectIsAMismatch() throws {
        let failure = error { _ = try root("[1]").member("a") }
        #expect(failure?.code == .typeMismatch(expected: "object", found: "array"))
        #expect(failure?.path == "$")
        let count = error { _ = try root(#"{"a": 1}"#).count() }
        #expect(count?.code == .typeMismatch(expected: "array", found: "object"))
        let boolean = error { _ = try root("1").bool() }
        #expect(boolean?.code == .typeMismatch(expected: "boolean", found: "number"))
    }

    // MARK: Syntax errors

    @Test(arguments: [
        #"{"a": 1"#, // truncated
        #"[1, 2,"#,
        "nope",
        "{'a': 1}",
        "1 2",
        "   ",
        #"{"a": 01}"#,
        "[1,]",
    ])
    func syntaxErrorsAreReportedAtTheRoot(text: String) {
        let failure = error { _ = try JSONDocument(parsing: text) }
        guard case .syntax(let detail)? = failure?.code else {
            Issue.record("expected a syntax error for \(text), got \(String(describing: failure))")
            return
        }
        #expect(!detail.isEmpty)
        #expect(failure?.path == "$")
        #expect(failure?.description.hasPrefix("invalid JSON: ") == true)
    }

    @Test func emptyInputIsASyntaxError() {
        for bytes in [[UInt8](), Array("".utf8)] {
            let failure = error { _ = try JSONDocument(parsing: bytes) }
            #expect(failure?.code == .syntax("empty body"))
            #expect(failure?.path == "$")
        }
    }

    @Test func syntaxErrorNamesLineAndColumn() {
        let failure = error { _ = try JSONDocument(parsing: "{\n  \"a\": ?\n}") }
        guard case .syntax(let detail)? = failure?.code else {
            Issue.record("expected a syntax error, got \(String(describing: failure))")
            return
        }
        #expect(detail.contains("line 2"))
    }

    @Test func invalidUTF8IsASyntaxError() {
        let failure = error { _ = try JSONDocument(parsing: [0x22, 0xFF, 0xFE, 0x22]) }
        guard case .syntax? = failure?.code else {
            Issue.record("expected a syntax error, got \(String(describing: failure))")
            return
        }
    }

    // MARK: Strings

    @Test func utf8StringsWithNonASCIIAndEscapes() throws {
        let value = try root(#"{"city": "Zürich", "jp": "東京", "rain": "🌧", "escaped": "caf\u00e9", "pair": "\ud83c\udf27", "ctl": "a\tb\nc\"d\\e/"}"#)
        #expect(try value.string("city") == "Zürich")
        #expect(try value.string("jp") == "東京")
        #expect(try value.string("rain") == "🌧")
        #expect(try value.string("escaped") == "café")
        #expect(try value.string("pair") == "🌧")
        #expect(try value.string("ctl") == "a\tb\nc\"d\\e/")
    }

    @Test func stringsKeepEmbeddedNul() throws {
        let text = try root(#"["a\u0000b"]"#).elements()[0].string()
        #expect(text == "a\u{0}b")
        #expect(Array(text.utf8) == [0x61, 0x00, 0x62])
        #expect(text.utf8.count == 3)
    }

    @Test func nonASCIIKeysAreMatched() throws {
        let value = try root(#"{"température": 21.5}"#)
        #expect(try value.double("température") == 21.5)
        #expect(try value.members().map(\.key) == ["température"])
    }

    // MARK: mapStrings

    @Test func mapStringsTransformsRawBytes() throws {
        let value = try root(#"["12", null, "7", "é"]"#)
        let lengths = try value.mapStrings(expected: "text") { bytes in bytes.count }
        #expect(lengths == [2, nil, 1, 2])
        let firstBytes = try value.mapStrings(expected: "text") { bytes in bytes.first }
        #expect(firstBytes == [0x31, nil, 0x37, 0xC3])
    }

    @Test func mapStringsReportsRejectedElementsWithTheirPath() throws {
        let value = try root(#"{"time": ["2026-11-28T00:00", "tomorrow"]}"#)
        let failure = error {
            _ = try value.member("time").mapStrings(expected: "local time") { bytes in
                bytes.count == 16 ? 1 : nil
            }
        }
        #expect(failure?.code == .typeMismatch(expected: "local time", found: #""tomorrow""#))
        #expect(failure?.path == "$.time[1]")
    }

    @Test func mapStringsRejectsNonStrings() throws {
        let failure = error { _ = try root(#"["a", 3]"#).mapStrings(expected: "local time") { _ in 0 } }
        #expect(failure?.code == .typeMismatch(expected: "local time", found: "number"))
        #expect(failure?.path == "$[1]")
        let notArray = error { _ = try root(#"{"a": 1}"#).mapStrings(expected: "x") { _ in 0 } }
        #expect(notArray?.code == .typeMismatch(expected: "array", found: "object"))
    }

    // MARK: intOrNumericString

    @Test func intOrNumericString() throws {
        let value = try root(#"{"a": "404", "b": 401, "c": "4o4", "d": 200.0, "e": "-1", "f": true}"#)
        #expect(try value.member("a").intOrNumericString() == 404)
        #expect(try value.member("b").intOrNumericString() == 401)
        #expect(try value.member("d").intOrNumericString() == 200)
        #expect(try value.member("e").intOrNumericString() == -1)
        let bad = error { _ = try value.member("c").intOrNumericString() }
        #expect(bad?.code == .typeMismatch(expected: "whole number or numeric string", found: "string"))
        #expect(bad?.path == "$.c")
        let boolean = error { _ = try value.member("f").intOrNumericString() }
        #expect(boolean?.code == .typeMismatch(expected: "whole number", found: "boolean"))
    }

    // MARK: Ownership and size

    private static func extractValues() throws -> (JSONValue, [JSONValue], [(key: String, value: JSONValue)]) {
        let document = try JSONDocument(parsing: #"{"main": {"temp": 21.5, "name": "Minsk"}, "list": [1, 2, 3]}"#)
        let root = document.rootValue
        return (try root.member("main"), try root.member("list").elements(), try root.member("main").members())
    }

    @Test func valuesOutliveTheDocumentVariable() throws {
        let (main, list, members) = try Self.extractValues()
        #expect(try main.double("temp") == 21.5)
        #expect(try main.string("name") == "Minsk")
        #expect(try list.map { value throws(JSONError) in try value.int() } == [1, 2, 3])
        #expect(try members[1].value.string() == "Minsk")
        #expect(main.path.description == "$.main")
    }

    @Test func valuesStayValidInOtherTasks() async throws {
        let value = try JSONDocument(parsing: #"{"v": [10, 20]}"#).rootValue
        let sum = await Task.detached { () -> Double in
            (try? value.member("v").numbersOrNulls().compactMap { $0 }.reduce(0, +)) ?? -1
        }.value
        #expect(sum == 30)
    }

    @Test func parsesALargeArray() throws {
        let count = 100_000
        var text = "["
        text.reserveCapacity(count * 7)
        for index in 0..<count {
            if index > 0 { text += "," }
            text += index % 10 == 9 ? "null" : String(index)
        }
        text += "]"
        let numbers = try root(text).numbersOrNulls()
        #expect(numbers.count == count)
        #expect(numbers[0] == 0)
        #expect(numbers[9] == nil)
        #expect(numbers[99_998] == 99_998)
        // Sum of 0..<100000 minus the indices ending in 9 (9, 19, ..., 99999).
        let all = count * (count - 1) / 2
        let nines = (0..<(count / 10)).reduce(0) { $0 + $1 * 10 + 9 }
        #expect(numbers.compactMap { $0 }.reduce(0, +) == Double(all - nines))
        #expect(numbers.filter { $0 == nil }.count == count / 10)
    }
}
