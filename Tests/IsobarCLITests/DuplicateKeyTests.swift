import Foundation
import IsobarCLI
import IsobarCore
import Testing

@Suite struct DuplicateKeyTests {
    @Test func theStrictParserRejectsADuplicatedKey() {
        #expect(throws: JSONError.self) { try JSONDocument(parsing: Array(#"{"type": "a", "type": "b"}"#.utf8), rejectingDuplicateKeys: true) }
        #expect(throws: JSONError.self) { try JSONDocument(parsing: Array(#"{"a": {"t": 1, "t": 2}}"#.utf8), rejectingDuplicateKeys: true) }
        #expect((try? JSONDocument(parsing: Array(#"{"type": "a", "b": {"type": 1}}"#.utf8), rejectingDuplicateKeys: true)) != nil)
    }

    /// Every command's JSON lines, every line type, parsed by a parser that rejects an object naming a key twice.
    @Test func noLineTypeWritesAKeyTwice() async throws {
        let cache = temporaryDirectory("duplicates")
        let environment = ["XDG_CACHE_HOME": cache, "XDG_DATA_HOME": cache + "/data"]
        let commands: [[String]] = [
            ["compare", "Minsk", "--demo"], ["now", "Tokyo", "--demo"], ["forecast", "London", "--demo", "--hourly", "--days", "2"],
            ["cities", "--demo"], ["cities", "add", "Tokyo", "--demo"], ["cities", "remove", "Tokyo", "--demo"],
            ["home", "set", "Minsk", "--demo"], ["home", "--demo"], ["search", "Paris", "--limit", "3"], ["search", "London, GB", "--add", "--demo"],
            ["providers", "--demo"], ["providers"], ["cache", "stats"], ["cache", "prune"], ["cache", "clear"],
        ]
        var types: Set<String> = []
        for command in commands {
            let run = await runCLI(command + ["--format", "jsonl"], environment: environment)
            #expect(run.code == 0, "\(command): \(run.stderr)")
            #expect(!run.lines.isEmpty, "\(command) wrote nothing")
            for line in run.lines {
                do {
                    let value = try JSONDocument(parsing: Array(line.utf8), rejectingDuplicateKeys: true).rootValue
                    types.insert(try value.string("type"))
                } catch {
                    Issue.record("\(command): \(error) in \(line.prefix(200))")
                }
            }
        }
        for type in ["provider_result", "consensus", "city", "city_added", "city_removed", "home_set", "place", "provider_info",
                     "cache_stats", "cache_pruned", "cache_cleared"] {
            #expect(types.contains(type), "no \(type) line was checked")
        }
    }
}
