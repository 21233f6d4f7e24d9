import FoundationEssentials
import IsobarCore
import Testing

/// Values that would overflow calendar arithmetic are refused or clamped, never a crash.
@Suite struct RobustnessTests {
    let now = Date(timeIntervalSince1970: 1_795_856_400)

    @Test func hugeRetryAfterValuesAreClampedToAYear() throws {
        #expect(RetryAfter.seconds("9223372036854775807", now: now) == Double(366 * 86_400))
        #expect(RetryAfter.seconds("Sat, 28 Nov 900000000000000000 09:00:00 GMT", now: now) == nil)
        let error = try #require(ProviderError.forStatus(
            HTTPResponse(status: 429, headers: [HTTPHeader("Retry-After", "9223372036854775807")], body: []),
            provider: "P", serverMessage: nil, now: now))
        #expect(error.code == .rateLimited(retryAfterSeconds: Double(366 * 86_400)))
    }

    @Test func datesOutsideYearsOneToNineThousandNineHundredNinetyNineDoNotExist() {
        #expect(LocalDate(year: 0, month: 1, day: 1) == nil)
        #expect(LocalDate(year: 10_000, month: 1, day: 1) == nil)
        #expect(LocalDate(year: 9999, month: 12, day: 31) != nil)
    }

    @Test func rangedAccessorsNameThePath() throws {
        let root = try JSONDocument(parsing: #"{"dt": 1e25, "timezone": 999999999, "ok": 10800}"#).rootValue
        #expect(throws: JSONError.self) { try root.double("dt", in: PlausibleRange.unixSeconds) }
        do {
            _ = try root.optionalInt("timezone", in: PlausibleRange.utcOffsetSeconds)
            Issue.record("an offset of 31 years must be refused")
        } catch {
            #expect(error.path == "$.timezone")
        }
        #expect(try root.optionalInt("ok", in: PlausibleRange.utcOffsetSeconds) == 10_800)
        #expect(try root.optionalInt("absent", in: PlausibleRange.utcOffsetSeconds) == nil)
    }
}
