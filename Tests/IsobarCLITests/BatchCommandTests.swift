import Foundation
@testable import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

/// Writes `text` to a new file and returns its path.
func batchInput(_ text: String) throws -> String {
    let path = temporaryDirectory("batch") + "/input.txt"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Suite struct BatchCommandTests {
    @Test func goodAndBadLinesGiveResultsInputErrorsAndASummary() async throws {
        let file = try batchInput("Minsk\n\n{\"id\": \"m\", \"place\": \"Moscow\"}\n{oops\n95,10\nXyzzy Qwertyville\n")
        let run = await runCLI(["batch", file, "--demo"])
        #expect(run.code == 2, "\(run.stderr)")
        let lines = try parseLines(run)
        let consensus = try lines.filter { try $0.string("type") == "consensus" }
        #expect(try consensus.map { try $0.int("input_line") }.sorted() == [1, 3])
        let moscow = try #require(consensus.first { try $0.int("input_line") == 3 })
        #expect(try moscow.string("id") == "m")
        #expect(try moscow.member("place").string("name") == "Moscow")
        #expect(try moscow.member("place").string("query") == "Moscow")
        let minsk = try #require(consensus.first { try $0.int("input_line") == 1 })
        #expect(try minsk.member(ifPresent: "id") == nil)
        let errors = try lines.filter { try $0.string("type") == "input_error" }
        #expect(try errors.map { try $0.int("input_line") } == [4, 5, 6])
        #expect(try errors.map { try $0.member("error").string("code") } == ["invalid_json", "bad_coordinates", "unknown_place"])
        #expect(try errors.map { try $0.string("input") } == ["{oops", "95,10", "Xyzzy Qwertyville"])
        let summary = try #require(lines.last)
        #expect(try summary.string("type") == "summary")
        #expect(try summary.int("places") == 2)
        #expect(try summary.int("ok") == 2)
        #expect(try summary.int("input_errors") == 3)
        #expect(try summary.int("requests") == 0)
        #expect(try summary.member("interrupted").bool() == false)
        // Every line starts with the schema and the type.
        #expect(run.lines.allSatisfy { $0.hasPrefix(#"{"schema":1,"type":""#) })
    }

    @Test func everyPlaceAnsweredIsExitZero() async throws {
        let run = await runCLI(["batch", try batchInput("Minsk\nMoscow\n"), "--demo", "--kind", "daily", "--days", "2"])
        #expect(run.code == 0, "\(run.stderr)")
        let lines = try parseLines(run)
        let results = try lines.filter { try $0.string("type") == "provider_result" }
        #expect(results.count == 10, "two places, five demo sources (Open-Meteo's three models a result each)")
        #expect(try results.allSatisfy { try $0.member("daily").count() <= 2 && $0.member(ifPresent: "current") == nil })
    }

    @Test func csvHasOneTableWithTheInputLineAndIdFirstAndBadLinesAsRows() async throws {
        let input = "{\"id\": \"m1\", \"place\": \"Minsk\"}\n200,200\nMoscow\n"
        let run = await runCLI(["batch", try batchInput(input), "--demo", "--format", "csv"])
        #expect(run.code == 2, "a bad line makes the run partial: \(run.stderr)")
        let rows = run.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(rows.first)
        #expect(Array(header.prefix(3)) == ["input_line", "id", "place"])
        #expect(header.contains("temperature_c"))
        #expect(rows.dropFirst().allSatisfy { $0.count == header.count }, "every row has every column")
        let source = try #require(header.firstIndex(of: "source"))
        let minsk = rows.filter { $0[0] == "1" }
        #expect(minsk.allSatisfy { $0[1] == "m1" })
        // The NWS plug-in, outside its coverage in Minsk, is one skipped row.
        #expect(Set(minsk.map { $0[source] }) == ["openweathermap", "open-meteo/ecmwf_ifs025", "open-meteo/gfs_seamless",
                                                  "open-meteo/icon_seamless", "met-norway", "nws", "consensus"])
        let bad = try #require(rows.first { $0[0] == "2" })
        let error = try #require(header.firstIndex(of: "error"))
        #expect(bad[source] == "input_error" && bad[error] == "bad_coordinates" && bad.last == "")
        #expect(rows.contains { $0[0] == "3" && $0[source] == "consensus" })
        #expect(!run.stdout.contains("summary"), "the summary is not a row")
        #expect(run.stderr.contains("2 places: 2 ok, 0 partial, 0 failed; 1 input errors"))
    }

    @Test func onlyBadLinesIsExitThree() async throws {
        let run = await runCLI(["batch", try batchInput("{\"id\": 1}\n200,200\n"), "--demo"])
        #expect(run.code == 3)
        let lines = try parseLines(run)
        #expect(lines.count == 3)
        #expect(try lines[0].member("error").string("code") == "bad_input")
        #expect(try lines[1].member("error").string("code") == "bad_coordinates")
    }

    @Test func anEmptyInputIsJustASummary() async throws {
        let run = await runCLI(["batch", try batchInput(""), "--demo"])
        #expect(run.code == 0)
        #expect(run.lines.count == 1)
        #expect(run.stdout.contains(#""type":"summary","places":0,"ok":0,"partial":0,"failed":0,"input_errors":0"#))
    }

    @Test func inputOrderKeepsTheLinesInOrder() async throws {
        var text = ""
        for index in 0..<40 { text += index % 7 == 3 ? "{broken\n" : (index % 2 == 0 ? "Minsk\n" : "Moscow\n") }
        let run = await runCLI(["batch", try batchInput(text), "--demo", "--order", "input", "--jobs", "3"])
        let numbers = try parseLines(run).dropLast().map { try $0.int("input_line") }
        #expect(numbers == numbers.sorted())
        #expect(Set(numbers) == Set(1...40))
    }

    @Test func aLongLineIsReportedAndTheRunGoesOn() async throws {
        let run = await runCLI(["batch", try batchInput(String(repeating: "x", count: 10_000) + "\nMinsk"), "--demo"])
        let lines = try parseLines(run)
        let error = try #require(lines.first { try $0.string("type") == "input_error" })
        #expect(try error.int("input_line") == 1)
        #expect(try error.member("error").string("code") == "line_too_long")
        #expect(try error.string("input").count == 200)
        #expect(try lines.contains { try $0.string("type") == "consensus" && $0.int("input_line") == 2 })
    }

    @Test func aMissingFileIsExit66() async throws {
        let run = await runCLI(["batch", "/nonexistent/places.txt", "--demo"])
        #expect(run.code == 66)
        #expect(run.stderr.hasPrefix("isobar: cannot read /nonexistent/places.txt"))
        #expect(run.stdout.isEmpty)
    }

    @Test func aDirectoryIsExit66() async throws {
        let run = await runCLI(["batch", temporaryDirectory("batch-dir"), "--demo"])
        #expect(run.code == 66)
        #expect(run.stderr.contains("is a directory"))
    }

    @Test(arguments: [
        (["--format", "table"], "invalid value 'table' for --format"), (["--jobs", "0"], "--jobs takes a whole number from 1 to 256"),
        (["--order", "random"], "--order"), (["--kind", "weekly"], "--kind"), (["--deadline", "soon"], "--deadline takes a duration"),
        (["a.txt", "b.txt"], "unexpected argument"),
    ])
    func badOptionsAreUsageErrors(_ options: [String], _ message: String) async throws {
        let run = await runCLI(["batch"] + options + ["--demo"])
        #expect(run.code == 64, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func noProgressLineWhenStderrIsNotATerminal() async throws {
        let run = await runCLI(["batch", try batchInput("Minsk\n"), "--demo"])
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    @Test func aSecondRunTakesEveryAnswerFromTheCache() async throws {
        let server = try providerServer()
        defer { server.stop() }
        let cache = temporaryDirectory("batch-cache")
        let file = try batchInput("53.9,27.57\n{\"id\": \"b\", \"latitude\": 52.1, \"longitude\": 23.7}\n")
        let arguments = ["batch", file, "--config", try liveConfiguration(server)]
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": cache]
        let first = await runCLI(arguments, environment: environment, transport: { CurlTransport(userAgent: "isobar/test") })
        #expect(first.code == 0, "\(first.stderr)")
        let asked = server.requests.count
        #expect(try parseLines(first).last?.int("requests") == asked)
        let second = await runCLI(arguments, environment: environment, transport: { CurlTransport(userAgent: "isobar/test") })
        let summary = try #require(try parseLines(second).last)
        #expect(try summary.int("requests") == 0)
        #expect(try summary.int("cache_hits") == 4)
        #expect(server.requests.count == asked)
    }

    @Test func theDeadlineStopsReadingAndSaysHowFarItGot() async throws {
        let server = try LoopbackServer { _ in .init("{}", delaySeconds: 5) }
        defer { server.stop() }
        let file = try batchInput((0..<50).map { "\(10 + $0),10" }.joined(separator: "\n"))
        let run = await runCLI(["batch", file, "--config", try liveConfiguration(server), "--providers", "open-meteo", "--deadline", "1", "--jobs", "2"],
                               transport: { CurlTransport(userAgent: "isobar/test") })
        #expect(run.code == 3, "\(run.stderr)")
        #expect(run.stderr.contains("deadline passed"), "\(run.stderr)")
        let lines = try parseLines(run)
        let summary = try #require(lines.last)
        #expect(try summary.int("failed") == summary.int("places"))
        let errors = try lines.filter { try $0.string("type") == "provider_error" }.map { try $0.member("error") }
        let described = try errors.map { "\(try $0.string("code"))/\(try $0.optionalString("reason") ?? "-")" }
        // Reading stops at the deadline; or, once the calls the deadline cut have opened the provider's breaker, the places
        // left are skipped at once, never asked and never waited for.
        #expect(try summary.int("places") < 50 || described.contains("unavailable/breaker_open"), "\(described)")
        // The places under way when the deadline came end at it; on a loaded machine a place may also fail another way first
        // (a loopback connection reset), which is still a failure counted in the summary.
        #expect(try errors.contains { try $0.string("code") == "timeout" && $0.optionalString("reason") == "deadline" }, "\(described)")
    }

    @Test func exitCodesFollowTheCounts() {
        func counts(ok: Int = 0, partial: Int = 0, failed: Int = 0, bad: Int = 0) -> BatchCounts {
            BatchCounts(places: ok + partial + failed, ok: ok, partial: partial, failed: failed, inputErrors: bad, cacheHits: 0)
        }
        #expect(BatchCommand.batchExitCode(counts(), cutShort: false) == .success)
        #expect(BatchCommand.batchExitCode(counts(ok: 3), cutShort: false) == .success)
        #expect(BatchCommand.batchExitCode(counts(ok: 3), cutShort: true) == .partial)
        #expect(BatchCommand.batchExitCode(counts(ok: 3, bad: 1), cutShort: false) == .partial)
        #expect(BatchCommand.batchExitCode(counts(ok: 1, failed: 1), cutShort: false) == .partial)
        #expect(BatchCommand.batchExitCode(counts(partial: 1), cutShort: false) == .partial)
        #expect(BatchCommand.batchExitCode(counts(failed: 2), cutShort: false) == .noneAnswered)
        #expect(BatchCommand.batchExitCode(counts(bad: 2), cutShort: false) == .noneAnswered)
    }
}
