import FoundationEssentials
import IsobarCore
import OpenMeteo
import OpenWeatherMap
import Testing

private let owmCurrent = #"{"dt":1795855924,"main":{"temp":-3.42,"feels_like":-6,"pressure":999,"humidity":98},"#
    + #""visibility":2700,"wind":{"speed":2.5,"deg":220},"clouds":{"all":100},"weather":[{"id":600,"icon":"13d"}],"timezone":10800}"#

/// A place for reports built in these tests.
private func somePlace() throws -> Place {
    Place(name: "Minsk", coordinate: try #require(Coordinate(latitude: 53.9, longitude: 27.57)))
}

@Suite("Provider bodies: duplicate keys and field-level tolerance")
struct ValueToleranceTests {
    @Test("a duplicated key is a bad response naming its path, never the last value")
    func duplicateKey() throws {
        let text = owmCurrent.replacingAll(#""temp":-3.42"#, with: #""temp":-3.42,"temp":99"#)
        let error = try #require(caught { try OpenWeatherMapDecoder(units: .metric).current(response(200, text), now: Fixtures.recordedAt) })
        #expect(error.code == .badResponse(path: "$.main.temp"))
        #expect(error.message.contains("$.main.temp"))
    }

    @Test("a duplicated key in an Open-Meteo body is a bad response too")
    func duplicateKeyOpenMeteo() throws {
        let text = #"{"utc_offset_seconds":0,"utc_offset_seconds":3600,"timezone":"GMT"}"#
        let error = try #require(caught { try OpenMeteoDecoder().decode(response(200, text), now: Fixtures.recordedAt) })
        #expect(error.code == .badResponse(path: "$.utc_offset_seconds"))
    }

    @Test("an OpenWeatherMap field of the wrong type is left out with a warning; the rest is used")
    func wrongType() throws {
        let text = owmCurrent.replacingAll(#""visibility":2700"#, with: #""visibility":"far""#)
        let decoded = try OpenWeatherMapDecoder(units: .metric).current(response(200, text), now: Fixtures.recordedAt)
        #expect(decoded.sample.visibilityM == nil)
        #expect(decoded.sample.temperatureC == -3.42)
        #expect(decoded.sample.windSpeedMS == 2.5)
        #expect(decoded.warnings == [ValueWarning(field: "visibility", path: "$.visibility", value: #""far""#, reason: "not a number")])
    }

    @Test("an Open-Meteo field in an unknown unit is left out with a warning; the rest is used")
    func unknownUnit() throws {
        let text = #"{"utc_offset_seconds":0,"timezone":"GMT","hourly_units":{"time":"iso8601","temperature_2m":"°C","visibility":"furlong"},"#
            + #""hourly":{"time":["2026-11-28T00:00","2026-11-28T01:00"],"temperature_2m":[1.5,2.5],"visibility":[40,50]}}"#
        let decoded = try OpenMeteoDecoder().decode(response(200, text), now: Fixtures.recordedAt)
        #expect(decoded.hourly.map(\.visibilityM) == [nil, nil])
        #expect(decoded.hourly.map(\.temperatureC) == [1.5, 2.5])
        #expect(decoded.warnings == [ValueWarning(field: "visibility", path: "$.hourly_units.visibility", value: #""furlong""#,
                                                  reason: "unknown unit")])
    }

    @Test("values outside their physical range are dropped with a warning; the others stay", arguments: [
        (#""humidity":98"#, #""humidity":250"#, "humidity_percent", "250"),
        (#""temp":-3.42"#, #""temp":-500"#, "temperature_c", "-500"),
        (#""temp":-3.42"#, #""temp":1e300"#, "temperature_c", "1e+300"),
        (#""deg":220"#, #""deg":361"#, "wind_direction_deg", "361"),
        (#""pressure":999"#, #""pressure":849"#, "pressure_hpa", "849"),
    ])
    func outOfRange(original: String, replacement: String, field: String, value: String) throws {
        let text = owmCurrent.replacingAll(original, with: replacement)
        let decoded = try OpenWeatherMapDecoder(units: .metric).current(response(200, text), now: Fixtures.recordedAt)
        let report = WeatherReport(providerID: "openweathermap", place: try somePlace(),
                                   fetchedAt: Fixtures.recordedAt, current: decoded.sample).validated(now: Fixtures.recordedAt)
        #expect(report.warnings.map(\.field) == [field])
        #expect(report.warnings.first?.value == value)
        #expect(report.warnings.first?.path == "current.\(field)")
        let sample = try #require(report.current)
        #expect(sample.windSpeedMS == 2.5)
        let kept = [sample.temperatureC, sample.humidityPercent, sample.pressureHPa, sample.windDirectionDeg].compactMap { $0 }
        #expect(kept.count == 3)
    }

    @Test("values at the edges of their ranges are kept")
    func edgesKept() throws {
        var sample = WeatherSample(time: Fixtures.recordedAt, periodHours: 1)
        sample.temperatureC = -95
        sample.humidityPercent = 100
        sample.pressureHPa = 1090
        sample.windGustMS = 150
        sample.precipitationMM = 500
        sample.visibilityM = 100_000
        var day = DailyPoint(date: try #require(LocalDate(year: 2026, month: 11, day: 28)))
        day.temperatureMaxC = 65
        day.temperatureMinC = -96
        let report = WeatherReport(providerID: "x", place: try somePlace(), fetchedAt: Fixtures.recordedAt,
                                   current: sample, daily: [day]).validated(now: Fixtures.recordedAt)
        #expect(report.current == sample)
        #expect(report.daily.first?.temperatureMaxC == 65)
        #expect(report.daily.first?.temperatureMinC == nil)
        #expect(report.warnings.map(\.path) == ["daily[0].temperature_min_c"])
    }

    @Test("a dropped value's path names its step, its field and the range it left")
    func stepPaths() throws {
        let steps = (0..<3).map { hour in
            var step = WeatherSample(time: Fixtures.recordedAt.addingTimeInterval(Double(hour) * 3600), periodHours: 1)
            step.humidityPercent = hour == 2 ? 101 : 50
            step.precipitationMM = hour == 1 ? 1200 : 0
            return step
        }
        var day = DailyPoint(date: try #require(LocalDate(year: 2026, month: 11, day: 28)))
        day.precipitationMM = -1
        let report = WeatherReport(providerID: "x", place: try somePlace(), fetchedAt: Fixtures.recordedAt, hourly: steps,
                                   daily: [day, day]).validated(now: Fixtures.recordedAt)
        #expect(report.warnings.map(\.path) == ["hourly[1].precipitation_mm", "hourly[2].humidity_percent",
                                                "daily[0].precipitation_mm", "daily[1].precipitation_mm"])
        #expect(report.warnings.map(\.reason) == ["outside 0…500", "outside 0…100", "outside 0…12000", "outside 0…12000"])
        #expect(report.hourly.map(\.humidityPercent) == [50, 50, nil])
    }
}
