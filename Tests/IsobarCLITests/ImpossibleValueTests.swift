import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

@Suite(.serialized) struct ImpossibleValueTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    @Test func aDuplicatedKeyIsABadResponseNamingItsPath() async throws {
        let server = try minskServer { $0.replacingOccurrences(of: #""temp":0.04"#, with: #""temp":-3.42,"temp":99"#) }
        let run = await runCLI(["compare", "Minsk", "--config", try liveConfiguration(server), "--format", "jsonl",
                                "--cache-dir", temporaryDirectory("duplicate-cache")],
                               environment: ["TEST_OWM_KEY": sentinelKey], transport: curl)
        #expect(run.code == ExitCode.partial.rawValue, "\(run.stdout)\(run.stderr)")
        #expect(!run.stdout.contains(#""temperature":99"#))
        let lines = try parseLines(run)
        let failure = try #require(lines.first { (try? $0.string("type")) == "provider_error" })
        #expect(try failure.member("error").string("code") == "bad_response")
        #expect(try failure.member("error").string("message").contains("$.main.temp"))
    }

    @Test(arguments: [
        (#""humidity":98"#, #""humidity":250"#, "humidity_percent", "250", "humidity"),
        (#""temp":0.04"#, #""temp":-500"#, "temperature_c", "-500", "temperature"),
        (#""pressure":999"#, #""pressure":1e300"#, "pressure_hpa", "1e+300", "pressure"),
    ])
    func anImpossibleValueIsDroppedWithAWarningAndNeverCached(original: String, replacement: String, field: String, value: String,
                                                             key: String) async throws {
        let server = try minskServer { $0.replacingOccurrences(of: original, with: replacement) }
        let config = try liveConfiguration(server)
        let cache = temporaryDirectory("impossible-cache")
        let arguments = ["compare", "Minsk", "--config", config, "--cache-dir", cache]
        let run = await runCLI(arguments + ["--format", "jsonl"], environment: ["TEST_OWM_KEY": sentinelKey], transport: curl)
        #expect(run.code == 0, "\(run.stdout)\(run.stderr)")
        let owm = try resultLine(try parseLines(run), provider: "openweathermap")
        let warning = try #require(try owm.member("warnings").elements().first)
        #expect(try warning.string("field") == field)
        #expect(try warning.string("value") == value)
        #expect(try warning.string("path").contains(field))
        #expect(try owm.member("notes").elements().contains { try $0.string("code") == "dropped_value" })
        let current = try owm.member("current")
        #expect(try current.member(key).isNull)
        #expect(try current.nonNullMember("wind_speed") != nil, "the other fields are used")

        let requests = server.requests.count
        let cached = await runCLI(arguments + ["--format", "jsonl"], environment: ["TEST_OWM_KEY": sentinelKey], transport: curl)
        #expect(server.requests.count == requests, "the second run is answered from the cache")
        let again = try resultLine(try parseLines(cached), provider: "openweathermap")
        #expect(try again.member(ifPresent: "warnings") == nil)
        #expect(try again.member("current").member(key).isNull, "nothing out of range was cached")
        #expect(try again.member(ifPresent: "age_s") != nil)

        let fresh = temporaryDirectory("impossible-table")
        let table = await runCLI(["compare", "Minsk", "--config", config, "--cache-dir", fresh],
                                 environment: ["TEST_OWM_KEY": sentinelKey], transport: curl)
        #expect(table.stdout.contains("OpenWeatherMap: \(field) \(value) at current.\(field) was left out"), "\(table.stdout)")
    }

    @Test func aFieldOfTheWrongTypeIsDroppedAndTheRestIsUsed() async throws {
        let server = try minskServer { $0.replacingOccurrences(of: #""visibility":2700"#, with: #""visibility":"far""#) }
        let run = await runCLI(["compare", "Minsk", "--config", try liveConfiguration(server), "--format", "jsonl",
                                "--cache-dir", temporaryDirectory("wrong-type-cache")],
                               environment: ["TEST_OWM_KEY": sentinelKey], transport: curl)
        #expect(run.code == 0, "\(run.stdout)\(run.stderr)")
        let owm = try resultLine(try parseLines(run), provider: "openweathermap")
        #expect(try owm.member("current").double("temperature") == 0.04)
        let warning = try #require(try owm.member("warnings").elements().first)
        #expect(try warning.string("path") == "$.visibility")
        #expect(try warning.string("value") == #""far""#)
    }

    @Test func recordedAnswersJudgedOnTodaysClockLoseTheirOldCurrentConditions() async throws {
        let server = try minskServer()
        let run = await runCLI(["compare", "Minsk", "--config", try liveConfiguration(server), "--format", "jsonl",
                                "--providers", "openweathermap", "--cache-dir", temporaryDirectory("old-times-cache")],
                               environment: ["TEST_OWM_KEY": sentinelKey, "ISOBAR_TIME_SHIFT": "0"], transport: curl)
        let owm = try resultLine(try parseLines(run), provider: "openweathermap")
        #expect(try owm.member("current").isNull, "observed on 2026-11-28, more than 2 days before any run from now on")
        let warnings = try owm.member("warnings").elements()
        #expect(try warnings.contains { try $0.string("path") == "current.time" })
    }

    @Test(arguments: ["soon", "1e40", "nan", ""])
    func aTimeShiftThatIsNotANumberOfSecondsIsAUsageError(value: String) async {
        let run = await runCLI(["cities"], environment: ["ISOBAR_TIME_SHIFT": value])
        expectOneLineError(run, code: .usage, containing: "ISOBAR_TIME_SHIFT must be a number of seconds")
    }
}
