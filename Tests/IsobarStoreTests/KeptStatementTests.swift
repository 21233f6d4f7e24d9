@testable import IsobarStore
import Testing

@Suite("Kept prepared statements")
struct KeptStatementTests {
    func connection() throws -> Connection {
        let connection = try Connection(path: ":memory:", busyTimeoutMilliseconds: 100)
        try connection.execute("CREATE TABLE t(k TEXT PRIMARY KEY, v INTEGER NOT NULL)")
        return connection
    }

    @Test func theSameStatementRunsAgainWithItsNewArguments() throws {
        let connection = try connection()
        for number in 0..<5 { try connection.query("INSERT INTO t(k, v) VALUES (?, ?)", [.text("k\(number)"), .integer(Int64(number))]) }
        for number in 0..<5 {
            #expect(try connection.query("SELECT v FROM t WHERE k = ?", [.text("k\(number)")]) == [[.integer(Int64(number))]])
        }
        #expect(try connection.query("SELECT v FROM t WHERE k = ?", [.text("none")]).isEmpty)
    }

    @Test func aStatementThatFailedRunsAgainCleanly() throws {
        let connection = try connection()
        try connection.query("INSERT INTO t(k, v) VALUES (?, ?)", [.text("a"), .integer(1)])
        #expect(throws: StoreError.self) { try connection.query("INSERT INTO t(k, v) VALUES (?, ?)", [.text("a"), .integer(2)]) }
        #expect(throws: StoreError.self) { try connection.query("INSERT INTO t(k, v) VALUES (?, ?)", [.text("b"), .null]) }
        try connection.query("INSERT INTO t(k, v) VALUES (?, ?)", [.text("b"), .integer(3)])
        #expect(try connection.query("SELECT k, v FROM t ORDER BY k") == [[.text("a"), .integer(1)], [.text("b"), .integer(3)]])
    }

    @Test func aKeptReadLeavesNothingOpen() throws {
        let connection = try connection()
        try connection.query("INSERT INTO t(k, v) VALUES ('a', 1), ('b', 2)")
        // Only the first of two rows is wanted, but the statement is read to its end and reset.
        #expect(try connection.query("SELECT v FROM t ORDER BY k").first == [.integer(1)])
        // A statement still stepping would make the table busy ("database table is locked").
        try connection.execute("DROP TABLE t")
        #expect(!connection.isInTransaction)
    }

    @Test func moreDistinctStatementsThanAreKeptAllStillRun() throws {
        let connection = try connection()
        let count = Connection.maxKeptStatements * 2 + 3
        for number in 0..<count {
            // Each text is a distinct statement.
            try connection.query("INSERT INTO t(k, v) VALUES ('k\(number)', \(number))")
        }
        #expect(try connection.query("SELECT count(*), sum(v) FROM t") == [[.integer(Int64(count)), .integer(Int64(count * (count - 1) / 2))]])
    }
}
