import FoundationEssentials
import IsobarCore
import METNorway
import Testing

@Suite("MET Norway: the compact product in the canonical model")
struct METNorwayDecoderTests {
    let decoder = METNorwayDecoder()

    @Test("hourly steps, then 6-hourly, then a last step with only instant values")
    func steps() throws {
        let forecast = try decoder.decode(response(200, METNorwayBody.minsk), now: Fixtures.recordedAt)
        #expect(forecast.steps.map(\.periodHours) == [1, 1, 6, 6])
        #expect(forecast.steps.map(\.temperatureC) == [-1.5, -1.1, -0.6, -2.0])
        #expect(forecast.steps.map(\.precipitationMM) == [0.3, 0, 2.4, nil])
        #expect(forecast.steps.map(\.condition) == [.snow, .cloudy, .thunderstorm, nil])
        #expect(forecast.steps[2].isDay == true)
        let first = forecast.steps[0]
        #expect(first.pressureHPa == 1012.3 && first.humidityPercent == 91.2 && first.windSpeedMS == 3.4)
        #expect(first.windDirectionDeg == 225.4 && first.cloudCoverPercent == 88.5)
        #expect(forecast.updatedAt == CivilTime.instant(iso: "2026-11-28T08:41:12Z"))
        #expect(forecast.warnings.isEmpty)
    }

    @Test("an unknown symbol or a value of the wrong type is left out with a warning; the rest is used")
    func tolerance() throws {
        let text = METNorwayBody.body([
            METNorwayBody.step("2026-11-28T09:00:00Z", temperature: 1, hours: 1, symbol: "purplehaze_day"),
            METNorwayBody.step("2026-11-28T10:00:00Z", temperature: 2, hours: 1).replacingAll(#""wind_speed":3.4"#, with: #""wind_speed":"calm""#),
        ])
        let forecast = try decoder.decode(response(200, text), now: Fixtures.recordedAt)
        #expect(forecast.steps.map(\.condition) == [nil, .cloudy])
        #expect(forecast.steps.map(\.windSpeedMS) == [3.4, nil])
        #expect(forecast.warnings.map(\.reason) == ["unknown symbol", "not a number"])
        #expect(forecast.warnings.map(\.path) == ["$.properties.timeseries[0].data.next_1_hours.summary.symbol_code",
                                                  "$.properties.timeseries[1].data.instant.details.wind_speed"])
    }

    @Test("a field in a unit other than the product's is left out with a warning")
    func unknownUnit() throws {
        let units = METNorwayBody.unitsText.replacingAll(#""air_temperature":"celsius""#, with: #""air_temperature":"fahrenheit""#)
        let text = METNorwayBody.body([METNorwayBody.step("2026-11-28T09:00:00Z", temperature: 30, hours: 1)], units: units)
        let forecast = try decoder.decode(response(200, text), now: Fixtures.recordedAt)
        #expect(forecast.steps.first?.temperatureC == nil)
        #expect(forecast.steps.first?.pressureHPa == 1012.3)
        #expect(forecast.warnings.map(\.path) == ["$.properties.meta.units.air_temperature"])
    }

    @Test("a body without a readable time series is a bad response", arguments: [
        #"{"type":"Feature"}"#, #"{"properties":{"timeseries":[{"time":"soon","data":{}}]}}"#, "<html>", #"{"properties":{"timeseries":7}}"#,
    ])
    func unreadable(text: String) throws {
        let error = try #require(caught { try decoder.decode(response(200, text), now: Fixtures.recordedAt) })
        guard case .badResponse = error.code else {
            Issue.record("expected a bad response, got \(error.code)")
            return
        }
    }

    @Test("failure statuses: 403 (no contact) is unauthorized, 429 rate limited with its Retry-After, 500 unavailable")
    func statuses() throws {
        #expect(caught { try decoder.decode(response(403, "Forbidden"), now: Fixtures.recordedAt) }?.code == .unauthorized)
        let limited = caught {
            try decoder.decode(response(429, "Too Many Requests", headers: [HTTPHeader("Retry-After", "30")]), now: Fixtures.recordedAt)
        }
        #expect(limited?.code == .rateLimited(retryAfterSeconds: 30))
        #expect(caught { try decoder.decode(response(500, ""), now: Fixtures.recordedAt) }?.code == .unavailable)
    }
}
