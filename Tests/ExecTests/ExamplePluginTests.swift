import Exec
import FixtureReplay
import Foundation
import IsobarCore
import IsobarTestKit
import Testing

/// The plug-ins kept in Providers/examples, driven through the exec protocol against recorded answers.
@Suite(.serialized) struct ExamplePluginTests {
    let newYork = Place(name: "New York", countryCode: "US", coordinate: Coordinate(latitude: 40.7143, longitude: -74.006)!,
                        utcOffsetSeconds: -18_000, timeZoneIdentifier: "America/New_York")

    func nws() async throws -> any WeatherProvider {
        try await makeProvider([python, packageRoot + "/Providers/examples/nws/nws.py"], id: "nws")
    }

    @Test func nwsLooksUpThePointThenDecodesTheHourlyForecastInSI() async throws {
        let library = try CassetteLibrary(directory: packageRoot + "/config/cassettes/nws")
        let provider = FixtureReplayProvider(base: try await nws(), library: library)
        #expect(provider.displayName == "National Weather Service (US)")
        let report = try await fetch(provider, WeatherRequest(place: newYork, kinds: [.hourly]), transport: StubTransport())
        #expect(report.source == .replay(recordedAt: Date(timeIntervalSince1970: 1_795_856_400)))
        #expect(report.timeZoneIdentifier == "America/New_York")
        #expect(report.utcOffsetSeconds == -18_000)
        #expect(report.hourly.count == 48)
        let first = try #require(report.hourly.first)
        // The first period is 04:00–05:00 EST: its end is 10:00 UTC.
        #expect(first.time == Date(timeIntervalSince1970: 1_795_856_400 + 3_600))
        let periods = try hourlyPeriods()
        let fahrenheit = try periods[0].double("temperature")
        #expect(abs(try #require(first.temperatureC) - (fahrenheit - 32) * 5 / 9) < 0.01)
        #expect(try periods[0].string("windSpeed") == "4 to 9 mph")
        #expect(abs(try #require(first.windSpeedMS) - 6.5 * 0.44704) < 0.01)
        #expect(try periods[1].string("windDirection") == "ENE")
        #expect(report.hourly[1].windDirectionDeg == 67.5)
        #expect(first.humidityPercent == (try periods[0].member("relativeHumidity").double("value")))
        #expect(first.precipitationProbabilityPercent == 5)
        #expect(first.condition == .cloudy)
        #expect(report.hourly.first { $0.precipitationProbabilityPercent == 80 }?.condition == .rain)
        #expect(report.hourly.contains { $0.condition == .rainAndSnow })
        #expect(first.isDay == false)
    }

    @Test func nwsSendsItsUserAgentThroughTheHost() async throws {
        let library = try CassetteLibrary(directory: packageRoot + "/config/cassettes/nws")
        let recorder = RecordingHeaders(base: ReplayTransport(library: library))
        _ = try await fetch(nws(), WeatherRequest(place: newYork, kinds: [.hourly]), transport: recorder)
        let asked = recorder.requests
        #expect(asked.map(\.url.path) == ["/points/40.7143,-74.006", "/gridpoints/OKX/33,35/forecast/hourly"])
        #expect(asked.allSatisfy { request in request.headers.contains { $0.name == "User-Agent" && $0.value.contains("isobar-nws-plugin") } })
    }

    @Test func nwsOutsideTheUnitedStatesIsNotFound() async throws {
        // Inside the declared box but answered 404, as NWS does for points it does not cover.
        let ocean = Place(name: "Sea", coordinate: Coordinate(latitude: 30, longitude: -70)!)
        let provider = try await nws()
        let error = try #require(await failure(of: provider, place: ocean, transport: StubTransport(status: 404, body: Array("{}".utf8))))
        #expect(error.code == .notFound)
        #expect(error.message.contains("United States only"))
    }

    @Test func nwsOwnTestsPass() async throws {
        // Waited for on a thread of its own, so that no pool thread every in-process test shares is held meanwhile.
        let (status, log) = try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try runNWSTests() }) }.start()
        }
        #expect(status == 0, "\(log)")
    }

    /// The NWS example's own unit tests, run with the test suite's Python: its exit status and what it wrote to stderr.
    private func runNWSTests() throws -> (Int32, String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, "-m", "unittest", "-q", "test_nws"]
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot + "/Providers/examples/nws")
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, log)
    }

    @Test func theShellExampleDecodesOpenMeteoCurrentConditions() async throws {
        let cassette = try JSONDocument(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/config/cassettes/open-meteo/minsk.json")))).rootValue
        let body = try cassette.member("interactions").elements()[0].member("response").string("body")
        let stub = StubTransport(body: Array(body.utf8))
        let provider = try await makeProvider([packageRoot + "/Providers/examples/shell/isobar-provider-open-meteo-sh"], id: "open-meteo-sh")
        let report = try await fetch(provider, WeatherRequest(place: minsk, kinds: [.current]), transport: stub)
        let current = try JSONDocument(parsing: body).rootValue.member("current")
        #expect(report.current?.temperatureC == (try current.double("temperature_2m")))
        #expect(report.current?.humidityPercent == (try current.double("relative_humidity_2m")))
        let asked = try #require(stub.requests.first)
        #expect(asked.url.host == "api.open-meteo.com")
        #expect(asked.url.query.contains(QueryItem("latitude", "53.9")))
    }

    func hourlyPeriods() throws -> [JSONValue] {
        let cassette = try JSONDocument(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/config/cassettes/nws/new-york.json")))).rootValue
        let body = try cassette.member("interactions").elements()[1].member("response").string("body")
        return try JSONDocument(parsing: body).rootValue.member("properties").member("periods").elements()
    }
}

/// Passes requests on, keeping them.
final class RecordingHeaders: Transport, @unchecked Sendable {
    let base: any Transport
    private let lock = NSLock()
    private var asked: [HTTPRequest] = []
    init(base: any Transport) { self.base = base }
    var requests: [HTTPRequest] { lock.withLock { asked } }
    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        lock.withLock { asked.append(request) }
        return try await base.send(request)
    }
}
