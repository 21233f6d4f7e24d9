import FoundationEssentials
import IsobarCore
import OpenWeatherMap
import Testing

/// A small `/data/2.5/weather` body: `main` and `extra` members are spliced in after the required ones.
private func currentBody(main: String = #""temp":10,"feels_like":9,"pressure":1013,"humidity":50"#, _ extra: String = "",
                         cod: String = "200") -> String {
    #"{"coord":{"lon":27.5667,"lat":53.9},"weather":[{"id":800,"main":"Clear","description":"clear sky","icon":"01d"}],"#
        + #""main":{\#(main)},"dt":1795856400"# + (extra.isEmpty ? "" : ",\(extra)") + #","timezone":10800,"cod":\#(cod)}"#
}

/// A small `/data/2.5/forecast` body with the given list items.
private func forecastBody(_ items: [String], cod: String = #""200""#) -> String {
    #"{"cod":\#(cod),"message":0,"cnt":\#(items.count),"list":[\#(items.joined(separator: ","))],"#
        + #""city":{"id":625144,"name":"Minsk","timezone":10800}}"#
}

/// One forecast item at `dt` with extra members.
private func item(dt: Int = 1_795_867_200, temp: String = "10", _ extra: String = "") -> String {
    #"{"dt":\#(dt),"main":{"temp":\#(temp),"pressure":1013,"humidity":50},"weather":[{"id":500,"icon":"10d"}]"#
        + (extra.isEmpty ? "" : ",\(extra)") + "}"
}

private func decodeCurrent(_ body: String, units: OpenWeatherMapProvider.RequestUnits = .metric) throws -> WeatherSample {
    try OpenWeatherMapDecoder(units: units).current(response(200, body), now: Fixtures.recordedAt).sample
}

private func decodeForecast(_ body: String, units: OpenWeatherMapProvider.RequestUnits = .metric) throws -> [WeatherSample] {
    try OpenWeatherMapDecoder(units: units).forecast(response(200, body), now: Fixtures.recordedAt).steps
}

@Suite("OpenWeatherMap decoder: units")
struct OpenWeatherMapUnitTests {
    @Test("standard units are kelvin: 283.15 K is 10 °C, 273.15 K is 0 °C; wind stays m/s")
    func standard() throws {
        let sample = try decodeCurrent(currentBody(main: #""temp":283.15,"feels_like":273.15,"pressure":1013,"humidity":50"#,
                                                   #""wind":{"speed":5,"gust":7.5}"#), units: .standard)
        #expect(isClose(sample.temperatureC, 10))
        #expect(isClose(sample.apparentTemperatureC, 0))
        #expect(sample.windSpeedMS == 5)
        #expect(sample.windGustMS == 7.5)
        #expect(sample.pressureHPa == 1013)
    }

    @Test("imperial converts °F and mph only; visibility, rain and pressure are left alone")
    func imperial() throws {
        let sample = try decodeCurrent(currentBody(
            main: #""temp":50,"feels_like":32,"pressure":1013,"humidity":40"#,
            #""visibility":9000,"wind":{"speed":10,"deg":180,"gust":20},"rain":{"1h":2.5}"#), units: .imperial)
        #expect(isClose(sample.temperatureC, 10))
        #expect(isClose(sample.apparentTemperatureC, 0))
        #expect(isClose(sample.windSpeedMS, 4.4704))
        #expect(isClose(sample.windGustMS, 8.9408))
        #expect(sample.windDirectionDeg == 180)
        #expect(sample.visibilityM == 9000)
        #expect(sample.precipitationMM == 2.5)
        #expect(sample.pressureHPa == 1013)
        #expect(sample.humidityPercent == 40)
    }

    @Test("imperial forecast: 212 °F is 100 °C, 3h snow stays in mm")
    func imperialForecast() throws {
        let steps = try decodeForecast(forecastBody([item(temp: "212", #""wind":{"speed":10},"visibility":10000,"snow":{"3h":3}"#)]),
                                       units: .imperial)
        let step = try #require(steps.first)
        #expect(isClose(step.temperatureC, 100))
        #expect(isClose(step.windSpeedMS, 4.4704))
        #expect(step.visibilityM == 10000)
        #expect(step.precipitationMM == 3)
    }

    @Test("metric values pass through")
    func metric() throws {
        let sample = try decodeCurrent(currentBody(#""wind":{"speed":5,"gust":8}"#), units: .metric)
        #expect(sample.temperatureC == 10)
        #expect(sample.apparentTemperatureC == 9)
        #expect(sample.windSpeedMS == 5)
        #expect(sample.windGustMS == 8)
    }
}

@Suite("OpenWeatherMap decoder: absent and null fields")
struct OpenWeatherMapAbsentFieldTests {
    @Test("missing visibility, wind direction, gust and sea level stay nil")
    func optionalFieldsMissing() throws {
        let sample = try decodeCurrent(currentBody(#""wind":{"speed":3.6}"#))
        #expect(sample.visibilityM == nil)
        #expect(sample.windDirectionDeg == nil)
        #expect(sample.windGustMS == nil)
        #expect(sample.windSpeedMS == 3.6)
        #expect(sample.pressureHPa == 1013)
        #expect(sample.temperatureC == 10)
    }

    @Test("explicit nulls stay nil")
    func explicitNulls() throws {
        let sample = try decodeCurrent(currentBody(
            main: #""temp":10,"feels_like":null,"pressure":null,"humidity":null"#,
            #""visibility":null,"wind":{"speed":2,"deg":null,"gust":null},"clouds":null"#))
        #expect(sample.apparentTemperatureC == nil)
        #expect(sample.pressureHPa == nil)
        #expect(sample.humidityPercent == nil)
        #expect(sample.visibilityM == nil)
        #expect(sample.windDirectionDeg == nil)
        #expect(sample.windGustMS == nil)
        #expect(sample.cloudCoverPercent == nil)
    }

    @Test("no wind object means no wind values, not calm")
    func noWindObject() throws {
        let sample = try decodeCurrent(currentBody())
        #expect(sample.windSpeedMS == nil)
        #expect(sample.windGustMS == nil)
        #expect(sample.windDirectionDeg == nil)
    }

    @Test("absent rain and snow mean 0 mm (OpenWeatherMap's documented convention)")
    func noPrecipitationObjects() throws {
        let current = try decodeCurrent(currentBody())
        #expect(current.precipitationMM == 0)
        #expect(current.precipitationRateMMPerHour == 0)
        let step = try #require(try decodeForecast(forecastBody([item()])).first)
        #expect(step.precipitationMM == 0)
    }

    @Test("current weather with a legacy 3h rain amount covers three hours")
    func legacyThreeHourRain() throws {
        let sample = try decodeCurrent(currentBody(#""rain":{"3h":1.5}"#))
        #expect(sample.precipitationMM == 1.5)
        #expect(sample.periodHours == 3)
        #expect(isClose(sample.precipitationRateMMPerHour, 0.5))
    }

    @Test("current weather with 1h rain and snow adds them over one hour")
    func rainAndSnowOneHour() throws {
        let sample = try decodeCurrent(currentBody(#""rain":{"1h":0.4},"snow":{"1h":0.6}"#))
        #expect(isClose(sample.precipitationMM, 1.0))
        #expect(sample.periodHours == 1)
    }

    @Test("cod may be the number 200 or the string \"200\"", arguments: ["200", #""200""#])
    func codNumberOrString(cod: String) throws {
        let sample = try decodeCurrent(currentBody(cod: cod))
        #expect(sample.temperatureC == 10)
        let steps = try decodeForecast(forecastBody([item()], cod: cod))
        #expect(steps.count == 1)
    }

    @Test("pop sent as the integers 0 and 1 is 0 % and 100 %")
    func integerPop() throws {
        let steps = try decodeForecast(forecastBody([
            item(dt: 1_795_867_200, #""pop":0"#), item(dt: 1_795_878_000, #""pop":1"#), item(dt: 1_795_888_800, #""pop":0.35"#),
        ]))
        #expect(steps.map(\.precipitationProbabilityPercent) == [0, 100, 35])
    }

    @Test("a forecast step without pop has no chance of precipitation given, not 0 %")
    func missingPop() throws {
        let step = try #require(try decodeForecast(forecastBody([item()])).first)
        #expect(step.precipitationProbabilityPercent == nil)
    }

    @Test("forecast steps come out in time order, with the city's offset")
    func forecastOrderAndOffset() throws {
        let decoded = try OpenWeatherMapDecoder(units: .metric).forecast(
            response(200, forecastBody([item(dt: 1_795_878_000, temp: "2"), item(dt: 1_795_867_200, temp: "1")])), now: Fixtures.recordedAt)
        #expect(decoded.steps.map(\.temperatureC) == [1, 2])
        #expect(decoded.utcOffsetSeconds == 10_800)
    }

    @Test("the first of several weather entries is the primary condition; the icon says day or night")
    func primaryCondition() throws {
        let body = #"{"weather":[{"id":600,"icon":"13n"},{"id":701,"icon":"50n"}],"main":{"temp":0},"dt":1795856400,"cod":200}"#
        let sample = try decodeCurrent(body)
        #expect(sample.condition == .snow)
        #expect(sample.isDay == false)
        #expect(sample.time == Fixtures.recordedAt)
    }
}
