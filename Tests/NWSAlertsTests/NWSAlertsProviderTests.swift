import FoundationEssentials
import IsobarConformance
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import NWSAlerts
import Testing

/// The NWS alerts adapter: its request, its decoding of CAP in GeoJSON, its errors and its terms.
@Suite("NWS alerts")
struct NWSAlertsProviderTests {
    static let recordedAt = Date(timeIntervalSince1970: 1_795_856_400)
    static let newYork = Place(name: "New York", countryCode: "US", coordinate: Coordinate(latitude: 40.7143, longitude: -74.006)!)
    static let oslo = Place(name: "Oslo", countryCode: "NO", coordinate: Coordinate(latitude: 59.9127, longitude: 10.7461)!)

    /// The body of the bundled New York recording: a Warning updating a Watch, an Advisory, an expired advisory, a statement
    /// and its Cancel, and an exercise.
    static func body() throws -> String {
        let root = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
        let bytes = try #require(FileManager.default.contents(atPath: root + "/config/cassettes/nws-alerts/new-york.json"))
        let document = try JSONDocument(parsing: Array(bytes))
        return try document.rootValue.member("interactions").elements()[0].member("response").string("body")
    }

    static func provider(contact: String? = "ops@example.org", baseURL: String = "https://api.weather.gov") -> NWSAlertsProvider {
        NWSAlertsProvider(contact: contact, application: "isobar/test", baseURL: RequestURL(string: baseURL)!)
    }

    static func context(_ transport: any Transport) -> FetchContext {
        FetchContext(transport: transport, time: ManualClock(start: recordedAt))
    }

    @Test func itAsksForThePointWithTheContactInTheUserAgent() async throws {
        let transport = StubTransport(status: 200, body: #"{"type":"FeatureCollection","features":[]}"#)
        let report = try await Self.provider().fetch(WeatherRequest(place: Self.newYork, kinds: [.alerts]), context: Self.context(transport))
        let request = try #require(transport.requests.first)
        #expect(request.url.string == "https://api.weather.gov/alerts/active?point=40.7143,-74.006")
        #expect(request.headers.first { $0.name == "User-Agent" }?.value == "(isobar/test, ops@example.org)")
        #expect(report.alerts.isEmpty)
    }

    @Test func everyMessageIsDecodedAndExercisesAreLeftOut() async throws {
        let transport = StubTransport(status: 200, body: try Self.body())
        let alerts = try await Self.provider().fetch(WeatherRequest(place: Self.newYork, kinds: [.alerts]), context: Self.context(transport)).alerts
        #expect(alerts.count == 6)
        #expect(!alerts.contains { $0.event == "Tornado Warning" })
        let warning = try #require(alerts.first { $0.event == "Winter Storm Warning" })
        #expect(warning.messageType == .update)
        #expect(warning.references.map(\.identifier) == ["urn:oid:2.49.0.1.840.0.7e1c4a2b9d0f3e5a.001.1"])
        #expect(warning.references.first?.sender == "w-nws.webmaster@noaa.gov")
        #expect(warning.severity == .severe && warning.urgency == .expected && warning.certainty == .likely)
        #expect(warning.expires == CivilTime.instant(iso: "2026-11-28T21:00:00Z"))
        #expect(warning.ends == CivilTime.instant(iso: "2026-11-29T23:00:00Z"))
        #expect(warning.area.polygons.first?.count == 5)
        #expect(warning.area.codes.first == "UGC:NYZ072")
        #expect(warning.senderName == "NWS Upton NY" && warning.source == "nws-alerts" && warning.language == "en-US")
        let advisory = try #require(alerts.first { $0.event == "Wind Advisory" })
        #expect(advisory.area.polygons.isEmpty, "a zone-based alert has a null geometry")
    }

    @Test func onlyTheWarningAndTheAdvisoryAreInForce() async throws {
        let transport = StubTransport(status: 200, body: try Self.body())
        let report = try await Self.provider().fetch(WeatherRequest(place: Self.newYork, kinds: [.alerts]), context: Self.context(transport))
        let active = AlertMerge.active(report.alerts, at: Self.recordedAt, for: Self.newYork.coordinate)
        #expect(active.map(\.alert.event) == ["Winter Storm Warning", "Wind Advisory"])
        #expect(active.map(\.alert.severity) == [.severe, .moderate])
    }

    @Test func theServiceIsAskedOverRealHTTP() async throws {
        let body = try Self.body()
        let server = try LoopbackServer { request in
            request.path == "/alerts/active" && request.parameter("point") == "40.7143,-74.006"
                ? .init(body, headers: [("Content-Type", "application/geo+json")]) : .init(status: 404, #"{"detail":"not found"}"#)
        }
        defer { server.stop() }
        let provider = Self.provider(baseURL: server.baseURL)
        let report = try await provider.fetch(WeatherRequest(place: Self.newYork, kinds: [.alerts]),
                                              context: Self.context(CurlTransport(userAgent: "isobar/test")))
        #expect(report.alerts.count == 6)
        let seen = try #require(server.requests.first)
        #expect(seen.headers["user-agent"] == "(isobar/test, ops@example.org)")
    }

    @Test func aFailureStatusIsAnErrorWithTheServersExplanation() async throws {
        let transport = StubTransport(status: 400, body: #"{"title":"Bad Request","detail":"Invalid point: 91,0"}"#)
        let error = await #expect(throws: ProviderError.self) {
            try await Self.provider().fetch(WeatherRequest(place: Self.newYork, kinds: [.alerts]), context: Self.context(transport))
        }
        #expect(error?.message.contains("Invalid point") == true)
    }

    @Test func anUnreadableBodyIsABadResponseNamingItsPath() async throws {
        for body in ["<html>busy</html>", #"{"type":"FeatureCollection"}"#, #"{"features":{}}"#] {
            let transport = StubTransport(status: 200, body: body)
            let error = await #expect(throws: ProviderError.self) {
                try await Self.provider().fetch(WeatherRequest(place: Self.newYork, kinds: [.alerts]), context: Self.context(transport))
            }
            guard case .badResponse = error?.code else { Issue.record("\(body): \(String(describing: error))"); continue }
        }
    }

    @Test func aFeatureThatCannotBeReadIsLeftOutWithANoticeAndTheOthersCount() async throws {
        let good = #"{"properties":{"id":"ok","event":"Wind Advisory","messageType":"Alert","status":"Actual","severity":"Moderate"}}"#
        let body = #"{"type":"FeatureCollection","features":["#
            + #"{"properties":{"id":"x","messageType":"Alert"}},"#
            + #"{"properties":{"id":"y","event":"Dense Fog Advisory","messageType":"Alert","expires":"tomorrow"}},"#
            + good + "]}"
        let report = try await Self.provider().fetch(WeatherRequest(place: Self.newYork, kinds: [.alerts]),
                                                     context: Self.context(StubTransport(status: 200, body: body)))
        #expect(report.alerts.map(\.identity.identifier) == ["ok"])
        #expect(report.notices == [
            "left out a warning that cannot be read (missing value at $.features[0].properties.event)",
            "left out a Dense Fog Advisory that cannot be read (expected an ISO-8601 time at $.features[1].properties.expires, found other text)",
        ])
    }

    @Test func withoutAContactItIsNotConfiguredAndSendsNothing() async throws {
        let transport = StubTransport(status: 200, body: "{}")
        let error = await #expect(throws: ProviderError.self) {
            try await Self.provider(contact: "  ").fetch(WeatherRequest(place: Self.newYork, kinds: [.alerts]), context: Self.context(transport))
        }
        #expect(error?.code == .notConfigured && error?.message.contains("ISOBAR_CONTACT") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test func itCoversTheUnitedStatesAndNotEurope() {
        let coverage = Self.provider().coverage
        #expect(coverage.contains(Self.newYork.coordinate))
        #expect(coverage.contains(Coordinate(latitude: 21.3, longitude: -157.8)!), "Honolulu")
        #expect(coverage.contains(Coordinate(latitude: 13.45, longitude: 144.8)!), "Guam, across the antimeridian")
        #expect(!coverage.contains(Self.oslo.coordinate))
    }

    @Test func itDeclaresAlertsOnly() {
        let capabilities = Self.provider().capabilities
        #expect(capabilities.kinds == [.alerts] && capabilities.attribution != nil && !capabilities.requiresAPIKey)
    }
}

/// The conformance rules about warnings, as `providers check` applies them.
@Suite("Alert conformance")
struct AlertConformanceTests {
    @Test func theNWSAdapterPassesEveryRule() async throws {
        let transport = StubTransport(status: 200, body: try NWSAlertsProviderTests.body())
        let violations = await ProviderConformance.check(NWSAlertsProviderTests.provider(), place: NWSAlertsProviderTests.newYork,
                                                         transport: transport)
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test func anAlertThatEndsBeforeItTakesEffectOrHasAnOpenPolygonBreaksARule() async throws {
        let body = #"""
            {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[-74,40],[-73,40]]]},
             "properties":{"id":"x1","event":"Flood Warning","messageType":"Alert","status":"Actual",
             "effective":"2026-11-28T10:00:00-05:00","expires":"2026-11-28T09:00:00-05:00"}}]}
            """#
        let violations = await ProviderConformance.check(NWSAlertsProviderTests.provider(), place: NWSAlertsProviderTests.newYork,
                                                         transport: StubTransport(status: 200, body: body))
        #expect(Set(violations.map(\.rule)) == ["alert times in order", "alert polygons have at least 3 corners"])
        #expect(ProviderConformance.rules.contains("alert times in order"))
    }
}
