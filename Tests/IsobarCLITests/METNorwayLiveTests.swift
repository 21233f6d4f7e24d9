import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Synchronization
import Testing

/// A loopback MET Norway answering the bundled Minsk body with `Expires` and `Last-Modified` as its terms describe, or
/// `status` (203, 429, …) when set; `If-Modified-Since` equal to `Last-Modified` gets a 304.
final class METNorwayOrigin: Sendable {
    static let lastModified = "Sat, 28 Nov 2026 08:40:00 GMT"
    let server: LoopbackServer
    private let state: State

    /// What the origin answers, shared with the server's handler.
    final class State: Sendable {
        let value: Mutex<(status: Int, expiresIn: Double)>
        init(status: Int, expiresIn: Double) { value = Mutex((status, expiresIn)) }
    }

    init(status: Int = 200, expiresIn: Double) throws {
        let body = try cassetteText(provider: "met-norway", place: "minsk", pathSuffix: "/weatherapi/locationforecast/2.0/compact")
        let state = State(status: status, expiresIn: expiresIn)
        self.state = state
        server = try LoopbackServer { request in
            let (status, expiresIn) = state.value.withLock { $0 }
            if status == 429 { return .init(status: 429, headers: [("Retry-After", "30")], body: Array("Too Many Requests".utf8)) }
            // Expires on the clock the tests give Isobar (ISOBAR_TIME_SHIFT), as the real server's would be on real time.
            let expires = Date().addingTimeInterval((Double(recordingTimeShift) ?? 0) + expiresIn)
            let headers = [("Content-Type", "application/json"), ("Expires", METNorwayOrigin.httpDate(expires)),
                           ("Last-Modified", METNorwayOrigin.lastModified)]
            if request.headers["if-modified-since"] == METNorwayOrigin.lastModified {
                return .init(status: 304, headers: Array(headers.dropFirst()), body: [])
            }
            return .init(status: status, headers: headers, body: Array(body.utf8))
        }
    }

    func set(status: Int? = nil, expiresIn: Double? = nil) {
        state.value.withLock { value in
            if let status { value.status = status }
            if let expiresIn { value.expiresIn = expiresIn }
        }
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

/// The bundled Minsk body's air temperature at `time` (the tests' clock reads just after 12:00 UTC on the recording day).
private func recordedTemperature(at time: String) throws -> Double {
    let body = try cassetteText(provider: "met-norway", place: "minsk", pathSuffix: "/weatherapi/locationforecast/2.0/compact")
    let series = try JSONDocument(parsing: body).rootValue.member("properties").member("timeseries").elements()
    let step = try #require(try series.first { try $0.string("time") == time })
    return try step.member("data").member("instant").member("details").double("air_temperature")
}

@Suite(.serialized) struct METNorwayLiveTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    func configuration(_ origin: METNorwayOrigin, contact: String? = "ops@example.org", extra: String = "") throws -> String {
        let contactMember = contact.map { #", "contact": "\#($0)""# } ?? ""
        return try temporaryConfiguration(#"{"providers": [{"id": "met-norway", "type": "met-norway", "base_url": "\#(origin.server.baseURL)"\#(contactMember)\#(extra)}]}"#)
    }

    func run(_ config: String, cache: String, _ extra: [String] = [], secondsLater: Int = 0) async -> CLIRun {
        await runCLI(["now", "Minsk", "--config", config, "--format", "jsonl", "--cache-dir", cache] + extra,
                     environment: ["ISOBAR_TIME_SHIFT": String(Int(recordingTimeShift)! + secondsLater)], transport: curl)
    }

    @Test func theUserAgentNamesIsobarAndTheContactAndCoordinatesHaveFourDecimals() async throws {
        let origin = try METNorwayOrigin(expiresIn: 1800)
        let result = await run(try configuration(origin), cache: temporaryDirectory("met-ua"))
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        let request = try #require(origin.server.requests.first)
        #expect(request.headers["user-agent"] == "isobar/\(IsobarCommandLine.version) ops@example.org")
        #expect(request.query == "lat=53.9&lon=27.5667")
        let line = try resultLine(try parseLines(result), provider: "met-norway")
        #expect(try line.member("current").double("temperature") == recordedTemperature(at: "2026-11-28T12:00:00Z"))
    }

    @Test func withoutAContactNothingIsSentAndTheProviderIsNotConfigured() async throws {
        let origin = try METNorwayOrigin(expiresIn: 1800)
        let result = await run(try configuration(origin, contact: nil), cache: temporaryDirectory("met-no-contact"))
        #expect(result.code == ExitCode.noneAnswered.rawValue)
        #expect(origin.server.requests.isEmpty)
        let error = try #require(try parseLines(result).first { try $0.string("type") == "provider_error" })
        #expect(try error.member("error").string("code") == "not_configured")
        #expect(try error.member("error").string("message").contains("contact"))
    }

    @Test func expiresIsHonouredEvenBeyondTheConfiguredLifetime() async throws {
        let origin = try METNorwayOrigin(expiresIn: 3600)
        let config = try configuration(origin, extra: #", "ttl_s": {"current": 1, "forecast": 1}"#)
        let cache = temporaryDirectory("met-expires")
        #expect(await run(config, cache: cache).code == 0)
        // Two seconds later on the command's clock: past the configured lifetime (1 s), long before Expires.
        let second = await run(config, cache: cache, secondsLater: 2)
        #expect(second.code == 0)
        #expect(origin.server.requests.count == 1, "not asked again before Expires")
        let line = try resultLine(try parseLines(second), provider: "met-norway")
        #expect(try line.string("status") == "cached")
    }

    @Test func afterExpiresItRevalidatesWithIfModifiedSinceAndA304RefreshesTheAnswer() async throws {
        let origin = try METNorwayOrigin(expiresIn: -60)
        let config = try configuration(origin)
        let cache = temporaryDirectory("met-revalidate")
        #expect(await run(config, cache: cache).code == 0)
        origin.set(expiresIn: 1800)
        let second = await run(config, cache: cache)
        #expect(second.code == 0, "\(second.stdout)\(second.stderr)")
        #expect(origin.server.requests.count == 2)
        #expect(origin.server.requests.last?.headers["if-modified-since"] == METNorwayOrigin.lastModified)
        let line = try resultLine(try parseLines(second), provider: "met-norway")
        #expect(try line.member(ifPresent: "revalidated")?.bool() == true)
        #expect(try line.member("current").double("temperature") == recordedTemperature(at: "2026-11-28T12:00:00Z"))
        let third = await run(config, cache: cache)
        #expect(origin.server.requests.count == 2, "the 304 gave the answer a new lifetime: \(third.stderr)")
    }

    /// MET Norway's terms ask every client to send `If-Modified-Since` when it knows the answer's `Last-Modified`:
    /// `--refresh` asks the origin again, but conditionally, as `--max-age 0` does.
    @Test(arguments: [["--refresh"], ["--max-age", "0"]])
    func askingAgainWhileTheAnswerIsFreshRevalidatesWithIfModifiedSince(_ again: [String]) async throws {
        let origin = try METNorwayOrigin(expiresIn: 1800)
        let config = try configuration(origin)
        let cache = temporaryDirectory("met-refresh")
        #expect(await run(config, cache: cache).code == 0)
        let second = await run(config, cache: cache, again)
        #expect(second.code == 0, "\(second.stdout)\(second.stderr)")
        #expect(origin.server.requests.count == 2)
        #expect(origin.server.requests.last?.headers["if-modified-since"] == METNorwayOrigin.lastModified)
        let line = try resultLine(try parseLines(second), provider: "met-norway")
        #expect(try line.string("status") == "ok")
        #expect(try line.member(ifPresent: "revalidated")?.bool() == true)
        #expect(try line.member("current").double("temperature") == recordedTemperature(at: "2026-11-28T12:00:00Z"))
    }

    /// Recording keeps whole answers for its cassettes, so it sends no validators.
    @Test func recordingFetchesTheWholeAnswer() async throws {
        let origin = try METNorwayOrigin(expiresIn: 1800)
        let config = try configuration(origin)
        let cache = temporaryDirectory("met-record")
        #expect(await run(config, cache: cache).code == 0)
        let recorded = await run(config, cache: cache, ["--record", temporaryDirectory("met-cassettes")])
        #expect(recorded.code == 0, "\(recorded.stdout)\(recorded.stderr)")
        #expect(origin.server.requests.count == 2)
        #expect(origin.server.requests.last?.headers["if-modified-since"] == nil)
    }

    @Test func a203AnswerIsUsedWithANoticeThatTheProductIsDeprecated() async throws {
        let origin = try METNorwayOrigin(status: 203, expiresIn: 1800)
        let result = await run(try configuration(origin), cache: temporaryDirectory("met-203"))
        #expect(result.code == 0)
        let line = try resultLine(try parseLines(result), provider: "met-norway")
        let notes = try line.member("notes").elements()
        #expect(try notes.contains { try $0.string("code") == "provider_notice" && $0.string("message").contains("deprecated") })
        let table = await runCLI(["now", "Minsk", "--config", try configuration(origin), "--cache-dir", temporaryDirectory("met-203t")],
                                 transport: curl)
        #expect(table.stdout.contains("MET Norway: MET Norway says this product version is deprecated"), "\(table.stdout)")
    }

    @Test func a429IsRateLimitedWithItsRetryAfter() async throws {
        let origin = try METNorwayOrigin(status: 429, expiresIn: 1800)
        let result = await run(try configuration(origin), cache: temporaryDirectory("met-429"))
        #expect(result.code == ExitCode.noneAnswered.rawValue)
        let error = try #require(try parseLines(result).first { try $0.string("type") == "provider_error" })
        #expect(try error.member("error").string("code") == "rate_limited")
        #expect(try error.member("error").double("retry_after_s") == 30)
        #expect(origin.server.requests.count == 1, "a 429 is not retried at once")
    }
}
