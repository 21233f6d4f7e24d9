import FoundationEssentials
import IsobarCore
import IsobarTestKit
import OpenMeteo
import Testing

/// A recorded-shape body of `models=ecmwf_ifs025,gfs_seamless,icon_seamless` for Minsk: with more than one model, Open-Meteo
/// appends `_<model>` to every variable key (values and units), and keeps `time` and `interval` unsuffixed. GFS sends km/h
/// like the others; ICON ends its hours early (trailing nulls, as a shorter-horizon model does).
private let threeModels = #"""
{"latitude":53.875,"longitude":27.5625,"generationtime_ms":1.2,"utc_offset_seconds":10800,"timezone":"Europe/Minsk",\#
"timezone_abbreviation":"GMT+3","elevation":222.0,\#
"current_units":{"time":"iso8601","interval":"seconds","temperature_2m_ecmwf_ifs025":"°C","wind_speed_10m_ecmwf_ifs025":"km/h",\#
"weather_code_ecmwf_ifs025":"wmo code","temperature_2m_gfs_seamless":"°C","wind_speed_10m_gfs_seamless":"km/h",\#
"weather_code_gfs_seamless":"wmo code","temperature_2m_icon_seamless":"°C","wind_speed_10m_icon_seamless":"km/h",\#
"weather_code_icon_seamless":"wmo code"},\#
"current":{"time":"2026-11-28T12:00","interval":900,"temperature_2m_ecmwf_ifs025":-1.4,"wind_speed_10m_ecmwf_ifs025":14.4,\#
"weather_code_ecmwf_ifs025":3,"temperature_2m_gfs_seamless":-0.6,"wind_speed_10m_gfs_seamless":18.0,"weather_code_gfs_seamless":71,\#
"temperature_2m_icon_seamless":-1.9,"wind_speed_10m_icon_seamless":10.8,"weather_code_icon_seamless":3},\#
"hourly_units":{"time":"iso8601","temperature_2m_ecmwf_ifs025":"°C","temperature_2m_gfs_seamless":"°C","temperature_2m_icon_seamless":"°C"},\#
"hourly":{"time":["2026-11-28T00:00","2026-11-28T01:00","2026-11-28T02:00"],\#
"temperature_2m_ecmwf_ifs025":[-2.1,-2.3,-2.4],"temperature_2m_gfs_seamless":[-1.2,-1.5,-1.6],\#
"temperature_2m_icon_seamless":[-2.6,-2.8,null]},\#
"daily_units":{"time":"iso8601","temperature_2m_max_ecmwf_ifs025":"°C","sunrise_ecmwf_ifs025":"iso8601",\#
"temperature_2m_max_gfs_seamless":"°C","sunrise_gfs_seamless":"iso8601","temperature_2m_max_icon_seamless":"°C",\#
"sunrise_icon_seamless":"iso8601"},\#
"daily":{"time":["2026-11-28"],"temperature_2m_max_ecmwf_ifs025":[-0.8],"sunrise_ecmwf_ifs025":["2026-11-28T08:47"],\#
"temperature_2m_max_gfs_seamless":[0.3],"sunrise_gfs_seamless":["2026-11-28T08:47"],"temperature_2m_max_icon_seamless":[-1.2],\#
"sunrise_icon_seamless":["2026-11-28T08:47"]}}
"""#

private let models = ["ecmwf_ifs025", "gfs_seamless", "icon_seamless"]
private let minsk = Place(name: "Minsk", countryCode: "BY", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!)

@Suite("Open-Meteo weather models")
struct OpenMeteoModelsTests {
    @Test("one body with three models decodes to three forecasts, each from its own suffixed keys")
    func decodesEachModel() throws {
        let forecasts = try OpenMeteoDecoder().decode(response(200, threeModels), now: Fixtures.recordedAt, models: models)
        #expect(forecasts.count == 3)
        #expect(forecasts.map { $0.current?.temperatureC } == [-1.4, -0.6, -1.9])
        #expect(isClose(forecasts[1].current?.windSpeedMS, 5))
        #expect(forecasts[1].current?.condition == Condition(wmoCode: 71))
        #expect(forecasts.map { $0.hourly.count } == [3, 3, 3])
        #expect(forecasts[0].hourly.map(\.temperatureC) == [-2.1, -2.3, -2.4])
        #expect(forecasts[2].hourly[2].temperatureC == nil)
        #expect(forecasts.map { $0.daily.first?.temperatureMaxC } == [-0.8, 0.3, -1.2])
        #expect(forecasts.allSatisfy { $0.daily.first?.sunrise == Date(timeIntervalSince1970: 1_795_844_820) })
        #expect(forecasts.allSatisfy { $0.timeZoneIdentifier == "Europe/Minsk" && $0.warnings.isEmpty })
    }

    @Test("a model the body does not answer for is a bad response, never an empty source")
    func missingModel() {
        #expect(throws: ProviderError.self) {
            try OpenMeteoDecoder().decode(response(200, threeModels), now: Fixtures.recordedAt, models: ["ecmwf_ifs025", "jma_seamless"])
        }
        do {
            _ = try OpenMeteoDecoder().decode(response(200, threeModels), now: Fixtures.recordedAt, models: ["ecmwf_ifs025", "jma_seamless"])
        } catch {
            #expect(error.code == .badResponse(path: "$.hourly.temperature_2m_jma_seamless"))
        }
    }

    @Test("a single model is unsuffixed, as Open-Meteo sends it")
    func singleModel() throws {
        let body = #"{"utc_offset_seconds":0,"timezone":"GMT","hourly_units":{"time":"iso8601","temperature_2m":"°C"},"#
            + #""hourly":{"time":["2026-11-28T00:00"],"temperature_2m":[4.5]}}"#
        let forecasts = try OpenMeteoDecoder().decode(response(200, body), now: Fixtures.recordedAt, models: ["ecmwf_ifs025"])
        #expect(forecasts.map { $0.hourly.first?.temperatureC } == [4.5])
    }

    @Test("the models go in one request, as one models= list")
    func request() {
        let provider = OpenMeteoProvider(configuration: .init(models: models))
        let query = provider.request(for: WeatherRequest(place: minsk)).url.query
        #expect(query.filter { $0.name == "models" }.map(\.value) == ["ecmwf_ifs025,gfs_seamless,icon_seamless"])
        #expect(!OpenMeteoProvider().request(for: WeatherRequest(place: minsk)).url.query.contains { $0.name == "models" })
    }

    @Test("every model counts its variables again: three models cost three times one")
    func callCost() {
        let one = OpenMeteoProvider(configuration: .init(forecastDays: 7))
        let three = OpenMeteoProvider(configuration: .init(forecastDays: 7, models: models))
        let variables = Double(OpenMeteoProvider.currentVariables.count + OpenMeteoProvider.hourlyVariables.count
            + OpenMeteoProvider.dailyVariables.count)
        #expect(one.callCost(of: WeatherRequest(place: minsk)) == max(1, variables / 10))
        #expect(three.callCost(of: WeatherRequest(place: minsk)) == max(1, 3 * variables / 10))
        let long = OpenMeteoProvider(configuration: .init(forecastDays: 16, models: models))
        #expect(isClose(long.callCost(of: WeatherRequest(place: minsk)), 3 * variables / 10 * 16 / 14))
    }

    @Test("each model is a source of family open-meteo, named after its model")
    func sources() {
        let provider = OpenMeteoProvider(configuration: .init(models: models + ["some_new_model"]))
        #expect(provider.sources.map(\.id) == models.map { "open-meteo/\($0)" } + ["open-meteo/some_new_model"])
        #expect(provider.sources.map(\.name) == ["Open-Meteo ECMWF IFS", "Open-Meteo GFS", "Open-Meteo ICON", "Open-Meteo some_new_model"])
        #expect(Set(provider.sources.map(\.family)) == ["open-meteo"])
        #expect(Set(provider.sources.map(\.providerID)) == ["open-meteo"])
        #expect(OpenMeteoProvider().sources == [SourceIdentity(id: "open-meteo", name: "Open-Meteo", family: "open-meteo")])
    }

    @Test("the family is the endpoint's: one upstream at one endpoint, five endpoints are five families")
    func familiesByEndpoint() throws {
        func entry(_ id: String, _ url: String, models: [String] = []) throws -> OpenMeteoProvider {
            OpenMeteoProvider(configuration: .init(id: id, baseURL: try #require(RequestURL(string: url)), models: models))
        }
        let five = try (0..<5).map { try entry("om\($0)", "http://127.0.0.1:\(8_001 + $0)") }
        let families = five.flatMap(\.sources).map(\.family)
        #expect(Set(families).count == 5)
        #expect(families.first == "open-meteo@127.0.0.1:8001")
        // Two entries at one endpoint are one upstream, whatever their ids; the commercial host runs the same models.
        #expect(try entry("a", "https://mirror.example").sources[0].family == entry("b", "https://mirror.example").sources[0].family)
        #expect(try entry("a", "https://customer-api.open-meteo.com").sources[0].family == "open-meteo")
        #expect(try entry("a", "https://api.open-meteo.com:8443").sources[0].family == "open-meteo@api.open-meteo.com:8443")
        #expect(try Set(entry("m", "https://mirror.example", models: models).sources.map(\.family)) == ["open-meteo@mirror.example"])
    }

    @Test("a fetch answers with one source report per model, in the configured order")
    func fetch() async throws {
        let provider = OpenMeteoProvider(configuration: .init(models: models))
        let report = try await provider.fetch(WeatherRequest(place: minsk), transport: StubTransport(status: 200, body: threeModels))
        #expect(report.providerID == "open-meteo")
        #expect(report.current == nil && report.hourly.isEmpty)
        #expect(report.sourceReports.map(\.providerID) == models.map { "open-meteo/\($0)" })
        #expect(report.sourceReports.map { $0.current?.temperatureC } == [-1.4, -0.6, -1.9])
    }
}
