import FoundationEssentials
import IsobarCore
import OpenMeteo
import Testing

/// An Open-Meteo body with two hours, current conditions and units, into which one field is spliced.
private func body(current: String = #""temperature_2m":-1.5,"wind_speed_10m":3"#,
                  hourly: String = #""temperature_2m":[1.5,2.5],"wind_speed_10m":[4,5]"#,
                  units: String = #""temperature_2m":"°C","wind_speed_10m":"m/s""#,
                  daily: String = "") -> String {
    #"{"utc_offset_seconds":0,"timezone":"GMT","current_units":{\#(units)},"hourly_units":{\#(units)},"#
        + #""current":{"time":"2026-11-28T00:00","interval":900,\#(current)},"#
        + #""hourly":{"time":["2026-11-28T00:00","2026-11-28T01:00"],\#(hourly)}"#
        + (daily.isEmpty ? "" : #","daily_units":{},"daily":{"time":["2026-11-28"],\#(daily)}"#) + "}"
}

@Suite("Open-Meteo bodies: a field of the wrong type is left out, the rest is used")
struct OpenMeteoWrongTypeTests {
    let decoder = OpenMeteoDecoder()

    @Test("a current value of the wrong type is dropped with a warning naming its path")
    func currentWrongType() throws {
        let decoded = try decoder.decode(response(200, body(current: #""temperature_2m":"mild","wind_speed_10m":3"#)), now: Fixtures.recordedAt)
        #expect(decoded.current?.temperatureC == nil)
        #expect(decoded.current?.windSpeedMS == 3)
        #expect(decoded.hourly.map(\.temperatureC) == [1.5, 2.5])
        #expect(decoded.warnings == [ValueWarning(field: "temperature_2m", path: "$.current.temperature_2m", value: #""mild""#,
                                                  reason: "not a number")])
    }

    @Test("an hourly element of the wrong type is null; the rest of that series and the others stay")
    func hourlyElementWrongType() throws {
        let decoded = try decoder.decode(response(200, body(hourly: #""temperature_2m":[true,2.5],"wind_speed_10m":[4,"x"]"#)),
                                         now: Fixtures.recordedAt)
        #expect(decoded.hourly.map(\.temperatureC) == [nil, 2.5])
        #expect(decoded.hourly.map(\.windSpeedMS) == [4, nil])
        #expect(decoded.warnings.map(\.path) == ["$.hourly.temperature_2m[0]", "$.hourly.wind_speed_10m[1]"])
        #expect(decoded.warnings.first?.value == "boolean")
    }

    @Test("several wrong elements of one series give one warning that counts them")
    func countsWrongElements() throws {
        let decoded = try decoder.decode(response(200, body(hourly: #""temperature_2m":["a","b"]"#)), now: Fixtures.recordedAt)
        #expect(decoded.hourly.map(\.temperatureC) == [nil, nil])
        #expect(decoded.warnings.count == 1)
        #expect(decoded.warnings.first?.reason.contains("2 values") == true)
    }

    @Test("a series that is not an array, or not as long as time, is left out with a warning", arguments: [
        (#""temperature_2m":"warm""#, "$.hourly.temperature_2m", "not an array"),
        (#""temperature_2m":{"a":1}"#, "$.hourly.temperature_2m", "not an array"),
        (#""temperature_2m":[1.5]"#, "$.hourly.temperature_2m", "2 expected, one per time"),
    ])
    func seriesWrongShape(series: String, path: String, reason: String) throws {
        let decoded = try decoder.decode(response(200, body(hourly: series + #","wind_speed_10m":[4,5]"#)), now: Fixtures.recordedAt)
        #expect(decoded.hourly.map(\.temperatureC) == [nil, nil])
        #expect(decoded.hourly.map(\.windSpeedMS) == [4, 5])
        #expect(decoded.warnings.map(\.path) == [path])
        #expect(decoded.warnings.map(\.reason) == [reason])
    }

    @Test("a unit that is not text is an unknown unit: its fields are dropped, the others used")
    func unitNotText() throws {
        let decoded = try decoder.decode(response(200, body(units: #""temperature_2m":7,"wind_speed_10m":"m/s""#)), now: Fixtures.recordedAt)
        #expect(decoded.hourly.map(\.temperatureC) == [nil, nil])
        #expect(decoded.hourly.map(\.windSpeedMS) == [4, 5])
        #expect(decoded.warnings.allSatisfy { $0.reason == "unknown unit" && $0.value == "number" })
    }

    @Test("sunrise times that cannot be read are left out; the day stays")
    func sunriseWrongType() throws {
        let decoded = try decoder.decode(response(200, body(daily: #""temperature_2m_max":[3],"sunrise":[42]"#)), now: Fixtures.recordedAt)
        #expect(decoded.daily.first?.temperatureMaxC == 3)
        #expect(decoded.daily.first?.sunrise == nil)
        #expect(decoded.warnings.map(\.path) == ["$.daily.sunrise[0]"])
    }

    @Test("a body whose times cannot be read is still a bad response", arguments: [
        #"{"utc_offset_seconds":0,"hourly_units":{},"hourly":{"time":[1,2],"temperature_2m":[1,2]}}"#,
        #"{"utc_offset_seconds":0,"hourly_units":{},"hourly":{"temperature_2m":[1,2]}}"#,
        #"{"utc_offset_seconds":"zero"}"#,
        #"[1,2,3]"#,
    ])
    func wholeBodyUnreadable(text: String) throws {
        let error = try #require(caught { try decoder.decode(response(200, text), now: Fixtures.recordedAt) })
        guard case .badResponse = error.code else {
            Issue.record("expected a bad response, got \(error.code)")
            return
        }
    }
}
