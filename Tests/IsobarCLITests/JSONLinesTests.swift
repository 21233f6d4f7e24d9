import Foundation
import IsobarCore
import Testing

/// Finds the provider_result line of a provider.
func resultLine(_ lines: [JSONValue], provider: String) throws -> JSONValue {
    try #require(lines.first { (try? $0.optionalString("provider")) == provider && (try? $0.string("type")) == "provider_result" })
}

/// Three-decimal rounding, as output numbers are.
func round3(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

@Suite struct JSONLinesTests {
    @Test func everyLineHasSchemaTypePlaceAndProviderWhereItShould() async throws {
        let run = await runCLI(["compare", "Minsk", "--demo", "--format", "jsonl"])
        #expect(run.code == 0)
        #expect(run.stdout.hasSuffix("\n"))
        for line in try parseLines(run) {
            #expect(try line.int("schema") == 1)
            let type = try line.string("type")
            // The air sources' comparison (the demo has Minsk's air) ends the lines.
            #expect(["provider_result", "provider_error", "consensus", "air_comparison"].contains(type))
            #expect(try line.member("place").string("name") == "Minsk")
            #expect(try line.member("place").double("latitude") == 53.9)
            if type.hasPrefix("provider_") { #expect(try line.optionalString("provider") != nil) }
        }
    }

    @Test func replayIsLabelledWithItsRecordingTimeInEveryLine() async throws {
        let lines = try parseLines(await runCLI(["compare", "Tokyo", "--demo", "--format", "jsonl"]))
        for line in lines where try line.string("type") == "provider_result" {
            #expect(try line.member("source").string("kind") == "replay")
            #expect(try line.member("source").string("recorded_at") == "2026-11-28T09:00:00+00:00")
        }
        let consensus = try #require(lines.last)
        // Every provider asked; the NWS plug-in, outside its coverage in Tokyo, was not, and has no source.
        for outcome in try consensus.member("outcomes").elements() where try outcome.string("provider") != "nws" {
            let source = try outcome.member("source")
            #expect(try source.string("kind") == "replay")
            #expect(try source.string("recorded_at") == "2026-11-28T09:00:00+00:00")
        }
        let nws = try #require(try consensus.member("outcomes").elements().first { try $0.string("provider") == "nws" })
        #expect(try nws.string("status") == "skipped")
        #expect(try nws.member("source").isNull)
    }

    @Test func instantsCarryThePlaceOffset() async throws {
        let lines = try parseLines(await runCLI(["compare", "São Paulo", "--demo", "--format", "jsonl"]))
        let openMeteo = try resultLine(lines, provider: "open-meteo/ecmwf_ifs025")
        #expect(try openMeteo.member("current").string("time") == "2026-11-28T06:00:00-03:00")
        #expect(try openMeteo.int("utc_offset_seconds") == -10800)
    }

    @Test(arguments: bundledPlaces)
    func metricNumbersEqualTheCassettes(place: (name: String, slug: String)) async throws {
        // Open-Meteo's best match (one source, the first answer in its cassette), so that the consensus is the mean of two.
        let lines = try parseLines(await runCLI(["compare", place.name, "--config", bestMatchDemoConfig, "--format", "jsonl", "--providers", "openweathermap,open-meteo"]))
        let weather = try cassetteBody(provider: "openweathermap", place: place.slug, pathSuffix: "/data/2.5/weather")
        let owm = try resultLine(lines, provider: "openweathermap").member("current")
        #expect(try owm.double("temperature") == weather.member("main").double("temp"))
        #expect(try owm.double("humidity") == weather.member("main").double("humidity"))
        #expect(try owm.double("pressure") == weather.member("main").double("pressure"))
        #expect(try owm.double("wind_speed") == weather.member("wind").double("speed"))
        #expect(try owm.optionalDouble("visibility") == weather.optionalDouble("visibility").map { $0 / 1000 })
        #expect(try owm.optionalDouble("wind_direction") == weather.member("wind").optionalDouble("deg"))

        let forecast = try cassetteBody(provider: "open-meteo", place: place.slug, pathSuffix: "/v1/forecast").member("current")
        let meteo = try resultLine(lines, provider: "open-meteo").member("current")
        #expect(try meteo.double("temperature") == forecast.double("temperature_2m"))
        #expect(try meteo.double("wind_speed") == round3(forecast.double("wind_speed_10m") / 3.6))
        #expect(try meteo.double("precipitation") == forecast.double("precipitation"))
        // 15-minute amount as an hourly rate.
        #expect(try meteo.double("precipitation_rate") == round3(forecast.double("precipitation") * 4))

        let consensus = try #require(lines.last).member("current")
        let temperatures = [try weather.member("main").double("temp"), try forecast.double("temperature_2m")]
        let merged = try consensus.member("merged").member("temperature")
        #expect(try consensus.double("temperature") == round3((temperatures[0] + temperatures[1]) / 2))
        #expect(try merged.double("spread") == round3(abs(temperatures[0] - temperatures[1])))
        #expect(try merged.double("min") == temperatures.min()!)
    }

    @Test func imperialAndStandardConvertFromTheCassettes() async throws {
        let weather = try cassetteBody(provider: "openweathermap", place: "london", pathSuffix: "/data/2.5/weather")
        let meteo = try cassetteBody(provider: "open-meteo", place: "london", pathSuffix: "/v1/forecast").member("current")
        let celsius = try weather.member("main").double("temp")
        let speed = try weather.member("wind").double("speed")
        let kmh = try meteo.double("wind_speed_10m")

        // Open-Meteo's best match: the first answer in its cassette.
        let imperial = try parseLines(await runCLI(["compare", "London", "--config", bestMatchDemoConfig, "--format", "jsonl", "--units", "imperial"]))
        let owmImperial = try resultLine(imperial, provider: "openweathermap")
        #expect(try owmImperial.member("units").string("temperature") == "°F")
        #expect(try owmImperial.member("units").string("wind_speed") == "mph")
        #expect(try owmImperial.member("current").double("temperature") == round3(celsius * 9 / 5 + 32))
        #expect(try owmImperial.member("current").double("wind_speed") == round3(speed / 0.44704))
        #expect(try owmImperial.member("current").double("pressure") == round3(weather.member("main").double("pressure") / 33.8639))
        let meteoImperial = try resultLine(imperial, provider: "open-meteo").member("current")
        #expect(try meteoImperial.double("wind_speed") == round3(kmh / 3.6 / 0.44704))
        #expect(try meteoImperial.double("visibility") == round3(meteo.double("visibility") / 1609.344))

        let standard = try parseLines(await runCLI(["compare", "London", "--config", bestMatchDemoConfig, "--format", "jsonl", "--units", "standard"]))
        let owmStandard = try resultLine(standard, provider: "openweathermap")
        #expect(try owmStandard.member("units").string("temperature") == "K")
        #expect(try owmStandard.member("current").double("temperature") == round3(celsius + 273.15))
        #expect(try owmStandard.member("current").double("wind_speed") == speed)
        let consensusStandard = try #require(standard.last).member("current").member("merged").member("temperature")
        // A spread is a difference: kelvin and celsius spreads are equal.
        let meteoCelsius = try meteo.double("temperature_2m")
        #expect(try consensusStandard.double("spread") == round3(abs(celsius - meteoCelsius)))
    }

    @Test func tableShowsImperialUnitsInHeaders() async throws {
        let run = await runCLI(["compare", "London", "--demo", "--units", "imperial"])
        #expect(run.stdout.contains("Temperature (°F)"))
        #expect(run.stdout.contains("Wind (m/s)") == false)
        #expect(run.stdout.contains("Wind (mph)"))
        #expect(run.stdout.contains("Pressure (inHg)"))
    }

    @Test func absentValuesAreNullNotZero() async throws {
        // London's OpenWeatherMap answer has no visibility.
        let lines = try parseLines(await runCLI(["compare", "London", "--demo", "--format", "jsonl"]))
        let current = try resultLine(lines, provider: "openweathermap").member("current")
        #expect(try current.member("visibility").isNull)
        #expect(try current.member("precipitation_probability").isNull)
    }

    @Test func forecastLinesHoldTheRequestedDaysAndHours() async throws {
        let run = await runCLI(["forecast", "Minsk", "--demo", "--format", "jsonl", "--days", "3", "--hourly"])
        #expect(run.code == 0)
        let lines = try parseLines(run)
        let consensus = try #require(lines.last)
        let days = try consensus.member("daily").elements()
        #expect(try days.map { try $0.string("date") } == ["2026-11-28", "2026-11-29", "2026-11-30"])
        let hours = try consensus.member("hourly").elements()
        #expect(hours.count == 72)
        #expect(try hours.first?.string("time") == "2026-11-28T12:00:00+03:00")
        // OpenWeatherMap's own days are computed from its 3-hour steps, complete days only.
        let owmDays = try resultLine(lines, provider: "openweathermap").member("daily").elements()
        #expect(try owmDays.allSatisfy { try $0.member("derived").bool() })
        #expect(try owmDays.map { try $0.string("date") } == ["2026-11-29", "2026-11-30"])
    }
}
