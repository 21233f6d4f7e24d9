import FixtureReplay
import FoundationEssentials
import IsobarCore
import IsobarTestKit
import OpenMeteo
import OpenWeatherMap
import Testing

/// Every bundled cassette replayed through the real adapters, checked against the recorded body text.
@Suite("Bundled cassettes")
struct BundledCassetteTests {
    private static let midnight = 1_795_824_000.0  // 2026-11-28T00:00:00Z

    private func replayOpenMeteo(_ fixture: BundledPlace) async throws -> WeatherReport {
        let library = try CassetteLibrary(directory: Fixtures.cassetteDirectory("open-meteo"))
        let network = StubTransport(status: 500, body: "the network must not be used")
        let report = try await FixtureReplayProvider(base: OpenMeteoProvider(), library: library)
            .fetch(WeatherRequest(place: fixture.place), transport: network)
        #expect(network.requests.isEmpty)
        return report
    }

    private func replayOpenWeatherMap(_ fixture: BundledPlace) async throws -> WeatherReport {
        let library = try CassetteLibrary(directory: Fixtures.cassetteDirectory("openweathermap"))
        let network = StubTransport(status: 500, body: "the network must not be used")
        let adapter = OpenWeatherMapProvider(configuration: .init(apiKey: Fixtures.sentinelKey))
        let report = try await FixtureReplayProvider(base: adapter, library: library)
            .fetch(WeatherRequest(place: fixture.place), transport: network)
        #expect(network.requests.isEmpty)
        return report
    }

    // MARK: Open-Meteo

    @Test("Open-Meteo replays with 384 hours and 16 days", arguments: Fixtures.places)
    func openMeteoShape(_ fixture: BundledPlace) async throws {
        let report = try await replayOpenMeteo(fixture)
        #expect(report.source == .replay(recordedAt: Fixtures.recordedAt))
        #expect(report.fetchedAt == Fixtures.recordedAt)
        #expect(report.providerID == "open-meteo")
        #expect(report.place == fixture.place)
        #expect(report.utcOffsetSeconds == fixture.utcOffsetSeconds)
        #expect(report.timeZoneIdentifier == fixture.timeZone)
        #expect(report.hourly.count == 384)
        #expect(report.daily.count == 16)
        // Hourly times are local midnight of 2026-11-28 onwards, one hour apart.
        let first = Date(timeIntervalSince1970: Self.midnight - Double(fixture.utcOffsetSeconds))
        #expect(report.hourly.first?.time == first)
        #expect(report.hourly.last?.time == first.addingTimeInterval(383 * 3600))
        #expect(zip(report.hourly, report.hourly.dropFirst()).allSatisfy { $1.time.timeIntervalSince($0.time) == 3600 })
        #expect(report.daily.first?.date == LocalDate(year: 2026, month: 11, day: 28))
        #expect(report.daily.last?.date == LocalDate(year: 2026, month: 12, day: 13))
        // Current conditions are for 09:00 UTC, the recording time, whatever the local clock says.
        #expect(report.current?.time == Fixtures.recordedAt)
        #expect(report.current?.periodHours == 0.25)
    }

    @Test("Open-Meteo current values match the body, wind converted from km/h", arguments: Fixtures.places)
    func openMeteoCurrent(_ fixture: BundledPlace) async throws {
        let report = try await replayOpenMeteo(fixture)
        let body = try Fixtures.body("open-meteo", fixture.slug, urlContaining: "/v1/forecast")
        #expect(try body.member("current_units").string("wind_speed_10m") == "km/h")
        let recorded = try body.member("current")
        let current = try #require(report.current)
        #expect(current.temperatureC == (try recorded.double("temperature_2m")))
        #expect(current.apparentTemperatureC == (try recorded.double("apparent_temperature")))
        #expect(current.humidityPercent == (try recorded.double("relative_humidity_2m")))
        #expect(current.pressureHPa == (try recorded.double("pressure_msl")))
        #expect(current.cloudCoverPercent == (try recorded.double("cloud_cover")))
        #expect(current.visibilityM == (try recorded.double("visibility")))
        #expect(current.precipitationMM == (try recorded.double("precipitation")))
        #expect(current.windDirectionDeg == (try recorded.double("wind_direction_10m")))
        #expect(isClose(current.windSpeedMS, try recorded.double("wind_speed_10m") / 3.6))
        #expect(isClose(current.windGustMS, try recorded.double("wind_gusts_10m") / 3.6))
        #expect(current.isDay == (try recorded.int("is_day") == 1))
        #expect(current.condition == Condition(wmoCode: try recorded.int("weather_code")))
        #expect(current.condition != nil)
    }

    @Test("Open-Meteo hourly values match the body; nulls stay nil", arguments: Fixtures.places)
    func openMeteoHourly(_ fixture: BundledPlace) async throws {
        let report = try await replayOpenMeteo(fixture)
        let hourly = try Fixtures.body("open-meteo", fixture.slug, urlContaining: "/v1/forecast").member("hourly")
        let temperature = try hourly.member("temperature_2m").numbersOrNulls()
        let precipitation = try hourly.member("precipitation").numbersOrNulls()
        let wind = try hourly.member("wind_speed_10m").numbersOrNulls()
        let gusts = try hourly.member("wind_gusts_10m").numbersOrNulls()
        let probability = try hourly.member("precipitation_probability").numbersOrNulls()
        let codes = try hourly.member("weather_code").numbersOrNulls()
        #expect(temperature.count == 384)
        for (index, sample) in report.hourly.enumerated() {
            #expect(sample.temperatureC == temperature[index], "hour \(index)")
            #expect(sample.precipitationMM == precipitation[index], "hour \(index)")
            #expect(sample.precipitationProbabilityPercent == probability[index], "hour \(index)")
            if let speed = wind[index] {
                #expect(isClose(sample.windSpeedMS, speed / 3.6), "hour \(index)")
            } else {
                #expect(sample.windSpeedMS == nil, "hour \(index)")
            }
            if let gust = gusts[index] {
                #expect(isClose(sample.windGustMS, gust / 3.6), "hour \(index)")
            } else {
                #expect(sample.windGustMS == nil, "hour \(index)")
            }
            if let code = codes[index] {
                #expect(sample.condition == Condition(wmoCode: Int(code)), "hour \(index)")
                #expect(sample.condition != nil, "hour \(index)")
            } else {
                #expect(sample.condition == nil, "hour \(index)")
            }
        }
        // The last three hours are null at the forecast horizon: every value absent, none turned into 0.
        for sample in report.hourly.suffix(3) {
            let values = Quantity.allCases.map { sample[$0] }
            #expect(values.allSatisfy { $0 == nil })
            #expect(sample.condition == nil)
        }
        #expect(report.hourly[380].temperatureC != nil)
    }

    @Test("Tokyo's null weather codes give hours without a condition")
    func tokyoConditionGap() async throws {
        let report = try await replayOpenMeteo(try Fixtures.place("tokyo"))
        let withoutCondition = report.hourly.indices.filter { report.hourly[$0].condition == nil }
        #expect(withoutCondition == [202, 203, 204, 205, 206, 381, 382, 383])
        for index in 202...206 {
            #expect(report.hourly[index].temperatureC != nil)
            #expect(report.hourly[index].windSpeedMS != nil)
        }
    }

    @Test("Open-Meteo days match the body; the last day's null chance stays nil", arguments: Fixtures.places)
    func openMeteoDaily(_ fixture: BundledPlace) async throws {
        let report = try await replayOpenMeteo(fixture)
        let daily = try Fixtures.body("open-meteo", fixture.slug, urlContaining: "/v1/forecast").member("daily")
        let maxima = try daily.member("temperature_2m_max").numbersOrNulls()
        let sums = try daily.member("precipitation_sum").numbersOrNulls()
        let windMax = try daily.member("wind_speed_10m_max").numbersOrNulls()
        let chances = try daily.member("precipitation_probability_max").numbersOrNulls()
        for (index, day) in report.daily.enumerated() {
            #expect(day.temperatureMaxC == maxima[index])
            #expect(day.precipitationMM == sums[index])
            #expect(isClose(day.windSpeedMaxMS, try #require(windMax[index]) / 3.6))
            #expect(day.precipitationProbabilityMaxPercent == chances[index])
            #expect(day.condition != nil)
            let sunrise = try #require(day.sunrise)
            let sunset = try #require(day.sunset)
            #expect(sunrise < sunset)
            let start = day.date.start(utcOffsetSeconds: fixture.utcOffsetSeconds)
            #expect(sunrise > start && sunset < start.addingTimeInterval(86_400))
        }
        #expect(report.daily[15].precipitationProbabilityMaxPercent == nil)
        #expect(report.daily[14].precipitationProbabilityMaxPercent != nil)
    }

    @Test("Open-Meteo's first sunrise agrees with OpenWeatherMap's to the minute", arguments: Fixtures.places)
    func sunriseAgreesAcrossProviders(_ fixture: BundledPlace) async throws {
        let report = try await replayOpenMeteo(fixture)
        let owm = try Fixtures.body("openweathermap", fixture.slug, urlContaining: "/data/2.5/weather")
        let recorded = try owm.member("sys").double("sunrise")
        let sunrise = try #require(report.daily.first?.sunrise)
        #expect(abs(sunrise.timeIntervalSince1970 - recorded) < 60)
    }

    // MARK: OpenWeatherMap

    @Test("OpenWeatherMap replays with 40 three-hour steps", arguments: Fixtures.places)
    func openWeatherMapShape(_ fixture: BundledPlace) async throws {
        let report = try await replayOpenWeatherMap(fixture)
        #expect(report.source == .replay(recordedAt: Fixtures.recordedAt))
        #expect(report.fetchedAt == Fixtures.recordedAt)
        #expect(report.providerID == "openweathermap")
        #expect(report.place == fixture.place)
        #expect(report.utcOffsetSeconds == fixture.utcOffsetSeconds)
        #expect(report.hourly.count == 40)
        // Only today's sunrise and sunset, from /weather's `sys`; the days themselves are computed from the steps.
        #expect(report.daily.count == 1)
        let sun = try Fixtures.body("openweathermap", fixture.slug, urlContaining: "/data/2.5/weather").member("sys")
        #expect(report.daily.first?.sunrise == Date(timeIntervalSince1970: try sun.double("sunrise")))
        #expect(report.daily.first?.sunset == Date(timeIntervalSince1970: try sun.double("sunset")))
        #expect(report.daily.first?.temperatureMaxC == nil && report.daily.first?.condition == nil)
        // The first slot is 2026-11-28T12:00Z, the next after the recording.
        #expect(report.hourly.first?.time == Date(timeIntervalSince1970: 1_795_867_200))
        #expect(zip(report.hourly, report.hourly.dropFirst()).allSatisfy { $1.time.timeIntervalSince($0.time) == 10_800 })
        #expect(report.hourly.allSatisfy { $0.periodHours == 3 })
    }

    @Test("OpenWeatherMap current values match the body", arguments: Fixtures.places)
    func openWeatherMapCurrent(_ fixture: BundledPlace) async throws {
        let report = try await replayOpenWeatherMap(fixture)
        let body = try Fixtures.body("openweathermap", fixture.slug, urlContaining: "/data/2.5/weather")
        let current = try #require(report.current)
        let main = try body.member("main")
        let wind = try body.member("wind")
        #expect(current.time == Date(timeIntervalSince1970: try body.double("dt")))
        #expect(current.temperatureC == (try main.double("temp")))
        #expect(current.apparentTemperatureC == (try main.double("feels_like")))
        #expect(current.humidityPercent == (try main.double("humidity")))
        #expect(current.pressureHPa == (try main.double("pressure")))
        #expect(current.windSpeedMS == (try wind.double("speed")))
        #expect(current.windDirectionDeg == (try wind.optionalDouble("deg")))
        #expect(current.windGustMS == (try wind.optionalDouble("gust")))
        #expect(current.visibilityM == (try body.optionalDouble("visibility")))
        #expect(current.cloudCoverPercent == (try body.member("clouds").double("all")))
        let rain = try body.nonNullMember("rain")?.optionalDouble("1h") ?? 0
        let snow = try body.nonNullMember("snow")?.optionalDouble("1h") ?? 0
        #expect(current.precipitationMM == rain + snow)
        let primary = try body.member("weather").elements()[0]
        #expect(current.condition == Condition(openWeatherMapID: try primary.int("id")))
        #expect(current.condition != nil)
        #expect(current.isDay == (try primary.string("icon").hasSuffix("d")))
    }

    @Test("OpenWeatherMap fields missing from a place's recording stay nil")
    func openWeatherMapMissingFields() async throws {
        func current(_ slug: String) async throws -> WeatherSample {
            let report = try await replayOpenWeatherMap(try Fixtures.place(slug))
            return try #require(report.current)
        }
        let london = try await current("london")
        #expect(london.visibilityM == nil)
        #expect(london.windGustMS == 6.69)
        let tokyo = try await current("tokyo")
        #expect(tokyo.windGustMS == nil)
        #expect(tokyo.windDirectionDeg == 270)
        let moscow = try await current("moscow")
        #expect(moscow.windDirectionDeg == nil)
        #expect(moscow.windSpeedMS == 3.6)
        #expect(moscow.precipitationMM == 0.52)
        #expect(moscow.condition == .snow)
        let newYork = try await current("new-york")
        #expect(newYork.pressureHPa == 1027)
        #expect(newYork.precipitationMM == 0)
        let minsk = try await current("minsk")
        #expect(minsk.visibilityM == 2700)
        #expect(minsk.precipitationMM == 0.29)
        #expect(minsk.temperatureC == 0.04)
    }

    @Test("OpenWeatherMap forecast steps match the body", arguments: Fixtures.places)
    func openWeatherMapForecast(_ fixture: BundledPlace) async throws {
        let report = try await replayOpenWeatherMap(fixture)
        let items = try Fixtures.body("openweathermap", fixture.slug, urlContaining: "/data/2.5/forecast").member("list").elements()
        #expect(items.count == 40)
        var withoutVisibility = 0
        for (index, (item, sample)) in zip(items, report.hourly).enumerated() {
            #expect(sample.time == Date(timeIntervalSince1970: try item.double("dt")), "step \(index)")
            #expect(sample.temperatureC == (try item.member("main").double("temp")), "step \(index)")
            #expect(sample.humidityPercent == (try item.member("main").double("humidity")), "step \(index)")
            #expect(sample.windSpeedMS == (try item.member("wind").double("speed")), "step \(index)")
            #expect(sample.windDirectionDeg == (try item.member("wind").double("deg")), "step \(index)")
            #expect(isClose(sample.precipitationProbabilityPercent, try item.double("pop") * 100), "step \(index)")
            let rain = try item.nonNullMember("rain")?.double("3h") ?? 0
            let snow = try item.nonNullMember("snow")?.double("3h") ?? 0
            #expect(isClose(sample.precipitationMM, rain + snow), "step \(index)")
            #expect(sample.visibilityM == (try item.optionalDouble("visibility")), "step \(index)")
            if try item.optionalDouble("visibility") == nil { withoutVisibility += 1 }
            #expect(sample.isDay == (try item.member("sys").string("pod") == "d"), "step \(index)")
            #expect(sample.condition == Condition(openWeatherMapID: try item.member("weather").elements()[0].int("id")))
        }
        #expect(withoutVisibility == 3)
    }
}
