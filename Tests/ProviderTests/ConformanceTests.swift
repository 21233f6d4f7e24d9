import FixtureReplay
import FoundationEssentials
import IsobarCore
import IsobarConformance
import IsobarTestKit
import OpenMeteo
import OpenWeatherMap
import Testing

/// A provider that fetches through the transport like a real adapter, then reports whatever it was built with.
private struct FakeProvider: WeatherProvider {
    var id = "fake"
    var displayName = "Fake"
    var capabilities = ProviderCapabilities(kinds: [.current, .hourly], horizonDays: 1, stepHours: 1,
                                            quantities: Set(Quantity.allCases), requiresAPIKey: false, geocoding: false)
    var current: WeatherSample
    var hourly: [WeatherSample]
    var errorMessage = "Fake is unavailable"
    var errorCode = ProviderError.Code.unavailable

    func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        let answer = try await context.transport.send(HTTPRequest(url: RequestURL(string: "https://fake.example/weather")!))
        guard answer.status == 200 else { throw ProviderError(errorCode, errorMessage) }
        return WeatherReport(providerID: id, place: request.place, fetchedAt: Fixtures.recordedAt, current: current, hourly: hourly)
    }
}

/// A plausible sample an hour apart from the recording time.
private func sample(hour: Int, humidity: Double = 80) -> WeatherSample {
    var sample = WeatherSample(time: Fixtures.recordedAt.addingTimeInterval(Double(hour) * 3600), periodHours: 1)
    sample.temperatureC = 5
    sample.humidityPercent = humidity
    sample.windSpeedMS = 3
    sample.pressureHPa = 1012
    return sample
}

private let place = Fixtures.places[1].place
private let okTransport = StubTransport(status: 200, body: "{}")

@Suite("Conformance")
struct ConformanceTests {
    @Test("Open-Meteo replaying each bundled place conforms", arguments: Fixtures.places)
    func openMeteo(_ fixture: BundledPlace) async throws {
        let transport = ReplayTransport(library: try CassetteLibrary(directory: Fixtures.cassetteDirectory("open-meteo")))
        let violations = await ProviderConformance.check(OpenMeteoProvider(), place: fixture.place, transport: transport)
        #expect(violations.isEmpty, "\(violations)")
        #expect(transport.latestRecordedAt == Fixtures.recordedAt)
    }

    @Test("OpenWeatherMap replaying each bundled place conforms", arguments: Fixtures.places)
    func openWeatherMap(_ fixture: BundledPlace) async throws {
        let transport = ReplayTransport(library: try CassetteLibrary(directory: Fixtures.cassetteDirectory("openweathermap")))
        let adapter = OpenWeatherMapProvider(configuration: .init(apiKey: Fixtures.sentinelKey))
        let violations = await ProviderConformance.check(adapter, place: fixture.place, transport: transport, secret: Fixtures.sentinelKey)
        #expect(violations.isEmpty, "\(violations)")
        #expect(transport.latestRecordedAt == Fixtures.recordedAt)
    }

    @Test("a well-behaved fake conforms, so the failures below are the fault of what was broken")
    func wellBehavedFake() async {
        let fake = FakeProvider(current: sample(hour: 0), hourly: [sample(hour: 1), sample(hour: 2)])
        #expect(await ProviderConformance.check(fake, place: place, transport: okTransport).isEmpty)
    }

    @Test("the fetches are given the deadline, on the clock given")
    func deadline() async throws {
        let fake = FakeProvider(current: sample(hour: 0), hourly: [sample(hour: 1), sample(hour: 2)])
        let clock = ManualClock()
        let transport = StubTransport(status: 200, body: "{}")
        let before = Date()
        #expect(await ProviderConformance.check(fake, place: place, transport: transport, deadline: clock.now().addingTimeInterval(60),
                                                time: clock).isEmpty)
        let after = Date()
        // The deadline reaches the transport as the instant on the system clock no request may outlast: 60 s after the send.
        let notAfter = try #require(transport.requests.first?.notAfter)
        #expect(notAfter >= before.addingTimeInterval(60) && notAfter <= after.addingTimeInterval(60))

        let late = StubTransport(status: 200, body: "{}")
        let violations = await ProviderConformance.check(fake, place: place, transport: late, deadline: clock.now(), time: clock)
        #expect(violations.map(\.rule) == [ProviderConformance.fetchRule])
        #expect(violations.first?.detail == "fake.example: no time left before the deadline")
        #expect(late.requests.isEmpty)
    }

    @Test("an HTTP 500 taken for another error is a violation naming that error")
    func serverErrorMappedWrongly() async {
        var fake = FakeProvider(current: sample(hour: 0), hourly: [sample(hour: 1), sample(hour: 2)])
        fake.errorCode = .badRequest
        fake.errorMessage = "Fake refused the request"
        let violations = await ProviderConformance.check(fake, place: place, transport: okTransport)
        #expect(violations.map(\.rule) == [ProviderConformance.http500Rule])
        #expect(violations.first?.detail == "bad_request: Fake refused the request")
    }

    @Test("humidity of 150 % is a violation")
    func humidityOutOfRange() async {
        let fake = FakeProvider(current: sample(hour: 0), hourly: [sample(hour: 1), sample(hour: 2, humidity: 150)])
        let violations = await ProviderConformance.check(fake, place: place, transport: okTransport)
        #expect(violations.count == 1)
        #expect(violations.first?.rule == "humidity in 0…100 %")
        #expect(violations.first?.detail.contains("150") == true)
    }

    @Test("steps out of order are a violation")
    func outOfOrder() async {
        let fake = FakeProvider(current: sample(hour: 0), hourly: [sample(hour: 2), sample(hour: 1)])
        let violations = await ProviderConformance.check(fake, place: place, transport: okTransport)
        #expect(violations.map(\.rule) == ["steps in strictly increasing time order"])
    }

    @Test("a declared kind left empty, and a bad id, are violations")
    func missingKindAndBadID() async {
        var fake = FakeProvider(current: sample(hour: 0), hourly: [])
        fake.id = "Fake Provider"
        let rules = await ProviderConformance.check(fake, place: place, transport: okTransport).map(\.rule)
        #expect(rules.contains("declared steps are given"))
        #expect(rules.contains("id is lower-case without spaces"))
    }

    @Test("declared days may come from steps, but not from nothing")
    func daysFromSteps() async {
        var fake = FakeProvider(current: sample(hour: 0), hourly: [sample(hour: 1)])
        fake.capabilities.kinds = [.current, .hourly, .daily]
        #expect(!(await ProviderConformance.check(fake, place: place, transport: okTransport).map(\.rule)).contains("declared days are given"))
        fake.hourly = []
        fake.capabilities.kinds = [.current, .daily]
        #expect((await ProviderConformance.check(fake, place: place, transport: okTransport).map(\.rule)).contains("declared days are given"))
    }

    @Test("every rule broken is one of the rules listed")
    func rulesAreListed() async {
        var fake = FakeProvider(current: sample(hour: 0), hourly: [])
        fake.id = "Fake Provider"
        fake.capabilities.kinds = [.current, .hourly, .daily]
        let broken = await ProviderConformance.check(fake, place: place, transport: okTransport).map(\.rule)
        #expect(broken.count >= 3)
        #expect(broken.allSatisfy(ProviderConformance.rules.contains))
    }

    @Test("a quantity filled but not declared is a violation")
    func undeclaredQuantity() async {
        var fake = FakeProvider(current: sample(hour: 0), hourly: [sample(hour: 1)])
        fake.capabilities.quantities = [.temperature]
        let violations = await ProviderConformance.check(fake, place: place, transport: okTransport)
        #expect(violations.map(\.rule) == ["fills only the quantities it declares"])
        #expect(violations.first?.detail == "humidity, pressure, wind_speed")
    }

    @Test("an error that carries the key is a violation")
    func leakingError() async {
        var fake = FakeProvider(current: sample(hour: 0), hourly: [sample(hour: 1)])
        fake.errorMessage = "failed for key \(Fixtures.sentinelKey)"
        let violations = await ProviderConformance.check(fake, place: place, transport: okTransport, secret: Fixtures.sentinelKey)
        #expect(violations.map(\.rule) == ["errors never carry the key"])
    }

    @Test("a fetch that fails on the recorded answer is a violation")
    func failingFetch() async {
        let fake = FakeProvider(current: sample(hour: 0), hourly: [sample(hour: 1)])
        let violations = await ProviderConformance.check(fake, place: place, transport: StubTransport(status: 503, body: ""))
        #expect(violations.map(\.rule) == ["fetch succeeds on a recorded answer"])
    }
}
