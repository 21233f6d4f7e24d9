import FoundationEssentials
import IsobarCore
import IsobarTestKit
import OpenMeteo
import OpenWeatherMap
import Testing

private let minsk = Place(name: "Minsk", countryCode: "BY", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!)

/// The value of the single query parameter `name`.
private func value(_ url: RequestURL, _ name: String) -> String? {
    let values = url.query.filter { $0.name == name }.map(\.value)
    #expect(values.count <= 1, "\(name) sent \(values.count) times")
    return values.first
}

/// Sends a fetch through a stub that answers 503, and returns what was sent.
private func captured(_ provider: some WeatherProvider, _ request: WeatherRequest) async -> [HTTPRequest] {
    let stub = StubTransport(status: 503, body: "")
    _ = await caughtAsync { try await provider.fetch(request, transport: stub) }
    return stub.requests.sorted { $0.url.path < $1.url.path }
}

@Suite("Provider requests")
struct ProviderRequestTests {
    @Test("OpenWeatherMap asks /data/2.5/weather and /data/2.5/forecast with lat, lon, units and appid")
    func openWeatherMapURLs() async throws {
        let provider = OpenWeatherMapProvider(configuration: .init(apiKey: "abc123"))
        let sent = await captured(provider, WeatherRequest(place: minsk))
        #expect(sent.map(\.url.path) == ["/data/2.5/forecast", "/data/2.5/weather"])
        for request in sent {
            #expect(request.method == "GET")
            #expect(request.url.scheme == "https")
            #expect(request.url.host == "api.openweathermap.org")
            #expect(Set(request.url.query.map(\.name)) == ["lat", "lon", "units", "appid"])
            #expect(value(request.url, "lat") == "53.9")
            #expect(value(request.url, "lon") == "27.5667")
            #expect(value(request.url, "units") == "metric")
            #expect(value(request.url, "appid") == "abc123")
        }
        #expect(sent.first { $0.url.path == "/data/2.5/weather" }?.url.string
            == "https://api.openweathermap.org/data/2.5/weather?lat=53.9&lon=27.5667&units=metric&appid=abc123")
    }

    @Test("OpenWeatherMap current-only requests skip the forecast")
    func openWeatherMapCurrentOnly() async {
        let sent = await captured(OpenWeatherMapProvider(configuration: .init(apiKey: "abc123")),
                                  WeatherRequest(place: minsk, kinds: [.current]))
        #expect(sent.map(\.url.path) == ["/data/2.5/weather"])
    }

    @Test("OpenWeatherMap sends the configured units", arguments: OpenWeatherMapProvider.RequestUnits.allCases)
    func openWeatherMapUnits(units: OpenWeatherMapProvider.RequestUnits) async {
        let provider = OpenWeatherMapProvider(configuration: .init(apiKey: "k", requestUnits: units))
        let sent = await captured(provider, WeatherRequest(place: minsk))
        #expect(sent.count == 2)
        #expect(sent.allSatisfy { value($0.url, "units") == units.rawValue })
    }

    @Test("coordinates are rounded to 4 decimals", arguments: [
        (53.900049, 27.566651, "53.9", "27.5667"),
        (-23.547549, -46.636149, "-23.5475", "-46.6361"),
        (51.50854, -0.12574, "51.5085", "-0.1257"),
        (0.00004, -0.00004, "0", "0"),
        (89.99999, 179.99996, "90", "180"),
    ])
    func rounding(latitude: Double, longitude: Double, lat: String, lon: String) async throws {
        let place = Place(name: "P", coordinate: try #require(Coordinate(latitude: latitude, longitude: longitude)))
        let owm = await captured(OpenWeatherMapProvider(configuration: .init(apiKey: "k")), WeatherRequest(place: place))
        #expect(owm.allSatisfy { value($0.url, "lat") == lat && value($0.url, "lon") == lon })
        let om = await captured(OpenMeteoProvider(), WeatherRequest(place: place))
        #expect(om.count == 1)
        #expect(om.allSatisfy { value($0.url, "latitude") == lat && value($0.url, "longitude") == lon })
    }

    @Test("Open-Meteo sends one request with timezone=auto, forecast_days=16 and comma lists")
    func openMeteoURL() async throws {
        let sent = await captured(OpenMeteoProvider(), WeatherRequest(place: minsk))
        let request = try #require(sent.first)
        #expect(sent.count == 1)
        #expect(request.url.host == "api.open-meteo.com")
        #expect(request.url.path == "/v1/forecast")
        #expect(value(request.url, "latitude") == "53.9")
        #expect(value(request.url, "longitude") == "27.5667")
        #expect(value(request.url, "timezone") == "auto")
        #expect(value(request.url, "forecast_days") == "16")
        #expect(value(request.url, "apikey") == nil)
        let hourly = try #require(value(request.url, "hourly")).split(separator: ",").map(String.init)
        #expect(hourly.contains("temperature_2m"))
        #expect(hourly.contains("wind_speed_10m"))
        #expect(hourly.contains("weather_code"))
        #expect(hourly.contains("precipitation_probability"))
        let daily = try #require(value(request.url, "daily")).split(separator: ",").map(String.init)
        #expect(daily.contains("temperature_2m_max"))
        #expect(daily.contains("sunrise"))
        #expect(try #require(value(request.url, "current")).split(separator: ",").contains("temperature_2m"))
        // Commas stay literal in the URL text; nothing else needs escaping.
        #expect(request.url.string.contains("&hourly=temperature_2m,relative_humidity_2m,"))
        #expect(!request.url.string.contains("%2C"))
        #expect(request.url.string.contains("timezone=auto"))
    }

    @Test("Open-Meteo's forecast days are clamped to 1…16", arguments: [(0, "1"), (7, "7"), (16, "16"), (40, "16")])
    func openMeteoDays(days: Int, sent: String) async throws {
        let requests = await captured(OpenMeteoProvider(configuration: .init(forecastDays: days)), WeatherRequest(place: minsk))
        #expect(value(try #require(requests.first).url, "forecast_days") == sent)
    }

    @Test("a base URL with a path prefix is honoured", arguments: ["http://127.0.0.1:8080/mirror", "http://127.0.0.1:8080/mirror/"])
    func basePathPrefix(base: String) async throws {
        let url = try #require(RequestURL(string: base))
        let owm = await captured(OpenWeatherMapProvider(configuration: .init(baseURL: url, apiKey: "k")), WeatherRequest(place: minsk))
        #expect(owm.map(\.url.path) == ["/mirror/data/2.5/forecast", "/mirror/data/2.5/weather"])
        #expect(owm.allSatisfy { $0.url.string.hasPrefix("http://127.0.0.1:8080/mirror/data/2.5/") })
        let om = await captured(OpenMeteoProvider(configuration: .init(baseURL: url)), WeatherRequest(place: minsk))
        #expect(om.map(\.url.path) == ["/mirror/v1/forecast"])
        #expect(om.first?.url.string.hasPrefix("http://127.0.0.1:8080/mirror/v1/forecast?latitude=53.9&") == true)
    }

    @Test("redacted URLs never contain the key")
    func redaction() async throws {
        let key = Fixtures.sentinelKey
        let owm = await captured(OpenWeatherMapProvider(configuration: .init(apiKey: key)), WeatherRequest(place: minsk))
        let om = await captured(OpenMeteoProvider(configuration: .init(apiKey: key)), WeatherRequest(place: minsk))
        #expect(owm.count == 2 && om.count == 1)
        for request in owm + om {
            #expect(request.url.string.contains(key), "the key is sent")
            #expect(!request.redactedURL.contains(key))
            #expect(!request.redactedURL.contains("appid") && !request.redactedURL.contains("apikey"))
            #expect(request.redactedURL.contains("/"))
        }
        #expect(owm.first { $0.url.path == "/data/2.5/weather" }?.redactedURL
            == "https://api.openweathermap.org/data/2.5/weather?lat=53.9&lon=27.5667&units=metric")
    }

    @Test("a key with reserved characters is encoded when sent and still redacted")
    func awkwardKey() async throws {
        let key = "k&y=1 2/ä"
        let sent = await captured(OpenWeatherMapProvider(configuration: .init(apiKey: key)), WeatherRequest(place: minsk))
        let request = try #require(sent.first)
        #expect(request.url.string.hasSuffix("&appid=k%26y%3D1%202%2F%C3%A4"))
        #expect(RequestURL(string: request.url.string).flatMap { value($0, "appid") } == key)
        #expect(!request.redactedURL.contains("appid"))
    }

    @Test("OpenWeatherMap without a key is not configured, names the variable, and sends nothing", arguments: [nil, ""] as [String?])
    func openWeatherMapWithoutKey(key: String?) async throws {
        let stub = StubTransport(status: 200, body: "{}")
        let provider = OpenWeatherMapProvider(configuration: .init(apiKey: key))
        let error = try #require(await caughtAsync { try await provider.fetch(WeatherRequest(place: minsk), transport: stub) })
        #expect(error.code == .notConfigured)
        #expect(error.message.contains("OPENWEATHERMAP_API_KEY"))
        #expect(stub.requests.isEmpty)
        let custom = OpenWeatherMapProvider(configuration: .init(apiKey: key, apiKeySource: "ISOBAR_OWM_KEY"))
        let customError = try #require(await caughtAsync { try await custom.fetch(WeatherRequest(place: minsk), transport: stub) })
        #expect(customError.message.contains("ISOBAR_OWM_KEY"))
        #expect(stub.requests.isEmpty)
    }
}

@Suite("Request URL encoding")
struct RequestURLEncodingTests {
    @Test("spaces, &, =, + and non-ASCII are percent-encoded", arguments: [
        ("São Paulo", "S%C3%A3o%20Paulo"),
        ("Q&A=yes", "Q%26A%3Dyes"),
        ("1+1", "1%2B1"),
        ("a,b,c", "a,b,c"),
        ("50%", "50%25"),
        ("東京", "%E6%9D%B1%E4%BA%AC"),
        ("safe-._~", "safe-._~"),
    ])
    func encoding(raw: String, encoded: String) throws {
        let base = try #require(RequestURL(string: "https://geo.example.org"))
        let url = base.appending(path: "/v1/search", query: [QueryItem("name", raw), QueryItem("count", "5")])
        #expect(url.string == "https://geo.example.org/v1/search?name=\(encoded)&count=5")
        let parsed = try #require(RequestURL(string: url.string))
        #expect(parsed.query == [QueryItem("name", raw), QueryItem("count", "5")])
        #expect(parsed == url)
    }

    @Test("a plus in a parsed query is a space; %2B is a plus")
    func plusDecoding() throws {
        let url = try #require(RequestURL(string: "https://x.example/p?q=S%C3%A3o+Paulo&r=1%2B1"))
        #expect(url.query == [QueryItem("q", "São Paulo"), QueryItem("r", "1+1")])
    }

    @Test("only absolute http(s) URLs parse", arguments: ["ftp://x.example/", "x.example/path", "https://", "https://user@x.example/", "http://x.example:0/"])
    func rejected(text: String) {
        #expect(RequestURL(string: text) == nil)
    }
}
