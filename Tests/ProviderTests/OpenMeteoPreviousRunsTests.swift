import FoundationEssentials
import IsobarCore
import IsobarTestKit
import OpenMeteo
import Testing

@Suite("Open-Meteo previous runs")
struct OpenMeteoPreviousRunsTests {
    let place = Place(name: "Minsk", countryCode: "BY", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!)
    let now = Date(timeIntervalSince1970: 1_764_288_000)  // 2025-11-28T00:00Z

    func provider(models: [String] = ["gfs_seamless", "icon_seamless"]) -> OpenMeteoProvider {
        OpenMeteoProvider(configuration: .init(id: "om", models: models))
    }

    func response(_ body: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(body.utf8))
    }

    @Test("one request asks every model for every day back, in UTC, at the Previous Runs host")
    func request() {
        let request = provider().pastForecastRequest(near: place, days: 30)
        let url = request.url.description
        #expect(url.hasPrefix("https://previous-runs-api.open-meteo.com/v1/forecast?"))
        #expect(url.contains("hourly=" + (1...7).map { "temperature_2m_previous_day\($0)" }.joined(separator: "%2C"))
                || url.contains("hourly=" + (1...7).map { "temperature_2m_previous_day\($0)" }.joined(separator: ",")))
        #expect(url.contains("past_days=30") && url.contains("timezone=GMT") && url.contains("gfs_seamless"))
        #expect(provider().pastForecastRequest(near: place, days: 500).url.description.contains("past_days=92"))
    }

    @Test("each day-back series is a forecast issued that many days before its hour, per model; nulls are skipped")
    func decode() throws {
        let body = """
            {"latitude":53.9,"longitude":27.56,"utc_offset_seconds":0,"timezone":"GMT",
             "hourly_units":{"time":"iso8601"},
             "hourly":{"time":["2025-11-27T00:00","2025-11-27T01:00"],
               "temperature_2m_previous_day1_gfs_seamless":[1.5,null],"temperature_2m_previous_day2_gfs_seamless":[2.0,2.5],
               "temperature_2m_previous_day1_icon_seamless":[-1.0,-0.5]}}
            """
        let forecasts = try provider().pastForecasts(in: response(body), now: now)
        #expect(forecasts.count == 5)
        let first = try #require(forecasts.first)
        #expect(first.source == "om/gfs_seamless" && first.temperatureC == 1.5)
        #expect(first.validAt == Date(timeIntervalSince1970: 1_764_201_600))
        #expect(first.issuedAt == first.validAt.addingTimeInterval(-86_400))
        let twoDays = try #require(forecasts.first { $0.temperatureC == 2.5 })
        #expect(twoDays.validAt.timeIntervalSince(twoDays.issuedAt) == 2 * 86_400)
        #expect(forecasts.filter { $0.source == "om/icon_seamless" }.map(\.temperatureC) == [-1.0, -0.5])
    }

    @Test("bad bodies are one-line errors naming what is wrong", arguments: [
        (#"{"error":true,"reason":"Parameter past_days must be between 0 and 92"}"#, "past_days"),
        (#"{"utc_offset_seconds":0,"hourly":{"time":["yesterday"],"temperature_2m_previous_day1":[1]}}"#, "UTC time"),
        (#"{"utc_offset_seconds":0,"hourly":{"time":["2025-11-27T00:00"],"temperature_2m_previous_day1":[1,2]}}"#, "1 values"),
        (#"{"utc_offset_seconds":0,"hourly":{"time":["2025-11-27T00:00"],"temperature_2m_previous_day1":[9.9e36]}}"#, "temperature"),
    ])
    func badBodies(body: String, message: String) {
        #expect {
            _ = try provider(models: []).pastForecasts(in: response(body, status: body.contains("error") ? 400 : 200), now: now)
        } throws: { error in
            let error = error as! ProviderError
            return error.message.contains(message) && !error.message.contains("\n")
        }
    }

    @Test("a key for the commercial service goes along and never shows in an error")
    func keyStaysSecret() {
        let keyed = OpenMeteoProvider(configuration: .init(apiKey: "sekrit-key"))
        let request = keyed.pastForecastRequest(near: place, days: 3)
        #expect(request.url.description.contains("apikey=sekrit-key"))
        #expect(!request.redactedURL.contains("sekrit"))
    }
}
