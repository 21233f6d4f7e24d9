import IsobarCore
import Testing

/// The small XML reader CAP and RSS are read with: what it takes, and the clear error for everything it does not.
@Suite("XML reader")
struct XMLReaderTests {
    @Test func elementsAttributesAndTextAreRead() throws {
        let root = try XMLReader.parse(#"<?xml version="1.0" encoding="UTF-8"?><a x="1" y='two'><b>one</b><b/><c>three</c></a>"#)
        #expect(root.name == "a" && root.attribute("x") == "1" && root.attribute("y") == "two")
        #expect(root.children("b").count == 2)
        #expect(root.childText("b") == "one" && root.childText("c") == "three" && root.childText("d") == nil)
    }

    @Test func theFiveEntitiesAndNumericReferencesAreResolved() throws {
        let root = try XMLReader.parse(#"<t q="&quot;a&apos;">&lt;&gt;&amp;&quot;&apos; &#216;&#xF8;&#x1F32C;</t>"#)
        #expect(root.text == "<>&\"' Øø🌬")
        #expect(root.attribute("q") == "\"a'")
    }

    @Test func cdataIsTextAsWrittenAndCommentsAndInstructionsAreSkipped() throws {
        let root = try XMLReader.parse("<t><!-- a <comment> --><?skip me?>x<![CDATA[<b>&amp;</b>]]>y</t><!-- after -->\n")
        #expect(root.text == "x<b>&amp;</b>y")
        #expect(root.children.isEmpty)
    }

    @Test func namespacePrefixesStayInNamesAndLocalNamesMatch() throws {
        let root = try XMLReader.parse(#"<cap:alert xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2"><cap:identifier>X1</cap:identifier></cap:alert>"#)
        #expect(root.name == "cap:alert" && root.localName == "alert")
        #expect(root.childText("identifier") == "X1")
        #expect(root.attribute("cap") == "urn:oasis:names:tc:emergency:cap:1.2")
    }

    @Test func lineEndsAreNormalisedAndABOMIsSkipped() throws {
        let root = try XMLReader.parse([0xEF, 0xBB, 0xBF] + Array("<t>a\r\nb\rc</t>".utf8))
        #expect(root.text == "a\nb\nc")
    }

    @Test(arguments: [
        ("<a><b></a>", "line 1: </a> closes <b>"),
        ("<a>\n<b>\n</b>", "line 3: <a> is never closed"),
        ("<a>&nbsp;</a>", "line 1: &nbsp; is not one of XML's five entities"),
        ("<a>fish & chips</a>", "line 1: a '&' that starts no reference (write &amp;)"),
        ("<a>&#0;</a>", "line 1: &#0; is not a character XML allows"),
        ("<a>&#xD800;</a>", "line 1: &#xD800; is not a character XML allows"),
        ("<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>", "line 1: declarations such as <!DOCTYPE are not read"),
        ("<a/><b/>", "line 1: a second root element <b>"),
        ("text<a/>", "line 1: text outside the root element"),
        ("", "line 1: there is no root element"),
        ("<a x=1/>", "line 1: the value of x is not quoted"),
        ("<a x='1' x='2'/>", "line 1: <a> has the attribute x twice"),
        ("<a><!-- never closed</a>", "line 1: a comment is never closed"),
        ("<a><![CDATA[ never closed</a>", "line 1: a CDATA section is never closed"),
        ("<1a/>", "line 1: a name was expected after <"),
        ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>", "line 1: the encoding iso-8859-1 is not read (UTF-8 only)"),
        ("<a", "line 1: <a is never finished"),
    ])
    func malformedDocumentsAreClearErrors(text: String, message: String) {
        #expect(throws: XMLError.self) { try XMLReader.parse(text) }
        do {
            _ = try XMLReader.parse(text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func textThatIsNotUTF8IsAnError() {
        #expect(throws: XMLError("the document is not UTF-8 text", line: 1)) { try XMLReader.parse([0x3C, 0x61, 0x3E, 0xFF, 0x3C, 0x2F, 0x61, 0x3E]) }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
        #expect(throws: XMLError.self) { try XMLReader.parse(deep) }
        let allowed = String(repeating: "<a>", count: XMLReader.maximumDepth) + String(repeating: "</a>", count: XMLReader.maximumDepth)
        #expect((try? XMLReader.parse(allowed)) != nil)
    }

    @Test func everyPrefixOfADocumentIsReadOrRefusedWithoutACrash() {
        let document = #"<?xml version="1.0"?><a x="&amp;1"><!-- c --><b><![CDATA[x]]>&#65;</b></a>"#
        let bytes = Array(document.utf8)
        for end in 0..<bytes.count {
            #expect(throws: XMLError.self) { try XMLReader.parse(Array(bytes[0..<end])) }
        }
        #expect((try? XMLReader.parse(bytes)) != nil)
    }
}
