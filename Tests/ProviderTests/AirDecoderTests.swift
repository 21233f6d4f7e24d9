import FoundationEssentials
import IsobarCore
import OpenMeteo
import OpenWeatherMap
import Testing

@Suite("Air-quality decoders")
struct AirDecoderTests {
    /// An Open-Meteo air body (offset 0) with the given blocks.
    private func meteo(_ blocks: String) -> String {
        #"{"latitude":53.9,"longitude":27.56,"utc_offset_seconds":0,"timezone":"GMT",\#(blocks)}"#
    }

    @Test("Open-Meteo: µg/m³ either mu, ppb converted to µg/m³, pollen in grains/m³; an unknown unit drops its values with a warning")
    func openMeteoUnits() throws {
        let text = meteo(#""current_units":{"pm2_5":"μg/m³","ozone":"ppb","carbon_monoxide":"furlongs","birch_pollen":"grains/m³"},"#
            + #""current":{"time":"2026-11-28T09:00","interval":3600,"pm2_5":6.5,"ozone":50,"carbon_monoxide":200,"birch_pollen":12}"#)
        let decoded = try OpenMeteoAirDecoder().decode(response(200, text), now: Fixtures.recordedAt)
        let current = try #require(decoded.current)
        #expect(current[.pm25] == 6.5)
        #expect(abs((current[.ozone] ?? 0) - 98.16) < 0.01)
        #expect(current[.carbonMonoxide] == nil)
        #expect(current[.birchPollen] == 12)
        #expect(decoded.warnings.map(\.field) == ["carbon_monoxide"])
        #expect(current.time == Fixtures.recordedAt)
    }

    @Test("Open-Meteo: hourly arrays fill each hour; null pollen (out of season, or the global domain) stays absent, never 0")
    func openMeteoHourly() throws {
        let text = meteo(#""hourly_units":{"pm10":"μg/m³","grass_pollen":"grains/m³"},"#
            + #""hourly":{"time":["2026-11-28T09:00","2026-11-28T10:00"],"pm10":[20,null],"grass_pollen":[null,null]}"#)
        let decoded = try OpenMeteoAirDecoder().decode(response(200, text), now: Fixtures.recordedAt)
        #expect(decoded.hourly.map { $0[.pm10] } == [20, nil])
        #expect(decoded.hourly.allSatisfy { $0[.grassPollen] == nil })
    }

    @Test("Open-Meteo: an error body is the provider's refusal, a body without an offset a bad response")
    func openMeteoErrors() {
        #expect(throws: ProviderError.self) {
            try OpenMeteoAirDecoder().decode(response(400, #"{"error":true,"reason":"Cannot initialize domains"}"#), now: Fixtures.recordedAt)
        }
        #expect(throws: ProviderError.self) { try OpenMeteoAirDecoder().decode(response(200, #"{"current":{}}"#), now: Fixtures.recordedAt) }
    }

    @Test("the request goes to the air-quality path with the domain and every air variable, times in the place's zone")
    func openMeteoRequest() throws {
        let place = Place(name: "Minsk", coordinate: try #require(Coordinate(latitude: 53.9, longitude: 27.5667)))
        let provider = OpenMeteoAirProvider(configuration: .init(domain: .global))
        let url = provider.request(for: WeatherRequest(place: place, kinds: [.air, .current, .hourly])).url.string
        #expect(url.hasPrefix("https://air-quality-api.open-meteo.com/v1/air-quality?"))
        #expect(url.contains("domains=cams_global") && url.contains("timezone=auto"))
        #expect(url.contains("pm2_5") && url.contains("ragweed_pollen") && url.contains("carbon_monoxide"))
    }

    @Test("OpenWeatherMap: components in µg/m³, its own 1–5 index kept as its own with its word; an index outside 1–5 is left out")
    func openWeatherMap() throws {
        let text = #"{"coord":{"lon":27.56,"lat":53.9},"list":["#
            + #"{"main":{"aqi":4},"components":{"co":230.3,"no":0,"no2":12.5,"o3":70,"so2":2,"pm2_5":41.5,"pm10":50,"nh3":1},"dt":1795860000},"#
            + #"{"main":{"aqi":9},"components":{"co":200,"no2":"x","o3":60,"so2":1,"pm2_5":8,"pm10":10},"dt":1795856400}]}"#
        let decoded = try OpenWeatherMapAirDecoder().decode(response(200, text), now: Fixtures.recordedAt)
        #expect(decoded.samples.map(\.time.timeIntervalSince1970) == [1_795_856_400, 1_795_860_000], "sorted by time")
        let later = decoded.samples[1]
        #expect(later[.pm25] == 41.5 && later[.carbonMonoxide] == 230.3 && later[.nitrogenDioxide] == 12.5)
        #expect(later.providerAirIndex == ProviderAirIndex(scale: "OpenWeatherMap 1–5", value: 4, category: "Poor"))
        #expect(decoded.samples[0].providerAirIndex == nil)
        #expect(decoded.samples[0][.nitrogenDioxide] == nil && decoded.warnings.count == 1)
        #expect(throws: ProviderError.self) {
            try OpenWeatherMapAirDecoder().decode(response(401, #"{"cod":401,"message":"Invalid API key"}"#), now: Fixtures.recordedAt)
        }
    }
}
