import FoundationEssentials
import IsobarCore
import OpenMeteo
import Testing

@Suite("Open-Meteo decoder: only the kinds asked")
struct OpenMeteoAskedKindsTests {
    private func minsk() throws -> HTTPResponse {
        response(200, try Fixtures.bodyText("open-meteo", "minsk", urlContaining: "/v1/forecast"))
    }

    @Test func currentAloneLeavesTheStepsAndDaysOutAndDecodesTheSameConditions() throws {
        let all = try OpenMeteoDecoder().decode(try minsk(), now: Fixtures.recordedAt)
        let current = try OpenMeteoDecoder().decode(try minsk(), now: Fixtures.recordedAt, models: [], kinds: [.current])
        #expect(!all.hourly.isEmpty && !all.daily.isEmpty)
        #expect(current[0].hourly.isEmpty)
        #expect(current[0].daily.isEmpty)
        #expect(current[0].current == all.current)
        #expect(current[0].utcOffsetSeconds == all.utcOffsetSeconds)
        #expect(current[0].timeZoneIdentifier == all.timeZoneIdentifier)
    }

    @Test func stepsOrDaysKeepBothAndLeaveCurrentOut() throws {
        let all = try OpenMeteoDecoder().decode(try minsk(), now: Fixtures.recordedAt)
        for kinds: Set<DataKind> in [[.hourly], [.daily], [.hourly, .daily]] {
            let decoded = try OpenMeteoDecoder().decode(try minsk(), now: Fixtures.recordedAt, models: [], kinds: kinds)[0]
            #expect(decoded.current == nil)
            #expect(decoded.hourly == all.hourly)
            #expect(decoded.daily == all.daily)
        }
        let every = try OpenMeteoDecoder().decode(try minsk(), now: Fixtures.recordedAt, models: [], kinds: Set(DataKind.allCases))[0]
        #expect(every == all)
    }

    @Test func aBrokenBodyIsStillAnErrorWhenOnlyCurrentIsAsked() throws {
        for text in [#"{"current": {"time": "2026-11-28T09:00"}, "hourly": {"time": ["#, "not json", #"{"hourly": [1, 2]} trailing"#, "[1]"] {
            let error = caught { try OpenMeteoDecoder().decode(response(200, text), now: Fixtures.recordedAt, models: [], kinds: [.current]) }
            guard case .badResponse = error?.code else {
                Issue.record("not a bad response for \(text): \(String(describing: error))")
                continue
            }
        }
    }

    @Test func anErrorBodyIsReportedAsBefore() throws {
        let text = #"{"error": true, "reason": "Cannot initialize WeatherVariable from invalid String value x", "hourly": []}"#
        let error = caught { try OpenMeteoDecoder().decode(response(400, text), now: Fixtures.recordedAt, models: [], kinds: [.current]) }
        #expect(error?.message.contains("Cannot initialize WeatherVariable") == true)
    }

    @Test func stringsWithBracketsAndEscapesDoNotConfuseTheCut() throws {
        let text = #"{"utc_offset_seconds": 0, "timezone": "GMT", "hourly": {"time": ["a\"]}", "{["], "x": [[{}]]},"#
            + #" "current_units": {"time": "iso8601", "temperature_2m": "°C"}, "current": {"time": "2026-11-28T09:00", "temperature_2m": -1.5},"#
            + #" "daily": {"time": []}}"#
        let decoded = try OpenMeteoDecoder().decode(response(200, text), now: Fixtures.recordedAt, models: [], kinds: [.current])[0]
        #expect(decoded.current?.temperatureC == -1.5)
        #expect(decoded.hourly.isEmpty)
    }
}
