import FoundationEssentials
import IsobarCore
import OpenMeteo
import Testing

/// An Open-Meteo body with the given blocks after the header members (offset 0, zone GMT).
private func body(_ blocks: String) -> String {
    #"{"latitude":53.875,"longitude":27.5625,"generationtime_ms":0.5,"utc_offset_seconds":0,"timezone":"GMT","#
        + #""timezone_abbreviation":"GMT","elevation":222.0,\#(blocks)}"#
}

private func decode(_ text: String) throws -> OpenMeteoForecast {
    try OpenMeteoDecoder().decode(response(200, text), now: Fixtures.recordedAt)
}

/// A current block with one variable in the given unit.
private func current(_ variable: String, unit: String, value: String) -> String {
    body(#""current_units":{"time":"iso8601","interval":"seconds","\#(variable)":"\#(unit)"},"#
        + #""current":{"time":"2026-11-28T09:00","interval":900,"\#(variable)":\#(value)}"#)
}

/// An hourly block of two hours with one variable in the given unit.
private func hourly(_ variable: String, unit: String, values: String) -> String {
    body(#""hourly_units":{"time":"iso8601","\#(variable)":"\#(unit)"},"#
        + #""hourly":{"time":["2026-11-28T00:00","2026-11-28T01:00"],"\#(variable)":\#(values)}"#)
}

/// A daily block of one day with one variable in the given unit.
private func daily(_ variable: String, unit: String, value: String) -> String {
    body(#""daily_units":{"time":"iso8601","\#(variable)":"\#(unit)"},"daily":{"time":["2026-11-28"],"\#(variable)":[\#(value)]}"#)
}

@Suite("Open-Meteo decoder: units")
struct OpenMeteoUnitTests {
    @Test("wind speed units convert to m/s", arguments: [
        ("km/h", 36.0, 10.0), ("m/s", 10.0, 10.0), ("mp/h", 10.0, 4.4704), ("kn", 10.0, 5.144_444_444_444_444),
    ])
    func windUnits(unit: String, value: Double, metresPerSecond: Double) throws {
        let now = try #require(try decode(current("wind_speed_10m", unit: unit, value: "\(value)")).current)
        #expect(isClose(now.windSpeedMS, metresPerSecond))
        let hours = try decode(hourly("wind_speed_10m", unit: unit, values: "[\(value),null]")).hourly
        #expect(isClose(hours[0].windSpeedMS, metresPerSecond))
        #expect(hours[1].windSpeedMS == nil)
        let day = try #require(try decode(daily("wind_speed_10m_max", unit: unit, value: "\(value)")).daily.first)
        #expect(isClose(day.windSpeedMaxMS, metresPerSecond))
    }

    @Test("gusts use the wind unit too: 72 km/h is 20 m/s")
    func gusts() throws {
        let text = body(#""hourly_units":{"time":"iso8601","wind_speed_10m":"km/h","wind_gusts_10m":"km/h"},"#
            + #""hourly":{"time":["2026-11-28T00:00"],"wind_speed_10m":[36.0],"wind_gusts_10m":[72.0]}"#)
        let hour = try #require(try decode(text).hourly.first)
        #expect(isClose(hour.windSpeedMS, 10))
        #expect(isClose(hour.windGustMS, 20))
    }

    @Test("temperature units convert to °C", arguments: [("°C", 10.0, 10.0), ("°F", 50.0, 10.0), ("°F", -40.0, -40.0), ("°F", 32.0, 0.0)])
    func temperatureUnits(unit: String, value: Double, celsius: Double) throws {
        let now = try #require(try decode(current("temperature_2m", unit: unit, value: "\(value)")).current)
        #expect(isClose(now.temperatureC, celsius))
        let hours = try decode(hourly("temperature_2m", unit: unit, values: "[\(value),\(value)]")).hourly
        #expect(isClose(hours[1].temperatureC, celsius))
        let day = try #require(try decode(daily("temperature_2m_max", unit: unit, value: "\(value)")).daily.first)
        #expect(isClose(day.temperatureMaxC, celsius))
    }

    @Test("precipitation units convert to mm: 1 inch is 25.4 mm", arguments: [("mm", 2.5, 2.5), ("inch", 1.0, 25.4), ("inch", 0.1, 2.54)])
    func precipitationUnits(unit: String, value: Double, millimetres: Double) throws {
        let now = try #require(try decode(current("precipitation", unit: unit, value: "\(value)")).current)
        #expect(isClose(now.precipitationMM, millimetres))
        let hours = try decode(hourly("precipitation", unit: unit, values: "[\(value),0.00]")).hourly
        #expect(isClose(hours[0].precipitationMM, millimetres))
        #expect(hours[1].precipitationMM == 0)
        let day = try #require(try decode(daily("precipitation_sum", unit: unit, value: "\(value)")).daily.first)
        #expect(isClose(day.precipitationMM, millimetres))
    }

    @Test("a value in an unknown unit is left out with a warning naming the unit's path", arguments: [
        ("current", "temperature_2m", "K", "$.current_units.temperature_2m"),
        ("current", "wind_speed_10m", "furlong/fortnight", "$.current_units.wind_speed_10m"),
        ("hourly", "wind_speed_10m", "mps", "$.hourly_units.wind_speed_10m"),
        ("hourly", "precipitation", "cm", "$.hourly_units.precipitation"),
        ("daily", "temperature_2m_max", "kelvin", "$.daily_units.temperature_2m_max"),
        ("daily", "precipitation_sum", "litres", "$.daily_units.precipitation_sum"),
    ])
    func unknownUnit(block: String, variable: String, unit: String, path: String) throws {
        let text = switch block {
        case "current": current(variable, unit: unit, value: "1.0")
        case "hourly": hourly(variable, unit: unit, values: "[1.0,2.0]")
        default: daily(variable, unit: unit, value: "1.0")
        }
        let decoded = try decode(text)
        #expect(decoded.warnings == [ValueWarning(field: variable, path: path, value: "\"\(unit)\"", reason: "unknown unit")])
        let samples = decoded.hourly + [decoded.current].compactMap { $0 }
        #expect(samples.allSatisfy { sample in Quantity.allCases.allSatisfy { sample[$0] == nil } })
        #expect(decoded.daily.allSatisfy { day in DailyQuantity.allCases.allSatisfy { day[$0] == nil } })
    }
}

@Suite("Open-Meteo decoder: nulls and numbers")
struct OpenMeteoNullTests {
    @Test("null values in current stay nil, never 0")
    func currentNulls() throws {
        let text = body(#""current_units":{"time":"iso8601","temperature_2m":"°C","wind_speed_10m":"km/h","precipitation":"mm"},"#
            + #""current":{"time":"2026-11-28T09:00","interval":900,"temperature_2m":null,"wind_speed_10m":null,"#
            + #""precipitation":null,"weather_code":null,"is_day":null,"visibility":null}"#)
        let now = try #require(try decode(text).current)
        #expect(now.temperatureC == nil)
        #expect(now.windSpeedMS == nil)
        #expect(now.precipitationMM == nil)
        #expect(now.condition == nil)
        #expect(now.isDay == nil)
        #expect(now.visibilityM == nil)
        #expect(now.time == Fixtures.recordedAt)
    }

    @Test("trailing null hours are kept, with every value absent")
    func trailingNulls() throws {
        let text = body(#""hourly_units":{"time":"iso8601","temperature_2m":"°C","precipitation":"mm","weather_code":"wmo code"},"#
            + #""hourly":{"time":["2026-11-28T00:00","2026-11-28T01:00","2026-11-28T02:00"],"#
            + #""temperature_2m":[1.5,null,null],"precipitation":[0.00,null,null],"weather_code":[3,null,null]}"#)
        let hours = try decode(text).hourly
        #expect(hours.count == 3)
        #expect(hours.map(\.temperatureC) == [1.5, nil, nil])
        #expect(hours.map(\.precipitationMM) == [0, nil, nil])
        #expect(hours.map(\.condition) == [.cloudy, nil, nil])
        #expect(hours[2].time == Date(timeIntervalSince1970: 1_795_831_200))  // 2026-11-28T02:00Z
    }

    @Test("weather codes sent as floats (3.0) are read as whole codes")
    func floatWeatherCode() throws {
        let text = body(#""current_units":{"time":"iso8601","weather_code":"wmo code"},"#
            + #""current":{"time":"2026-11-28T09:00","interval":900,"weather_code":3.0},"#
            + #""hourly_units":{"time":"iso8601","weather_code":"wmo code"},"#
            + #""hourly":{"time":["2026-11-28T00:00","2026-11-28T01:00"],"weather_code":[95.0,61.0]},"#
            + #""daily_units":{"time":"iso8601","weather_code":"wmo code"},"daily":{"time":["2026-11-28"],"weather_code":[99.0]}"#)
        let forecast = try decode(text)
        #expect(forecast.current?.condition == .cloudy)
        #expect(forecast.hourly.map(\.condition) == [.thunderstorm, .rain])
        #expect(forecast.daily.first?.condition == .thunderstormWithHail)
    }

    @Test("a weather code with a fraction or outside the table gives no condition")
    func oddWeatherCodes() throws {
        let text = body(#""hourly_units":{"time":"iso8601","weather_code":"wmo code"},"#
            + #""hourly":{"time":["2026-11-28T00:00","2026-11-28T01:00"],"weather_code":[3.5,4]}"#)
        #expect(try decode(text).hourly.map(\.condition) == [nil, nil])
    }

    @Test("local times are read at the body's own offset")
    func localTimes() throws {
        let text = #"{"utc_offset_seconds":-18000,"timezone":"America/New_York","#
            + #""current_units":{"time":"iso8601"},"current":{"time":"2026-11-28T04:00","interval":900},"#
            + #""daily_units":{"time":"iso8601","sunrise":"iso8601"},"daily":{"time":["2026-11-28"],"sunrise":["2026-11-28T06:57"]}}"#
        let forecast = try decode(text)
        #expect(forecast.utcOffsetSeconds == -18_000)
        #expect(forecast.timeZoneIdentifier == "America/New_York")
        #expect(forecast.current?.time == Fixtures.recordedAt)
        // 06:57 at UTC−5 is 11:57Z.
        #expect(forecast.daily.first?.sunrise == Date(timeIntervalSince1970: 1_795_824_000 + 11 * 3600 + 57 * 60))
        #expect(forecast.daily.first?.date == LocalDate(year: 2026, month: 11, day: 28))
    }

    @Test("a GMT body has no zone identifier")
    func gmtZone() throws {
        #expect(try decode(body(#""x":1"#)).timeZoneIdentifier == nil)
    }
}
