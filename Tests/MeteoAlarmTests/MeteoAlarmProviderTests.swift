import FoundationEssentials
import IsobarConformance
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import MeteoAlarm
import Testing

/// The MeteoAlarm adapter on the London recording: its requests (the country's Atom feed, then each CAP file), how it
/// places a country's warnings at a place, its note on those it cannot place, its errors and its terms.
@Suite("MeteoAlarm")
struct MeteoAlarmProviderTests {
    typealias Fixture = MeteoAlarmFixture

    static let unplacedNote = "2 warnings in force in the United Kingdom could not be placed at London, so they are not shown: no "
        + "polygon of theirs holds London and no area code of theirs is configured for it; to place them, list London's area codes under "
        + "\"areas\" in this source's entry (e.g. \"areas\": {\"London\": [\"CODE\"]}); their areas: Strathclyde (EMMA_ID:UK105); "
        + "Grampian (EMMA_ID:UK103); Orkney & Shetland (EMMA_ID:UK101)"

    @Test func itAsksForTheCountryFeedThenEachCAPFileOverRealHTTP() async throws {
        let bodies = try Fixture.recording()
        let server = try LoopbackServer { request in
            bodies[request.path].map { .init($0, headers: [("Content-Type", "application/xml; charset=utf-8")]) } ?? .init(status: 404, "none")
        }
        defer { server.stop() }
        let provider = Fixture.provider(baseURL: server.baseURL)
        let report = try await provider.fetch(Fixture.request, context: Fixture.context(CurlTransport(userAgent: "isobar/other")))
        let paths = server.requests.map(\.path)
        #expect(paths.first == "/feeds/meteoalarm-legacy-atom-united-kingdom")
        #expect(paths.count == 11 && Set(paths).count == 11, "the feed, then each of its ten CAP files once")
        #expect(paths.dropFirst().allSatisfy { $0.hasPrefix("/api/v1/warnings/feeds-united-kingdom/0b6f6a3e-") })
        #expect(server.requests.allSatisfy { $0.headers["user-agent"] == "isobar/test" })
        #expect(!report.alerts.isEmpty)
    }

    @Test func theFeedOfTheConfiguredCountryIsAsked() async throws {
        let transport = StubTransport(status: 200, body: Fixture.feed([]))
        _ = try await Fixture.provider(country: "be").fetch(
            WeatherRequest(place: Place(name: "Brussels", countryCode: "BE", coordinate: Coordinate(latitude: 50.85, longitude: 4.35)!), kinds: [.alerts]),
            context: Fixture.context(transport))
        #expect(transport.requests.map(\.url.string) == ["https://feeds.meteoalarm.org/feeds/meteoalarm-legacy-atom-belgium"])
    }

    @Test func aPolygonAndAConfiguredCodePlaceWarningsTheUpdateReplacesTheCancelWithdrawsAndTheExpiredIsGone() async throws {
        let report = try await Fixture.provider().fetch(Fixture.request, context: Fixture.context(Fixture.transport(try Fixture.recording())))
        let active = AlertMerge.active(report.alerts, at: Fixture.recordedAt, for: Fixture.london.coordinate)
        #expect(active.map(\.alert.event) == ["Yellow wind warning", "Yellow rain warning"])
        let wind = try #require(active.first?.alert)
        #expect(wind.placedBy == "its polygon" && wind.area.description == "London & South East England" && wind.area.polygons.count == 1)
        #expect(wind.awarenessLevel == "2; yellow; Moderate" && wind.awarenessType == "1; Wind")
        let rain = try #require(active.last?.alert)
        #expect(rain.messageType == .update && rain.certainty == .likely && rain.placedBy == "the configured area code EMMA_ID:UK012")
        #expect(rain.headline == "Heavy rain is likely to cause some flooding and disruption.")
        #expect(rain.area.codes == ["EMMA_ID:UK012"] && rain.senderName == "UK Met Office" && rain.language == "en-GB")
        #expect(report.notices == [Self.unplacedNote])
    }

    @Test func withoutConfiguredCodesOnlyThePolygonPlacesAndTheNoteCountsTheRest() async throws {
        let report = try await Fixture.provider(areas: []).fetch(Fixture.request, context: Fixture.context(Fixture.transport(try Fixture.recording())))
        let active = AlertMerge.active(report.alerts, at: Fixture.recordedAt, for: Fixture.london.coordinate)
        #expect(active.map(\.alert.event) == ["Yellow wind warning"])
        // The rain warning's Update counts once (its original is replaced), the ice warning is withdrawn, the fog warning
        // ended, the Highlands' polygon leaves London out and the green level is no warning.
        #expect(report.notices.count == 1)
        #expect(report.notices.first?.hasPrefix("3 warnings in force in the United Kingdom could not be placed at London") == true)
        #expect(report.notices.first?.hasSuffix("their areas: London & South East England (EMMA_ID:UK012); Strathclyde (EMMA_ID:UK105); "
                                                + "Grampian (EMMA_ID:UK103); Orkney & Shetland (EMMA_ID:UK101)") == true)
    }

    @Test func aCodeConfiguredByCoordinatesPlacesAsByName() async throws {
        let provider = Fixture.provider(areas: [(.coordinate(Coordinate(latitude: 51.51, longitude: -0.13)!), ["EMMA_ID:UK012"])])
        let report = try await provider.fetch(Fixture.request, context: Fixture.context(Fixture.transport(try Fixture.recording())))
        let active = AlertMerge.active(report.alerts, at: Fixture.recordedAt, for: Fixture.london.coordinate)
        #expect(active.map(\.alert.placedBy) == ["its polygon", "the configured area code EMMA_ID:UK012"])
    }

    @Test func aConfiguredCodeNeverOverridesAPolygonThatLeavesThePlaceOut() async throws {
        let provider = Fixture.provider(areas: [(.name("london"), ["EMMA_ID:UK102"])])
        let report = try await provider.fetch(Fixture.request, context: Fixture.context(Fixture.transport(try Fixture.recording())))
        #expect(!report.alerts.contains { $0.area.codes.contains("EMMA_ID:UK102") })
        #expect(report.notices.first?.contains("UK102") == false)
    }

    @Test func aPlaceOutsideTheCountryIsNotAskedAndOneOfUnknownCountryInEuropeIs() async throws {
        let provider = Fixture.provider()
        #expect(provider.covers(Fixture.london))
        #expect(!provider.covers(Fixture.oslo))
        #expect(!provider.covers(Place(name: "New York", coordinate: Coordinate(latitude: 40.7143, longitude: -74.006)!)))
        #expect(provider.covers(Place(name: "51.5, -0.12", coordinate: Coordinate(latitude: 51.5, longitude: -0.12)!)))
        let transport = StubTransport(status: 200, body: "")
        let error = await #expect(throws: ProviderError.self) {
            try await provider.fetch(WeatherRequest(place: Fixture.oslo, kinds: [.alerts]), context: Fixture.context(transport))
        }
        #expect(error?.reason == .outsideCoverage && transport.requests.isEmpty)
        #expect(error?.message == "MeteoAlarm reads the United Kingdom only; Oslo, NO is not in it")
    }

    @Test func aFeedThatIsNotAtomOrAFailureStatusIsAOneLineError() async throws {
        let html = await #expect(throws: ProviderError.self) {
            try await Fixture.provider().fetch(Fixture.request, context: Fixture.context(StubTransport(status: 200, body: "<html><body>busy</body></html>")))
        }
        #expect(html?.message == "MeteoAlarm sent a warning feed that cannot be read: the warning feed is not an Atom feed (the document is <html>)")
        let broken = await #expect(throws: ProviderError.self) {
            try await Fixture.provider().fetch(Fixture.request, context: Fixture.context(StubTransport(status: 200, body: "<feed><entry>\n")))
        }
        guard case .badResponse = broken?.code else { Issue.record("\(String(describing: broken))"); return }
        #expect(broken?.message.contains("\n") == false)
        let noLink = await #expect(throws: ProviderError.self) {
            try await Fixture.provider().fetch(Fixture.request, context: Fixture.context(StubTransport(
                status: 200, body: "<feed><entry><title>Yellow wind</title><link href=\"https://meteoalarm.org\"/></entry></feed>")))
        }
        #expect(noLink?.message == "MeteoAlarm sent a warning feed that cannot be read: an entry of the warning feed links no CAP file (Yellow wind)")
        let badName = await #expect(throws: ProviderError.self) {
            try await Fixture.provider().fetch(Fixture.request, context: Fixture.context(StubTransport(
                status: 200, body: "<feed><entry><link type=\"application/cap+xml\" href=\"https://x/api/v1/warnings/feeds-x/a%20b\"/></entry></feed>")))
        }
        guard case .badResponse = badName?.code else { Issue.record("\(String(describing: badName))"); return }
        let down = await #expect(throws: ProviderError.self) {
            try await Fixture.provider().fetch(Fixture.request, context: Fixture.context(StubTransport(status: 503, body: "")))
        }
        #expect(down?.code == .unavailable)
    }

    @Test func anUnreadableCAPFileIsLeftOutWithANoticeAMissingOneTooAndAFailingOneFailsTheAnswer() async throws {
        var bodies = try Fixture.recording()
        let wind = "/api/v1/warnings/feeds-united-kingdom/0b6f6a3e-6c1e-4d52-9d0e-3f0c6a1b2c01"
        bodies[wind] = "<alert><identifier>x</identifier>"
        let unreadable = try await Fixture.provider().fetch(Fixture.request, context: Fixture.context(Fixture.transport(bodies)))
        #expect(unreadable.notices.first == "left out the CAP file 0b6f6a3e-6c1e-4d52-9d0e-3f0c6a1b2c01: not XML: line 1: <alert> is never closed")
        #expect(!unreadable.alerts.contains { $0.event == "Yellow wind warning" && $0.placedBy != nil })
        bodies[wind] = nil
        let missing = try await Fixture.provider().fetch(Fixture.request, context: Fixture.context(Fixture.transport(bodies)))
        #expect(missing.notices.first == "left out the CAP file 0b6f6a3e-6c1e-4d52-9d0e-3f0c6a1b2c01: MeteoAlarm has no such file (HTTP 404)")
        let recorded = try Fixture.recording()
        let failing = StubTransport { request throws(ProviderError) in
            request.url.path == wind ? HTTPResponse(status: 503, body: []) : HTTPResponse(status: 200, body: Array((recorded[request.url.path] ?? "").utf8))
        }
        let error = await #expect(throws: ProviderError.self) {
            try await Fixture.provider().fetch(Fixture.request, context: Fixture.context(failing))
        }
        #expect(error?.code == .unavailable)
    }

    @Test func itDeclaresAlertsItsPollingFloorItsCreditAndItsCAPFilesAsPublished() {
        let provider = Fixture.provider()
        #expect(provider.capabilities.kinds == [.alerts] && provider.capabilities.pollingFloorSeconds == 300)
        #expect(provider.capabilities.attribution == "MeteoAlarm (EUMETNET), the national weather services' warnings")
        #expect(provider.isPublishedFile(provider.capRequest("0b6f6a3e-6c1e-4d52-9d0e-3f0c6a1b2c01")))
        #expect(!provider.isPublishedFile(provider.request(for: Fixture.request)))
    }

    @Test func itPassesEveryConformanceRule() async throws {
        let violations = await ProviderConformance.check(Fixture.provider(), place: Fixture.london, transport: Fixture.transport(try Fixture.recording()))
        #expect(violations.isEmpty, "\(violations)")
    }
}
