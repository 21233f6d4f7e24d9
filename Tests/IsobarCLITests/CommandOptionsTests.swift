import Foundation
@testable import IsobarCLI
import IsobarCore
import Testing

@Suite struct CommandOptionsTests {
    @Test(arguments: [("90", 90.0), ("90s", 90), ("15m", 900), ("1h", 3600), ("2d", 172_800), ("1.5h", 5400), (" 30S ", 30), ("0", 0)])
    func durationsAreReadInEveryUnit(text: String, seconds: Double) {
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test(arguments: ["", "s", "-5", "5x", "1e400", "inf", "nan", "5 m", "1h30m", "٥"])
    func badDurationsAreRefused(text: String) {
        #expect(DurationText.seconds(text) == nil)
    }

    @Test func durationsWorkWhereSecondsDid() throws {
        let options = try Invocation(["Minsk", "--timeout", "2m", "--max-age", "1h"], command: Commands.compare).options
        #expect(options.timeoutSeconds == 120)
        #expect(options.maxAgeSeconds == 3600)
        let prune = try Invocation(["prune", "--older-than", "2d"], command: Commands.cache).options
        #expect(prune.olderThanSeconds == 172_800)
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "--timeout", "11m"], command: Commands.compare) }
    }

    @Test func jsonIsAShortcutForFormatJSONLines() throws {
        #expect(try Invocation(["Minsk", "--json"], command: Commands.compare).options.format == .jsonl)
        #expect(try Invocation(["Minsk", "--json", "--format", "jsonl"], command: Commands.compare).options.format == .jsonl)
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "--json", "--format", "table"], command: Commands.compare) }
        #expect(try Invocation(["stats", "--json"], command: Commands.cache).options.format == .jsonl)
        #expect(try Invocation(["--json"], command: Commands.providers).options.format == .jsonl)
    }

    @Test func shortFlagsStandForTheirLongOptions() throws {
        #expect(try Invocation(["Minsk", "-v"], command: Commands.compare).options.verbose)
        #expect(try Invocation(["Minsk", "-h"], command: Commands.compare).options.help)
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "-x"], command: Commands.compare) }
    }

    @Test func conflictingOptionsAreRefusedBeforeAnythingRuns() {
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "--demo", "--config", "x.json"], command: Commands.compare) }
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "--offline", "--refresh"], command: Commands.compare) }
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "--record", "d", "--replay", "e"], command: Commands.compare) }
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "--weights", "a=-1"], command: Commands.compare) }
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "--providers", ","], command: Commands.compare) }
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "--days", "17"], command: Commands.forecast) }
    }
}
