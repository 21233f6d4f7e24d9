import FoundationEssentials
import IsobarConformance
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import METAlerts
import Testing

/// The MetAlerts adapter: its two requests (the list, then one CAP file per warning), its reading of the bundled Oslo
/// recording, its errors and its terms.
@Suite("MET Norway alerts")
struct METAlertsProviderTests {
    static let recordedAt = Date(timeIntervalSince1970: 1_795_856_400)
    static let oslo = Place(name: "Oslo", countryCode: "NO", coordinate: Coordinate(latitude: 59.9127, longitude: 10.7461)!)
    static let newYork = Place(name: "New York", countryCode: "US", coordinate: Coordinate(latitude: 40.7143, longitude: -74.006)!)
    static let request = WeatherRequest(place: oslo, kinds: [.alerts])

    /// The bundled Oslo recording: request path and query → response body.
    static func recording() throws -> [String: String] {
        let root = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
        let bytes = try #require(FileManager.default.contents(atPath: root + "/config/cassettes/met-alerts/oslo.json"))
        var bodies: [String: String] = [:]
        for interaction in try JSONDocument(parsing: Array(bytes)).rootValue.member("interactions").elements() {
            let url = try #require(RequestURL(string: try interaction.member("request").string("url")))
            bodies[url.path + "?" + url.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")] =
                try interaction.member("response").string("body")
        }
        return bodies
    }

    /// A transport answering from the recording, 404 for anything else.
    static func recorded() throws -> StubTransport {
        let bodies = try recording()
        return StubTransport { request throws(ProviderError) in
            let key = request.url.path + "?" + request.url.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            guard let body = bodies[key] else { return HTTPResponse(status: 404, body: Array("no such alert".utf8)) }
            return HTTPResponse(status: 200, body: Array(body.utf8))
        }
    }

    static func provider(contact: String? = "ops@example.org", baseURL: String = "https://api.met.no", wanted: String? = nil) -> METAlertsProvider {
        var configuration = METAlertsProvider.Configuration(baseURL: RequestURL(string: baseURL)!, contact: contact, application: "isobar/test")
        configuration.language = AlertLanguage(wanted: wanted)
        return METAlertsProvider(configuration: configuration)
    }

    static func context(_ transport: any Transport) -> FetchContext { FetchContext(transport: transport, time: ManualClock(start: recordedAt)) }

    @Test func itAsksForTheListThenEachCAPFileWithTheContact() async throws {
        let transport = try Self.recorded()
        let report = try await Self.provider().fetch(Self.request, context: Self.context(transport))
        let urls = transport.requests.map(\.url.string)
        #expect(urls.first == "https://api.met.no/weatherapi/metalerts/2.0/current.rss?lat=59.9127&lon=10.7461")
        #expect(urls.count == 7)
        #expect(urls.dropFirst().allSatisfy { $0.hasPrefix("https://api.met.no/weatherapi/metalerts/2.0/current?cap=2.49.0.1.578.0.") })
        #expect(transport.requests.allSatisfy { $0.headers.first { $0.name == "User-Agent" }?.value == "isobar/test ops@example.org" })
        #expect(report.alerts.count == 6 && report.notices.isEmpty)
    }

    @Test func theUpdateReplacesTheCancelWithdrawsAndTheExpiredIsGone() async throws {
        let report = try await Self.provider().fetch(Self.request, context: Self.context(try Self.recorded()))
        let active = AlertMerge.active(report.alerts, at: Self.recordedAt, for: Self.oslo.coordinate)
        #expect(active.map(\.alert.event) == ["Snow", "Wind"])
        #expect(active.map(\.alert.severity) == [.severe, .moderate])
        let snow = try #require(active.first?.alert)
        #expect(snow.messageType == .update && snow.headline == "Snow, orange level" && snow.language == "en-GB")
        #expect(snow.ends == CivilTime.instant(iso: "2026-11-29T02:00:00Z"))
        #expect(snow.area.codes == ["county:03"] && snow.senderName == "MET Norway")
    }

    @Test func aNorwegianReaderGetsTheNorwegianText() async throws {
        let report = try await Self.provider(wanted: "nb_NO.UTF-8").fetch(Self.request, context: Self.context(try Self.recorded()))
        let active = AlertMerge.active(report.alerts, at: Self.recordedAt, for: Self.oslo.coordinate)
        #expect(active.map(\.alert.event) == ["Snø", "Vind"])
        #expect(active.first?.alert.description?.contains("Kraftige snøbyger & dårlig sikt.") == true)
    }

    @Test func theServiceIsAskedOverRealHTTP() async throws {
        let bodies = try Self.recording()
        let server = try LoopbackServer { request in
            let key = request.path.hasSuffix(".rss")
                ? request.path + "?lat=\(request.parameter("lat") ?? "")&lon=\(request.parameter("lon") ?? "")"
                : request.path + "?cap=" + (request.parameter("cap") ?? "")
            return bodies[key].map { .init($0, headers: [("Content-Type", "application/xml; charset=utf-8")]) } ?? .init(status: 404, "none")
        }
        defer { server.stop() }
        let report = try await Self.provider(baseURL: server.baseURL).fetch(Self.request, context: Self.context(CurlTransport(userAgent: "isobar/test")))
        #expect(report.alerts.count == 6)
        #expect(server.requests.count == 7)
        #expect(server.requests.allSatisfy { $0.headers["user-agent"] == "isobar/test ops@example.org" })
    }

    @Test func anUnreadableCAPFileIsLeftOutWithANoticeAndTheOthersCount() async throws {
        let bodies = try Self.recording()
        let transport = StubTransport { request throws(ProviderError) in
            let key = request.url.path + "?" + request.url.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            if key.hasSuffix(".006") { return HTTPResponse(status: 200, body: Array("<alert><identifier>x</identifier>".utf8)) }
            return HTTPResponse(status: 200, body: Array((bodies[key] ?? "").utf8))
        }
        let report = try await Self.provider().fetch(Self.request, context: Self.context(transport))
        #expect(report.alerts.count == 5)
        #expect(report.notices == ["left out the CAP message 2.49.0.1.578.0.20261128050000.006: not XML: line 1: <alert> is never closed"])
    }

    @Test func aMissingCAPFileIsLeftOutWithANoticeAndAFailingOneFailsTheAnswer() async throws {
        let bodies = try Self.recording()
        let transport = { (status: Int) in
            StubTransport { request throws(ProviderError) in
                let key = request.url.path + "?" + request.url.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
                if key.hasSuffix(".006") { return HTTPResponse(status: status, body: []) }
                return HTTPResponse(status: 200, body: Array((bodies[key] ?? "").utf8))
            }
        }
        let report = try await Self.provider().fetch(Self.request, context: Self.context(transport(404)))
        #expect(report.alerts.count == 5)
        #expect(report.notices == ["left out the CAP message 2.49.0.1.578.0.20261128050000.006: MET Norway has no such file (HTTP 404)"])
        let error = await #expect(throws: ProviderError.self) {
            try await Self.provider().fetch(Self.request, context: Self.context(transport(503)))
        }
        #expect(error?.code == .unavailable)
    }

    @Test func aListThatIsNotRSSOrAFailureStatusIsAnError() async throws {
        let html = await #expect(throws: ProviderError.self) {
            try await Self.provider().fetch(Self.request, context: Self.context(StubTransport(status: 200, body: "<html><body>busy</body></html>")))
        }
        #expect(html?.message == "MET Norway sent an alert list that cannot be read: the alert list is not an RSS feed (the document is <html>)")
        let broken = await #expect(throws: ProviderError.self) {
            try await Self.provider().fetch(Self.request, context: Self.context(StubTransport(status: 200, body: "<rss><channel>")))
        }
        guard case .badResponse = broken?.code else { Issue.record("\(String(describing: broken))"); return }
        let down = await #expect(throws: ProviderError.self) {
            try await Self.provider().fetch(Self.request, context: Self.context(StubTransport(status: 503, body: "")))
        }
        #expect(down?.code == .unavailable)
    }

    @Test func withoutAContactItIsNotConfiguredAndSendsNothing() async throws {
        let transport = StubTransport(status: 200, body: "<rss/>")
        let error = await #expect(throws: ProviderError.self) {
            try await Self.provider(contact: nil).fetch(Self.request, context: Self.context(transport))
        }
        #expect(error?.code == .notConfigured && error?.message.contains("ISOBAR_CONTACT") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test func itCoversNorwayAndItsWatersOnly() {
        let coverage = Self.provider().coverage
        #expect(coverage.contains(Self.oslo.coordinate))
        #expect(coverage.contains(Coordinate(latitude: 78.22, longitude: 15.65)!), "Longyearbyen")
        #expect(coverage.contains(Coordinate(latitude: 69.65, longitude: 18.96)!), "Tromsø")
        #expect(!coverage.contains(Self.newYork.coordinate))
        #expect(!coverage.contains(Coordinate(latitude: 53.9, longitude: 27.5667)!), "Minsk")
    }

    @Test func itDeclaresAlertsItsPollingFloorAndItsCAPFilesAsPublished() {
        let provider = Self.provider()
        #expect(provider.capabilities.kinds == [.alerts] && provider.capabilities.pollingFloorSeconds == 600)
        #expect(provider.capabilities.attribution == "MET Norway (CC BY 4.0)")
        #expect(provider.isPublishedFile(provider.capRequest("2.49.0.1.578.0.1")))
        #expect(!provider.isPublishedFile(provider.request(for: Self.request)))
    }

    @Test func itPassesEveryConformanceRule() async throws {
        let violations = await ProviderConformance.check(Self.provider(), place: Self.oslo, transport: try Self.recorded())
        #expect(violations.isEmpty, "\(violations)")
    }
}
