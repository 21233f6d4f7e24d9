@testable import IsobarStore
import Testing

/// Text arguments, which SQLite reads in place from one buffer per connection.
@Suite struct BoundTextTests {
    func connection() throws -> Connection {
        let connection = try Connection(path: ":memory:", busyTimeoutMilliseconds: 100)
        try connection.execute("CREATE TABLE t(a TEXT, b INTEGER, c TEXT, d TEXT)")
        return connection
    }

    @Test func textsOfEveryLengthAreStoredAsGiven() throws {
        let connection = try connection()
        let texts = ["", "é ☀︎ 北京", String(repeating: "x", count: 300), "short", String(repeating: "€", count: 5_000), "again"]
        for (index, text) in texts.enumerated() {
            try connection.query("INSERT INTO t(a, b, c, d) VALUES (?, ?, ?, ?)", [.text(text), .integer(Int64(index)), .text(text + "!"), .null])
        }
        let rows = try connection.query("SELECT a, c, d FROM t ORDER BY b")
        #expect(rows == texts.map { [.text($0), .text($0 + "!"), .null] })
        #expect(try connection.query("SELECT length(a) FROM t WHERE b = 4") == [[.integer(5_000)]])
    }

    @Test func aTextReadsTheSameInTheStatementThatBindsItTwice() throws {
        let connection = try connection()
        let long = String(repeating: "ab", count: 1_000)
        #expect(try connection.query("SELECT ? || ?, ?", [.text(long), .text("-"), .text(long)]) == [[.text(long + "-"), .text(long)]])
    }

    @Test func tooManyArgumentsFailAndTheNextStatementRunsCleanly() throws {
        let connection = try connection()
        #expect(throws: StoreError.self) { try connection.query("SELECT ?", [.text("one"), .text("two")]) }
        #expect(try connection.query("SELECT ?", [.text("three")]) == [[.text("three")]])
    }

    @Test func theBufferIsReusedRatherThanGrownForShorterTexts() {
        let texts = BoundText()
        texts.reserve(for: [.text(String(repeating: "y", count: 1_000))])
        let first = texts.copy(String(repeating: "y", count: 1_000))
        texts.reserve(for: [.text("z"), .integer(1), .text("w")])
        let second = texts.copy("z")
        let third = texts.copy("w")
        #expect(second.start == first.start)
        #expect(third.start == second.start + 2)
        #expect(String(cString: third.start) == "w")
        #expect((first.length, second.length, third.length) == (1_000, 1, 1))
    }
}
