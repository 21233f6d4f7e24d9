import FoundationEssentials
import IsobarCore
import OpenMeteo
import OpenWeatherMap
import Testing

/// One error exchange of the reference and the code it must give.
struct ErrorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let status: Int
    let body: String
    let headers: [HTTPHeader]
    let code: ProviderError.Code
    /// Text the message must carry (the server's own explanation), when any.
    let mentions: String?

    init(_ name: String, _ status: Int, _ body: String, headers: [HTTPHeader] = [], _ code: ProviderError.Code, mentions: String? = nil) {
        self.name = name
        self.status = status
        self.body = body
        self.headers = headers
        self.code = code
        self.mentions = mentions
    }

    var testDescription: String { name }

    static let openWeatherMap: [ErrorCase] = [
        ErrorCase("401 invalid key", 401,
                  #"{"cod":401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#,
                  .unauthorized, mentions: "Invalid API key"),
        ErrorCase("401 with a string cod", 401, #"{"cod":"401","message":"Invalid API key."}"#, .unauthorized),
        ErrorCase("404 city not found", 404, #"{"cod":"404","message":"city not found"}"#, .notFound, mentions: "city not found"),
        ErrorCase("400 wrong latitude", 400, #"{"cod":"400","message":"wrong latitude"}"#, .badRequest, mentions: "wrong latitude"),
        ErrorCase("400 nothing to geocode", 400, #"{"cod":"400","message":"Nothing to geocode"}"#, .badRequest),
        ErrorCase("429 blocked", 429,
                  #"{"cod":429, "message": "Your account is temporary blocked due to exceeding of requests limitation of your subscription type. Please choose the proper subscription https://openweathermap.org/price"}"#,
                  .rateLimited(retryAfterSeconds: nil), mentions: "temporary blocked"),
        ErrorCase("429 with Retry-After: 30", 429, #"{"cod":429,"message":"slow down"}"#,
                  headers: [HTTPHeader("Retry-After", "30")], .rateLimited(retryAfterSeconds: 30)),
        ErrorCase("500 with an HTML body", 500, "<html><body><h1>500 Internal Server Error</h1></body></html>", .unavailable),
        ErrorCase("502 with an empty body", 502, "", .unavailable),
        ErrorCase("200 whose cod says 404", 200, #"{"cod":"404","message":"city not found"}"#, .notFound, mentions: "city not found"),
        ErrorCase("200 whose cod says 401", 200, #"{"cod":401,"message":"Invalid API key."}"#, .unauthorized),
        ErrorCase("200 with a malformed body", 200,
                  #"{"weather":[{"id":800}],"main":{"temp":"warm"},"dt":1795856400,"cod":200}"#, .badResponse(path: "$.main.temp")),
        ErrorCase("200 with a truncated body", 200, #"{"coord":{"lon":27.5667,"lat":53.9},"weather":[{"id":800,"main":"Cl"#,
                  .badResponse(path: "$")),
    ]

    static let openMeteo: [ErrorCase] = [
        ErrorCase("400 latitude out of range", 400, #"{"error":true,"reason":"Latitude must be in range of -90 to 90°. Given: 91.0."}"#,
                  .badRequest, mentions: "Latitude must be in range of -90 to 90°. Given: 91.0."),
        ErrorCase("400 with reversed key order", 400, #"{"reason":"Invalid timezone","error":true}"#, .badRequest, mentions: "Invalid timezone"),
        ErrorCase("200 with an error body", 200, #"{"error":true,"reason":"No data is available for this location"}"#,
                  .badRequest, mentions: "No data is available for this location"),
        ErrorCase("429 minutely limit", 429,
                  #"{"error":true,"reason":"Minutely API request limit exceeded. Please try again in one minute."}"#,
                  .rateLimited(retryAfterSeconds: nil), mentions: "Minutely API request limit exceeded"),
        ErrorCase("500 with an HTML body", 500, "<html>oops</html>", .unavailable),
        ErrorCase("200 with a truncated body", 200, #"{"latitude":53.875,"longitude":27.5625,"hourly":{"time":["2026-11-28T00:00","#,
                  .badResponse(path: "$")),
        // A series of the wrong length or with a string among its numbers is left out field by field (OpenMeteoWrongTypeTests);
        // only a body whose times cannot be read is an error.
        ErrorCase("200 with times that are not times", 200,
                  #"{"utc_offset_seconds":0,"timezone":"GMT","hourly_units":{"time":"iso8601","temperature_2m":"°C"},"#
                      + #""hourly":{"time":["2026-11-28T00:00",7],"temperature_2m":[1.0,2.0]}}"#,
                  .badResponse(path: "$.hourly.time[1]")),
        ErrorCase("200 with hourly that is not an object", 200,
                  #"{"utc_offset_seconds":0,"timezone":"GMT","hourly_units":{},"hourly":[1.0,"warm"]}"#,
                  .badResponse(path: "$.hourly")),
        ErrorCase("200 without utc_offset_seconds", 200, #"{"timezone":"GMT"}"#, .badResponse(path: "$.utc_offset_seconds")),
    ]
}

@Suite("Error bodies")
struct ErrorBodyTests {
    @Test("OpenWeatherMap error exchanges map to their code", arguments: ErrorCase.openWeatherMap)
    func openWeatherMap(_ exchange: ErrorCase) throws {
        let answer = response(exchange.status, exchange.body, headers: exchange.headers)
        let decoder = OpenWeatherMapDecoder(units: .metric)
        let error = try #require(caught { try decoder.current(answer, now: Fixtures.recordedAt) })
        #expect(error.code == exchange.code)
        if let mentions = exchange.mentions { #expect(error.message.contains(mentions)) }
        // The forecast endpoint reads errors the same way (apart from a malformed current-weather body).
        if case .badResponse = exchange.code { return }
        let forecastError = try #require(caught { try decoder.forecast(answer, now: Fixtures.recordedAt) })
        #expect(forecastError.code == exchange.code)
    }

    @Test("Open-Meteo error exchanges map to their code", arguments: ErrorCase.openMeteo)
    func openMeteo(_ exchange: ErrorCase) throws {
        let answer = response(exchange.status, exchange.body, headers: exchange.headers)
        let error = try #require(caught { try OpenMeteoDecoder().decode(answer, now: Fixtures.recordedAt) })
        #expect(error.code == exchange.code)
        if let mentions = exchange.mentions { #expect(error.message.contains(mentions)) }
    }

    @Test("Retry-After as an HTTP date counts from now", arguments: [
        ("Sat, 28 Nov 2026 09:01:30 GMT", 90.0),
        ("Sat, 28 Nov 2026 09:00:00 GMT", 0.0),
        ("Fri, 27 Nov 2026 09:00:00 GMT", 0.0),  // already past: no waiting, never negative
    ])
    func retryAfterDate(header: String, seconds: Double) throws {
        let answer = response(429, #"{"cod":429,"message":"slow down"}"#, headers: [HTTPHeader("Retry-After", header)])
        let error = try #require(caught { try OpenWeatherMapDecoder(units: .metric).current(answer, now: Fixtures.recordedAt) })
        #expect(error.code == .rateLimited(retryAfterSeconds: seconds))
    }

    @Test("Retry-After that is neither form is ignored")
    func retryAfterGarbage() throws {
        let answer = response(429, #"{"cod":429,"message":"slow down"}"#, headers: [HTTPHeader("retry-after", "soon")])
        let error = try #require(caught { try OpenWeatherMapDecoder(units: .metric).current(answer, now: Fixtures.recordedAt) })
        #expect(error.code == .rateLimited(retryAfterSeconds: nil))
    }

    @Test("the reference's literal malformed body is a bad response with a path")
    func literalMalformedBody() throws {
        let error = try #require(caught {
            try OpenWeatherMapDecoder(units: .metric).current(response(200, #"{"main": {"temp": "warm"}}"#), now: Fixtures.recordedAt)
        })
        guard case .badResponse(let path) = error.code else {
            Issue.record("expected badResponse, got \(error.codeName)")
            return
        }
        // The body is wrong in several places; any of them is a fair answer.
        #expect(["$.dt", "$.main.temp", "$.weather"].contains(path))
        #expect(error.message.contains(path))
    }

    @Test("OpenWeatherMap wrong types name their path", arguments: [
        (#"{"weather":[{"id":"800"}],"main":{"temp":1},"dt":1,"cod":200}"#, "$.weather[0].id"),
        (#"{"weather":{"id":800},"main":{"temp":1},"dt":1,"cod":200}"#, "$.weather"),
        (#"{"weather":[{"id":800}],"main":{"temp":1},"dt":"now","cod":200}"#, "$.dt"),
        (#"{"weather":[{"id":800}],"main":{"temp":1},"dt":1,"cod":"OK"}"#, "$.cod"),
    ])
    func openWeatherMapWrongTypes(body: String, path: String) throws {
        let error = try #require(caught { try OpenWeatherMapDecoder(units: .metric).current(response(200, body), now: Fixtures.recordedAt) })
        #expect(error.code == .badResponse(path: path))
    }

    @Test("an OpenWeatherMap optional value of the wrong type is left out with a warning naming its path", arguments: [
        (#"{"weather":[{"id":800}],"main":{"temp":1},"wind":{"speed":"fast"},"dt":1,"cod":200}"#, "$.wind.speed"),
        (#"{"weather":[{"id":800}],"main":{"temp":1},"visibility":"10 km","dt":1,"cod":200}"#, "$.visibility"),
    ])
    func openWeatherMapWrongTypesLeftOut(body: String, path: String) throws {
        let decoded = try OpenWeatherMapDecoder(units: .metric).current(response(200, body), now: Fixtures.recordedAt)
        #expect(decoded.warnings.map(\.path) == [path])
        #expect(decoded.sample.temperatureC == 1)
    }

    @Test("a forecast item of the wrong type names its index")
    func forecastItemPath() throws {
        let body = #"{"cod":"200","list":[{"dt":1,"main":{"temp":1},"weather":[]},{"dt":2,"main":{"temp":"x"},"weather":[]}]}"#
        let error = try #require(caught { try OpenWeatherMapDecoder(units: .metric).forecast(response(200, body), now: Fixtures.recordedAt) })
        #expect(error.code == .badResponse(path: "$.list[1].main.temp"))
    }

    @Test("a real cassette body cut in half is a bad response at $", arguments: [
        ("openweathermap", "london", "/data/2.5/weather"), ("openweathermap", "tokyo", "/data/2.5/forecast"),
        ("open-meteo", "sao-paulo", "/v1/forecast"), ("open-meteo", "minsk", "/v1/forecast"),
    ])
    func truncatedCassetteBody(provider: String, slug: String, path: String) throws {
        let whole = Array(try Fixtures.bodyText(provider, slug, urlContaining: path).utf8)
        let half = HTTPResponse(status: 200, headers: [], body: Array(whole.prefix(whole.count / 2)))
        let error: ProviderError? = switch (provider, path) {
        case ("openweathermap", "/data/2.5/weather"): caught { try OpenWeatherMapDecoder(units: .metric).current(half, now: Fixtures.recordedAt) }
        case ("openweathermap", _): caught { try OpenWeatherMapDecoder(units: .metric).forecast(half, now: Fixtures.recordedAt) }
        default: caught { try OpenMeteoDecoder().decode(half, now: Fixtures.recordedAt) }
        }
        let found = try #require(error)
        #expect(found.code == .badResponse(path: "$"))
        // The whole body is fine, so the cut is what fails.
        let full = HTTPResponse(status: 200, headers: [], body: whole)
        let wholeError: ProviderError? = switch (provider, path) {
        case ("openweathermap", "/data/2.5/weather"): caught { try OpenWeatherMapDecoder(units: .metric).current(full, now: Fixtures.recordedAt) }
        case ("openweathermap", _): caught { try OpenWeatherMapDecoder(units: .metric).forecast(full, now: Fixtures.recordedAt) }
        default: caught { try OpenMeteoDecoder().decode(full, now: Fixtures.recordedAt) }
        }
        #expect(wholeError == nil)
    }
}
