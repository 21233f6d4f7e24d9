import Foundation
@testable import IsobarCLI
import IsobarCore
import IsobarEngine
import IsobarHTTP
import IsobarTestKit
import METAlerts
import NWSAlerts
import Testing

/// A loopback origin serving a bundled alert recording whose list (`listPath`) carries `Last-Modified` and an `ETag`, and
/// answers `304 Not Modified` with no body to a request that sends them back; other recorded files are answered whole.
private final class ValidatingOrigin: Sendable {
    static let lastModified = "Sat, 28 Nov 2026 08:55:00 GMT"
    static let entityTag = "\"alerts-1\""

    let server: LoopbackServer

    /// Serves `provider`'s recording of `place`; `validators` false leaves them out of every answer; `cacheControl`, when
    /// given, goes with the list's answers.
    init(provider: String, place: String, listPath: String, validators: Bool = true, cacheControl: String? = nil) throws {
        let text = try String(contentsOfFile: "\(dataDirectory)/cassettes/\(provider)/\(place).json", encoding: .utf8)
        var bodies: [String: String] = [:]
        for interaction in try JSONDocument(parsing: text).rootValue.member("interactions").elements() {
            let url = try #require(RequestURL(string: try interaction.member("request").string("url")))
            bodies[url.path + (url.query.first { $0.name == "cap" }.map { "|" + $0.value } ?? "")] = try interaction.member("response").string("body")
        }
        let recorded = bodies
        server = try LoopbackServer { request in
            let key = request.path + (request.parameter("cap").map { "|" + $0 } ?? "")
            guard let body = recorded[key] else { return .init(status: 404, "none") }
            guard request.path == listPath, validators else { return .init(body) }
            let confirmed = request.headers["if-none-match"] == Self.entityTag || request.headers["if-modified-since"] == Self.lastModified
            let headers = [("ETag", Self.entityTag), ("Last-Modified", Self.lastModified)] + (cacheControl.map { [("Cache-Control", $0)] } ?? [])
            return confirmed ? .init(status: 304, headers: headers, body: []) : .init(body, headers: headers)
        }
    }

    /// The list requests, in order.
    func listRequests(_ listPath: String) -> [LoopbackServer.Request] { server.requests.filter { $0.path == listPath } }
}

/// Alert sources revalidate: once a kept answer's lifetime (and the polling floor) has passed, the list is asked for with
/// `If-None-Match` / `If-Modified-Since`; a `304` confirms the kept warnings, fresh as of now, without a body; `--record`
/// sends no validators.
@Suite(.serialized, .tags(.realTime)) struct AlertRevalidationTests {
    static let start = Date(timeIntervalSince1970: 1_795_856_400)
    static let newYork = Place(name: "New York", countryCode: "US", coordinate: Coordinate(latitude: 40.7143, longitude: -74.006)!,
                               utcOffsetSeconds: -18000)
    static let oslo = Place(name: "Oslo", countryCode: "NO", coordinate: Coordinate(latitude: 59.9127, longitude: 10.7461)!,
                            utcOffsetSeconds: 3600)

    static func gathering(_ provider: any WeatherProvider, clock: ManualClock, storage: MemoryStorage, sendsValidators: Bool = true) -> AlertsGathering {
        let binding = ProviderBinding(provider: provider, transport: CurlTransport(userAgent: "isobar/test"),
                                      policy: ProviderPolicy(declaredBy: provider), endpoint: provider.id)
        return AlertsGathering(bindings: [binding], time: clock, timeoutSeconds: 60, cache: storage, sendsValidators: sendsValidators)
    }

    @Test func aMetAlertsPollAfterTheFloorIsConditionalAndA304KeepsTheWarningsFresh() async throws {
        let listPath = "/weatherapi/metalerts/2.0/current.rss"
        let origin = try ValidatingOrigin(provider: "met-alerts", place: "oslo", listPath: listPath)
        defer { origin.server.stop() }
        let provider = METAlertsProvider(configuration: .init(baseURL: RequestURL(string: origin.server.baseURL)!, contact: "ops@example.org"))
        let clock = ManualClock(start: Self.start)
        let gathering = Self.gathering(provider, clock: clock, storage: MemoryStorage())
        let first = await gathering.report(for: Self.oslo)
        #expect(first.active.map(\.alert.event) == ["Snow", "Wind"])
        #expect(origin.server.requests.count == 7, "the list and six CAP files")
        #expect(origin.listRequests(listPath).first?.headers["if-modified-since"] == nil)

        clock.advance(by: 599)
        _ = await gathering.report(for: Self.oslo)
        #expect(origin.server.requests.count == 7, "within the floor nothing is sent, conditional or not")

        clock.advance(by: 2)
        let second = await gathering.report(for: Self.oslo)
        #expect(origin.server.requests.count == 8, "the list alone: the CAP files are kept")
        let conditional = try #require(origin.listRequests(listPath).last)
        #expect(conditional.headers["if-modified-since"] == ValidatingOrigin.lastModified)
        #expect(conditional.headers["if-none-match"] == ValidatingOrigin.entityTag)
        #expect(second.active.map(\.alert.event) == ["Snow", "Wind"])
        #expect(second.active == first.active, "the kept warnings, as they were")
        #expect(second.sources.first?.answer == .answered(fetchedAt: Self.start.addingTimeInterval(601), recordedAt: nil), "fresh, not stale")

        // Confirmed as of the second poll: the floor counts from it, and the next poll is conditional again.
        clock.advance(by: 599)
        _ = await gathering.report(for: Self.oslo)
        #expect(origin.server.requests.count == 8)
        clock.advance(by: 2)
        let third = await gathering.report(for: Self.oslo)
        #expect(origin.listRequests(listPath).count == 3 && origin.listRequests(listPath).last?.headers["if-none-match"] == ValidatingOrigin.entityTag)
        #expect(third.active == first.active)
    }

    @Test func anNWSRefreshIsConditionalAndA304KeepsTheWarnings() async throws {
        let origin = try ValidatingOrigin(provider: "nws-alerts", place: "new-york", listPath: "/alerts/active")
        defer { origin.server.stop() }
        let provider = NWSAlertsProvider(contact: "ops@example.org", application: "isobar/test", baseURL: RequestURL(string: origin.server.baseURL)!)
        let clock = ManualClock(start: Self.start)
        let gathering = Self.gathering(provider, clock: clock, storage: MemoryStorage())
        let first = await gathering.report(for: Self.newYork)
        #expect(first.active.map(\.alert.event) == ["Winter Storm Warning", "Wind Advisory"])
        clock.advance(by: 120)
        let second = await gathering.report(for: Self.newYork)
        let requests = origin.listRequests("/alerts/active")
        #expect(requests.count == 2)
        #expect(requests.last?.headers["if-none-match"] == ValidatingOrigin.entityTag)
        #expect(second.active == first.active)
        #expect(second.sources.first?.answer == .answered(fetchedAt: Self.start.addingTimeInterval(120), recordedAt: nil))
    }

    @Test func aSecondRunConfirmsTheWarningsKeptInTheStoreWithA304() async throws {
        let origin = try ValidatingOrigin(provider: "nws-alerts", place: "new-york", listPath: "/alerts/active", cacheControl: "max-age=0")
        defer { origin.server.stop() }
        let configuration = try temporaryConfiguration(#"""
            {"providers": [{"id": "nws-alerts", "type": "nws-alerts", "base_url": "\#(origin.server.baseURL)", "contact": "ops@example.org"}]}
            """#)
        let cache = temporaryDirectory("alerts-revalidation-cache")
        let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }
        let first = await runCLI(["alerts", "New York", "--config", configuration], environment: ["XDG_CACHE_HOME": cache], transport: curl)
        #expect(first.code == 0, "\(first.stdout)\(first.stderr)")
        let second = await runCLI(["alerts", "New York", "--config", configuration], environment: ["XDG_CACHE_HOME": cache], transport: curl)
        #expect(second.code == 0, "\(second.stdout)\(second.stderr)")
        let requests = origin.listRequests("/alerts/active")
        #expect(requests.count == 2)
        #expect(requests.first?.headers["if-none-match"] == nil)
        #expect(requests.last?.headers["if-none-match"] == ValidatingOrigin.entityTag)
        #expect(requests.last?.headers["if-modified-since"] == ValidatingOrigin.lastModified)
        #expect(second.stdout == first.stdout, "the kept warnings, fresh: no 'as of', no 'could not refresh'")
        #expect(second.lines.contains { $0.hasPrefix("SEVERE Winter Storm Warning until Sun Nov 29 18:00 · NWS") })
    }

    @Test func withoutValidatorsOrWhenRecordingTheRefreshIsWhole() async throws {
        let plain = try ValidatingOrigin(provider: "nws-alerts", place: "new-york", listPath: "/alerts/active", validators: false)
        let validating = try ValidatingOrigin(provider: "nws-alerts", place: "new-york", listPath: "/alerts/active")
        defer { plain.server.stop(); validating.server.stop() }
        for (origin, sends) in [(plain, true), (validating, false)] {
            let provider = NWSAlertsProvider(contact: "ops@example.org", application: "isobar/test", baseURL: RequestURL(string: origin.server.baseURL)!)
            let clock = ManualClock(start: Self.start)
            let gathering = Self.gathering(provider, clock: clock, storage: MemoryStorage(), sendsValidators: sends)
            _ = await gathering.report(for: Self.newYork)
            clock.advance(by: 120)
            let second = await gathering.report(for: Self.newYork)
            let requests = origin.listRequests("/alerts/active")
            #expect(requests.count == 2)
            #expect(requests.allSatisfy { $0.headers["if-none-match"] == nil && $0.headers["if-modified-since"] == nil })
            #expect(second.active.map(\.alert.event) == ["Winter Storm Warning", "Wind Advisory"])
        }
    }
}
