import FoundationEssentials
import IsobarCore
import IsobarTestKit
import Testing

@Suite("RetryAfter and ProviderError.forStatus")
struct HTTPStatusMappingTests {
    /// `Sun, 06 Nov 1994 08:49:37 GMT`: 9 075 days (24 years with 6 leap days, plus 309 days) and 31 777 s.
    static let rfcExampleDate = Date(timeIntervalSince1970: 784_111_777)
    static let now = Date(timeIntervalSince1970: 1_795_856_400)

    private func response(_ status: Int, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: [])
    }

    private func map(_ status: Int, headers: [HTTPHeader] = [], message: String? = nil) -> ProviderError? {
        ProviderError.forStatus(response(status, headers: headers), provider: "OpenWeatherMap", serverMessage: message, now: Self.now)
    }

    @Test func a503SaysWhenToComeBackWhenItsRetryAfterDoes() throws {
        let error = try #require(map(503, headers: [HTTPHeader("Retry-After", "30")]))
        #expect(error.code == .unavailable)
        #expect(error.retryAfterSeconds == 30)
        #expect(error.message == "OpenWeatherMap is unavailable (HTTP 503); retry in 30 s")
        #expect(try #require(map(503)).retryAfterSeconds == nil)
        #expect(try #require(map(500, headers: [HTTPHeader("Retry-After", "soon")])).retryAfterSeconds == nil)
    }

    // MARK: RetryAfter

    @Test(arguments: [("120", 120.0), ("0", 0), (" 30 ", 30), ("\t7", 7), ("86400", 86_400)])
    func secondsForm(text: String, expected: Double) {
        #expect(RetryAfter.seconds(text, now: Self.now) == expected)
    }

    @Test func httpDateParsing() {
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == Self.rfcExampleDate)
        #expect(RetryAfter.httpDate("Sat, 28 Nov 2026 09:00:00 GMT") == Self.now)
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 08:49:37 UTC") == nil)
        #expect(RetryAfter.httpDate("Sun, 31 Feb 1994 08:49:37 GMT") == nil)
        #expect(RetryAfter.httpDate("Sun, 06 Foo 1994 08:49:37 GMT") == nil)
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 25:49:37 GMT") == nil)
        #expect(RetryAfter.httpDate("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
    }

    @Test func httpDateFormIsRelativeToNow() {
        let text = "Sun, 06 Nov 1994 08:49:37 GMT"
        #expect(RetryAfter.seconds(text, now: Self.rfcExampleDate.addingTimeInterval(-60)) == 60)
        #expect(RetryAfter.seconds(text, now: Self.rfcExampleDate.addingTimeInterval(-0.5)) == 0.5)
        #expect(RetryAfter.seconds(text, now: Self.rfcExampleDate) == 0)
        #expect(RetryAfter.seconds(text, now: Self.rfcExampleDate.addingTimeInterval(3600)) == 0)
        #expect(RetryAfter.seconds("  Sat, 28 Nov 2026 09:02:00 GMT ", now: Self.now) == 120)
    }

    @Test(arguments: ["-5", "soon", "", "  ", "1.5", "12 s", "Sun, 06 Nov 1994", "0x10"])
    func unreadableRetryAfterIsNil(text: String) {
        #expect(RetryAfter.seconds(text, now: Self.now) == nil)
    }

    @Test func trimmingSpaces() {
        #expect("  a b \t".trimmingSpaces() == "a b")
        #expect(" \t ".trimmingSpaces() == "")
        #expect("x".trimmingSpaces() == "x")
        #expect("\r\n x \t".trimmingSpaces() == "\r\n x")
        // A space that a combining mark joins is part of a character that is not a space: it stays.
        #expect(" \u{301}a ".trimmingSpaces() == " \u{301}a")
        #expect("\t Минск ".trimmingSpaces() == "Минск")
    }

    @Test func trimmingSpacesByBytesAgreesWithTrimmingByCharacters() {
        var generator = SeededGenerator(seed: 20_261_201)
        let pieces = [" ", "\t", "a", "Z", ",", "\r\n", "\n", "é", "\u{301}", "東", "🙂", "\u{3000}"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(text.trimmingSpaces() == text.trimming(" \t"), "\(Array(text.unicodeScalars))")
        }
    }

    @Test func trimmingASCIIBytes() {
        #expect("  a b  "[...].trimmedASCII(dropping: { $0 == 0x20 }) == "a b")
        #expect("   "[...].trimmedASCII(dropping: { $0 == 0x20 }) == "")
        #expect(" é "[...].trimmedASCII(dropping: { $0 == 0x20 }) == nil)
        #expect("xx-yy-xx".dropFirst().trimmedASCII(dropping: { $0 == UInt8(ascii: "x") }) == "-yy-")
    }

    // MARK: Status mapping

    @Test(arguments: [200, 201, 204, 299])
    func successIsNoError(status: Int) {
        #expect(map(status) == nil)
    }

    @Test(arguments: [
        (401, ProviderError.Code.unauthorized), (403, .unauthorized), (404, .notFound), (400, .badRequest), (422, .badRequest),
        (410, .badRequest), (408, .timeout), (504, .timeout), (500, .unavailable), (502, .unavailable), (503, .unavailable),
        (599, .unavailable), (302, .badResponse(path: "$")), (304, .badResponse(path: "$")), (100, .badResponse(path: "$")),
    ])
    func statusCodes(status: Int, code: ProviderError.Code) throws {
        let error = try #require(map(status))
        #expect(error.code == code)
        #expect(error.message.contains("OpenWeatherMap"))
        #expect(error.message.contains("\(status)"))
    }

    @Test func rateLimitedWithoutHeader() throws {
        let error = try #require(map(429))
        #expect(error.code == .rateLimited(retryAfterSeconds: nil))
        #expect(error.message == "OpenWeatherMap is rate limiting requests (HTTP 429)")
        #expect(error.codeName == "rate_limited")
    }

    @Test func rateLimitedWithSecondsHeader() throws {
        let error = try #require(map(429, headers: [HTTPHeader("retry-after", "120")], message: "slow down"))
        #expect(error.code == .rateLimited(retryAfterSeconds: 120))
        #expect(error.message == "OpenWeatherMap is rate limiting requests (HTTP 429); retry in 120 s: slow down")
    }

    @Test func rateLimitedWithDateHeaderRoundsUp() throws {
        let retry = HTTPHeader("Retry-After", "Sat, 28 Nov 2026 09:01:00 GMT")
        let error = try #require(ProviderError.forStatus(
            response(429, headers: [retry]), provider: "Open-Meteo", serverMessage: nil, now: Self.now.addingTimeInterval(0.5)))
        #expect(error.code == .rateLimited(retryAfterSeconds: 59.5))
        #expect(error.message.hasSuffix("; retry in 60 s"))
    }

    @Test func rateLimitedWithGarbageHeader() throws {
        let error = try #require(map(429, headers: [HTTPHeader("Retry-After", "later")]))
        #expect(error.code == .rateLimited(retryAfterSeconds: nil))
        #expect(!error.message.contains("retry in"))
    }

    @Test func messagesNameTheProviderAndTheServerMessage() throws {
        #expect(map(401, message: "Invalid API key")?.message == "OpenWeatherMap refused the API key (HTTP 401): Invalid API key")
        #expect(map(403)?.message == "OpenWeatherMap refused the API key (HTTP 403)")
        #expect(map(404, message: "city not found")?.message == "OpenWeatherMap found nothing there (HTTP 404): city not found")
        #expect(map(400, message: "wrong latitude")?.message == "OpenWeatherMap rejected the request (HTTP 400): wrong latitude")
        #expect(map(504)?.message == "OpenWeatherMap timed out (HTTP 504)")
        #expect(map(503, message: "maintenance")?.message == "OpenWeatherMap is unavailable (HTTP 503): maintenance")
        #expect(map(302)?.message == "OpenWeatherMap answered with unexpected HTTP status 302")
    }

    @Test func headerLookupIsCaseInsensitive() {
        let response = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "a"), HTTPHeader("content-type", "b")], body: [])
        #expect(response.header("CONTENT-TYPE") == "a")
        #expect(response.header("Retry-After") == nil)
    }
}
