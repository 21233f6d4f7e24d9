import IsobarCore
@testable import IsobarHTTP
import Testing

/// Header lines are read from libcurl's bytes as they arrive, CRLF and all.
@Suite struct HeaderLineTests {
    private func field(_ text: String) -> HTTPHeader? {
        Array(text.utf8).withUnsafeBufferPointer { HeaderLine.field($0) }
    }

    private func isStatus(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { HeaderLine.isStatusLine($0) }
    }

    @Test func aFieldLosesTheBlanksAroundItsValueAndTheLineEnd() {
        #expect(field("Content-Type: application/json\r\n") == HTTPHeader("Content-Type", "application/json"))
        #expect(field("X-Test:\t 1 \t\r\n") == HTTPHeader("X-Test", "1"))
        #expect(field("Retry-After:120\n") == HTTPHeader("Retry-After", "120"))
        #expect(field("Location: https://h/x?a=b:c\r\n") == HTTPHeader("Location", "https://h/x?a=b:c"))
        #expect(field("ETag: \"v 1\"\r\n") == HTTPHeader("ETag", "\"v 1\""))
        #expect(field("X-Empty:\r\n") == HTTPHeader("X-Empty", ""))
        #expect(field("X-Blank:   \r\n") == HTTPHeader("X-Blank", ""))
        #expect(field("X-Utf8: Zürich\r\n") == HTTPHeader("X-Utf8", "Zürich"))
    }

    @Test func statusLinesBlankLinesAndLinesWithoutAColonAreNoFields() {
        #expect(field("HTTP/1.1 301 Moved: elsewhere\r\n") == nil)
        #expect(field("\r\n") == nil)
        #expect(field("garbage\r\n") == nil)
        #expect(field("") == nil)
        #expect(isStatus("HTTP/1.1 200 OK\r\n"))
        #expect(isStatus("HTTP/2 200\r\n"))
        #expect(!isStatus("HTTP\r\n"))
        #expect(!isStatus("X-HTTP/1.1: no\r\n"))
    }
}
