import FixtureReplay
import FoundationEssentials
import IsobarCore
import OpenMeteo
import OpenWeatherMap
import Testing

/// Bodies with values that would overflow time arithmetic are bad responses, never a crash; cassettes never keep a key.
@Suite struct HostileBodyTests {
    let now = Date(timeIntervalSince1970: 1_795_856_400)

    func response(_ text: String) -> HTTPResponse { HTTPResponse(status: 200, body: Array(text.utf8)) }

    @Test func anAbsurdOpenMeteoOffsetIsABadResponse() {
        let body = #"{"utc_offset_seconds": 1000000000, "timezone": "GMT", "current_units": {}, "current": {"time": "2026-11-28T12:00"}}"#
        do {
            _ = try OpenMeteoDecoder().decode(response(body), now: now)
            Issue.record("an offset of 31 years must be refused")
        } catch {
            #expect(error.code == .badResponse(path: "$.utc_offset_seconds"))
        }
    }

    @Test func anAbsurdOpenWeatherMapTimeIsABadResponse() {
        let body = #"{"weather": [{"id": 800}], "main": {"temp": 1}, "dt": 1e25, "cod": 200}"#
        do {
            _ = try OpenWeatherMapDecoder(units: .metric).current(response(body), now: now)
            Issue.record("a time in the year 10^17 must be refused")
        } catch {
            #expect(error.code == .badResponse(path: "$.dt"))
        }
    }

    @Test func keysAreScrubbedFromBinaryAndPercentEncodedBodies() throws {
        let key = "SENTINEL KEY/7f3a"
        let request = HTTPRequest(url: RequestURL(string: "https://example.test/x")!.appending(path: "/y", query: [QueryItem("appid", key)]),
                                  secretQueryNames: ["appid"])
        let body: [UInt8] = [0xFF, 0xFE] + Array(key.utf8) + [0x00] + Array("SENTINEL%20KEY%2F7f3a".utf8)
        let interaction = Cassette.scrubbed(request, HTTPResponse(status: 200, body: body), recordedAt: now)
        let text = Cassette.encode([interaction], recordedAt: now)
        let stored = try #require(try Cassette.interactions(parsing: Array(text.utf8), file: "t").first).response.body
        #expect(stored.count < body.count)
        #expect(!String(decoding: stored, as: UTF8.self).contains("SENTINEL"))
        #expect(!text.contains("SENTINEL"))
    }
}
