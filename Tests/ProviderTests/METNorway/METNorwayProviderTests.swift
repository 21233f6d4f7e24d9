import FoundationEssentials
import IsobarCore
import IsobarTestKit
import METNorway
import Testing

@Suite("MET Norway: the terms of use and the request")
struct METNorwayProviderTests {
    let minsk = Place(name: "Minsk", coordinate: Coordinate(latitude: 53.900_061_2, longitude: 27.566_672_9)!)
    let factory = METNorwayProvider.factory(application: "isobar/9.9")

    func make(contact: String? = nil, environment: [String: String] = [:], replay: Bool = false) async throws(ProviderError)
        -> any WeatherProvider {
        let settings = ProviderSettings(id: "met-norway", type: "met-norway", isReplay: replay, options: ProviderOptions(ContactOptions(contact: contact)))
        return try await factory.make(ProviderContext(settings: settings, environment: environment, transport: StubTransport { _ in response(500, "") }))
    }

    @Test("without a contact it refuses to go live, naming what to set, and sends nothing")
    func contactRequired() async throws {
        let stub = StubTransport { _ in response(200, METNorwayBody.minsk) }
        for contact in [nil, "   "] {
            let provider = try await make(contact: contact)
            let error = await caughtAsync { try await provider.fetch(WeatherRequest(place: minsk), transport: stub) }
            #expect(error?.code == .notConfigured)
            #expect(error?.message.contains("\"contact\"") == true)
            #expect(error?.message.contains("ISOBAR_CONTACT") == true)
        }
        #expect(stub.requests.isEmpty)
        let replayed = try await make(replay: true)
        #expect(try await replayed.fetch(WeatherRequest(place: minsk), transport: stub).hourly.count == 4)
    }

    @Test("a contact from the entry, or from ISOBAR_CONTACT; none needed to replay")
    func contactSources() async throws {
        let fromEntry = try #require(try await make(contact: "ops@example.org") as? METNorwayProvider)
        #expect(fromEntry.userAgent == "isobar/9.9 ops@example.org")
        let fromEnvironment = try #require(try await make(environment: ["ISOBAR_CONTACT": "https://example.org/contact"]) as? METNorwayProvider)
        #expect(fromEnvironment.userAgent == "isobar/9.9 https://example.org/contact")
    }

    @Test("coordinates at most 4 decimals, the User-Agent with the contact, the compact product")
    func request() {
        let provider = METNorwayProvider(contact: "ops@example.org", application: "isobar/9.9")
        let request = provider.request(for: WeatherRequest(place: minsk))
        #expect(request.url.string == "https://api.met.no/weatherapi/locationforecast/2.0/compact?lat=53.9001&lon=27.5667")
        #expect(request.headers == [HTTPHeader("User-Agent", "isobar/9.9 ops@example.org")])
    }

    @Test("a 203 answer is used, with a notice that the product is deprecated; the step of this hour is the current one")
    func deprecatedAndCurrent() async throws {
        let stub = StubTransport { _ in response(203, METNorwayBody.minsk) }
        let provider = METNorwayProvider(contact: "ops@example.org")
        let now = try #require(CivilTime.instant(iso: "2026-11-28T10:20:00Z"))
        let report = try await provider.fetch(WeatherRequest(place: minsk), context: FetchContext(transport: stub, time: FixedTime(now)))
        #expect(report.notices.count == 1)
        #expect(report.notices.first?.contains("deprecated") == true)
        #expect(report.current?.temperatureC == -1.1)
        #expect(report.hourly.count == 4)
        let later = try #require(CivilTime.instant(iso: "2026-11-28T13:00:00Z"))
        let sixHourly = try await provider.fetch(WeatherRequest(place: minsk), context: FetchContext(transport: stub, time: FixedTime(later)))
        #expect(sixHourly.current?.temperatureC == -0.6, "a 6-hour step covers 13:00")
    }

    @Test("the server's Date decides the current step (a replay's is the recording's), not the reader's clock")
    func currentFromDateHeader() async throws {
        let dated = StubTransport { _ in response(200, METNorwayBody.minsk, headers: [HTTPHeader("Date", "Sat, 28 Nov 2026 09:30:00 GMT")]) }
        let provider = METNorwayProvider(contact: "ops@example.org")
        let days = try #require(CivilTime.instant(iso: "2026-11-30T15:00:00Z"))
        let report = try await provider.fetch(WeatherRequest(place: minsk), context: FetchContext(transport: dated, time: FixedTime(days)))
        #expect(report.current?.temperatureC == -1.5)
    }
}

/// A clock that always reads one instant.
private struct FixedTime: TimeSource {
    let instant: Date
    init(_ instant: Date) { self.instant = instant }
    func now() -> Date { instant }
    func sleep(seconds: Double) async throws {}
}
