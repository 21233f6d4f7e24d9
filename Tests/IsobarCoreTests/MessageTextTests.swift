import IsobarCore
import Testing

@Suite("Messages quoting outside text stay on one line")
struct MessageTextTests {
    @Test func controlCharactersAndSeparatorsAreEscaped() {
        #expect(MessageText.oneLine("a\nb\tc\u{1B}[2J\u{2028}d\u{7F}") == "a\\u{A}b\\u{9}c\\u{1B}[2J\\u{2028}d\\u{7F}")
        #expect(MessageText.oneLine("Минск, São Paulo 🙂") == "Минск, São Paulo 🙂")
        #expect(MessageText.oneLine("") == "")
        #expect(MessageText.oneLine(" plain text, 100 % ~ASCII ") == " plain text, 100 % ~ASCII ")
        #expect(MessageText.oneLine("ends with a tab\t") == "ends with a tab\\u{9}")
        #expect(MessageText.oneLine("x\u{7F}") == "x\\u{7F}")
        #expect(MessageText.oneLine("~\u{80}") == "~\\u{80}")
    }

    @Test func errorsEscapeWhatTheyQuote() {
        #expect(ProviderError(.unavailable, "x\ny").message == "x\\u{A}y")
        let syntax = #expect(throws: JSONError.self) { try JSONDocument(parsing: Array("{\"a\":\u{0C}}".utf8)) }
        #expect(syntax?.description.contains("\\u{C}") == true)
        #expect(syntax?.description.contains("\u{0C}") == false)
        #expect(JSONPath.root.appending(key: "a\nb").description == "$[\"a\\u{A}b\"]")
    }
}
