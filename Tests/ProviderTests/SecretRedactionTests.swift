import FixtureReplay
import FoundationEssentials
import IsobarCore
import IsobarTestKit
import OpenMeteo
import OpenWeatherMap
import Testing

private let key = Fixtures.sentinelKey
private let minsk = Fixtures.places[1].place

/// Every OpenWeatherMap error exchange, plus the Retry-After date form.
private let openWeatherMapCases = ErrorCase.openWeatherMap + [
    ErrorCase("429 with an HTTP-date Retry-After", 429, #"{"cod":429,"message":"slow down"}"#,
              headers: [HTTPHeader("Retry-After", "Sat, 28 Nov 2026 09:01:30 GMT")], .rateLimited(retryAfterSeconds: nil)),
]

@Suite("Secrets")
struct SecretRedactionTests {
    @Test("OpenWeatherMap errors and redacted URLs never carry the key", arguments: openWeatherMapCases)
    func openWeatherMap(_ exchange: ErrorCase) async throws {
        let stub = StubTransport(status: exchange.status, body: exchange.body, headers: exchange.headers)
        let provider = OpenWeatherMapProvider(configuration: .init(apiKey: key))
        let error = try #require(await caughtAsync { try await provider.fetch(WeatherRequest(place: minsk), transport: stub) })
        if case .rateLimited = exchange.code {
            guard case .rateLimited = error.code else { Issue.record("expected rateLimited, got \(error.codeName)"); return }
        } else {
            #expect(error.code == exchange.code)
        }
        #expect(!error.message.contains(key))
        #expect(!error.description.contains(key))
        #expect(stub.requests.count == 2)
        for request in stub.requests {
            #expect(request.url.string.contains(key), "the key is sent")
            #expect(!request.redactedURL.contains(key))
        }
    }

    @Test("Open-Meteo errors and redacted URLs never carry a commercial key", arguments: ErrorCase.openMeteo)
    func openMeteo(_ exchange: ErrorCase) async throws {
        let stub = StubTransport(status: exchange.status, body: exchange.body, headers: exchange.headers)
        let provider = OpenMeteoProvider(configuration: .init(apiKey: key))
        let error = try #require(await caughtAsync { try await provider.fetch(WeatherRequest(place: minsk), transport: stub) })
        #expect(error.code == exchange.code)
        #expect(!error.message.contains(key))
        #expect(stub.requests.count == 1)
        for request in stub.requests {
            #expect(request.url.string.contains(key), "the key is sent")
            #expect(!request.redactedURL.contains(key))
        }
    }

    @Test("a transport failure does not leak the key")
    func transportFailure() async throws {
        let stub = StubTransport { request throws(ProviderError) in
            throw ProviderError(.timeout, "no answer from \(request.redactedURL)")
        }
        let provider = OpenWeatherMapProvider(configuration: .init(apiKey: key))
        let error = try #require(await caughtAsync { try await provider.fetch(WeatherRequest(place: minsk), transport: stub) })
        #expect(error.code == .timeout)
        #expect(!error.message.contains(key))
    }

    @Test("an unmatched replay does not leak the key")
    func unmatchedReplay() async throws {
        let nowhere = Place(name: "Nowhere", coordinate: Coordinate(latitude: 1, longitude: 1)!)
        let provider = FixtureReplayProvider(base: OpenWeatherMapProvider(configuration: .init(apiKey: key)),
                                             library: try CassetteLibrary(directory: Fixtures.cassetteDirectory("openweathermap")))
        let error = try #require(await caughtAsync { try await provider.fetch(WeatherRequest(place: nowhere), transport: StubTransport(status: 500, body: "")) })
        #expect(error.code == .unavailable)
        #expect(!error.message.contains(key))
        #expect(!error.message.contains("appid"))
    }

    @Test("a server that echoes the key back does not get it into the message", arguments: [401, 400, 200])
    func echoedKey(status: Int) async throws {
        let body = #"{"cod":"\#(status == 200 ? 404 : status)","message":"Invalid API key \#(key) for /data/2.5/weather?appid=\#(key)"}"#
        let stub = StubTransport(status: status, body: body)
        let provider = OpenWeatherMapProvider(configuration: .init(apiKey: key))
        let error = try #require(await caughtAsync { try await provider.fetch(WeatherRequest(place: minsk), transport: stub) })
        #expect(!error.message.contains(key), "\(error.message)")
    }
}
