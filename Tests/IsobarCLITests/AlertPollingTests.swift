import Foundation
@testable import IsobarCLI
import IsobarCore
import IsobarEngine
import IsobarHTTP
import IsobarTestKit
import METAlerts
import Synchronization
import Testing

/// A MetAlerts origin answering the bundled Oslo recording, with the list's headers chosen by the test; it can be taken
/// down, and counts what it is asked.
private final class MetAlertsOrigin: Transport {
    private let bodies: [String: String]
    private let listHeaders: [HTTPHeader]
    private let state = Mutex((down: false, requests: [String]()))

    init(listHeaders: [HTTPHeader] = []) throws {
        let text = try String(contentsOfFile: "\(dataDirectory)/cassettes/met-alerts/oslo.json", encoding: .utf8)
        var bodies: [String: String] = [:]
        for interaction in try JSONDocument(parsing: text).rootValue.member("interactions").elements() {
            bodies[try interaction.member("request").string("url")] = try interaction.member("response").string("body")
        }
        self.bodies = bodies
        self.listHeaders = listHeaders
    }

    /// Every URL asked for, in order.
    var requests: [String] { state.withLock { $0.requests } }
    /// The list requests among them.
    var listRequests: Int { requests.filter { $0.contains("current.rss") }.count }

    /// Makes every answer a 503 from now on, or answers again.
    func setDown(_ down: Bool) { state.withLock { $0.down = down } }

    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        let down = state.withLock { state in
            state.requests.append(request.url.string)
            return state.down
        }
        if down { return HTTPResponse(status: 503, body: Array("down for maintenance".utf8)) }
        guard let body = bodies[request.url.string] else { return HTTPResponse(status: 404, body: []) }
        return HTTPResponse(status: 200, headers: request.url.path.hasSuffix(".rss") ? listHeaders : [], body: Array(body.utf8))
    }
}

/// MetAlerts' terms and honest staleness, on the manual clock: one poll of a place per 10 minutes (kept in the store), CAP
/// files fetched once, the HTTP lifetime honoured, and a kept answer shown when a refresh fails, saying as of when.
@Suite("Alert polling")
struct AlertPollingTests {
    static let start = Date(timeIntervalSince1970: 1_795_856_400)
    static let oslo = Place(name: "Oslo", countryCode: "NO", coordinate: Coordinate(latitude: 59.9127, longitude: 10.7461)!,
                            utcOffsetSeconds: 3600, timeZoneIdentifier: "Europe/Oslo")

    private static func gathering(_ origin: MetAlertsOrigin, clock: ManualClock, storage: MemoryStorage?) -> AlertsGathering {
        let provider = METAlertsProvider(configuration: .init(contact: "ops@example.org"))
        let binding = ProviderBinding(provider: provider, transport: origin, policy: ProviderPolicy(declaredBy: provider), endpoint: "met-alerts")
        return AlertsGathering(bindings: [binding], time: clock, timeoutSeconds: 60, cache: storage)
    }

    @Test func aPlaceIsPolledAtMostOnceInTenMinutesAndEachCAPFileOnce() async throws {
        let origin = try MetAlertsOrigin()
        let clock = ManualClock(start: Self.start)
        let gathering = Self.gathering(origin, clock: clock, storage: MemoryStorage())
        let first = await gathering.report(for: Self.oslo)
        #expect(first.active.map(\.alert.event) == ["Snow", "Wind"])
        #expect(origin.requests.count == 7, "the list and six CAP files")
        clock.advance(by: 599)
        let second = await gathering.report(for: Self.oslo)
        #expect(second.active.map(\.alert.event) == ["Snow", "Wind"])
        #expect(origin.requests.count == 7, "within the floor: nothing is sent")
        #expect(second.sources.first?.answer == .answered(fetchedAt: Self.start, recordedAt: nil))
        clock.advance(by: 2)
        let third = await gathering.report(for: Self.oslo)
        #expect(third.active.count == 2)
        #expect(origin.requests.count == 8, "past the floor the list is asked again; the CAP files are kept")
        #expect(origin.listRequests == 2)
    }

    @Test func withoutAStoreEveryRunAsks() async throws {
        let origin = try MetAlertsOrigin()
        let gathering = Self.gathering(origin, clock: ManualClock(start: Self.start), storage: nil)
        _ = await gathering.report(for: Self.oslo)
        _ = await gathering.report(for: Self.oslo)
        #expect(origin.listRequests == 2)
    }

    @Test func aLongerHTTPLifetimeIsHonouredAndAShorterOneNeverBreaksTheFloor() async throws {
        let long = try MetAlertsOrigin(listHeaders: [HTTPHeader("Cache-Control", "max-age=1800")])
        let clock = ManualClock(start: Self.start)
        let gathering = Self.gathering(long, clock: clock, storage: MemoryStorage())
        _ = await gathering.report(for: Self.oslo)
        clock.advance(by: 1799)
        _ = await gathering.report(for: Self.oslo)
        #expect(long.listRequests == 1)
        clock.advance(by: 2)
        _ = await gathering.report(for: Self.oslo)
        #expect(long.listRequests == 2)

        let short = try MetAlertsOrigin(listHeaders: [HTTPHeader("Cache-Control", "max-age=30")])
        let shortClock = ManualClock(start: Self.start)
        let shortGathering = Self.gathering(short, clock: shortClock, storage: MemoryStorage())
        _ = await shortGathering.report(for: Self.oslo)
        shortClock.advance(by: 300)
        _ = await shortGathering.report(for: Self.oslo)
        #expect(short.listRequests == 1)
    }

    @Test func aFailedRefreshShowsTheKeptAlertsSayingAsOfWhen() async throws {
        let origin = try MetAlertsOrigin()
        let clock = ManualClock(start: Self.start)
        let gathering = Self.gathering(origin, clock: clock, storage: MemoryStorage())
        _ = await gathering.report(for: Self.oslo)
        clock.advance(by: 3900)
        origin.setDown(true)
        let report = await gathering.report(for: Self.oslo)
        #expect(report.active.map(\.alert.event) == ["Snow", "Wind"])
        guard case .stale(let asOf, let error) = report.sources.first?.answer else { Issue.record("\(report.sources)"); return }
        #expect(asOf == Self.start && error.code == .unavailable)
        let table = AlertsFirst.table(report, width: nil)
        #expect(table.contains("Warnings from MET Norway as of 10:00; could not refresh: "))
        #expect(AlertsTable(width: nil).text(report).contains("MET Norway: as of 10:00; could not refresh — "))
        #expect(AlertsFirst.plain(report).contains("Warnings from MET Norway are as of 10:00; could not refresh: "))
        #expect(AlertsCommand.exitCode(report, failOn: nil) == .partial)
        var lines = AlertLines(query: "Oslo")
        let json = String(decoding: lines.lines(report), as: UTF8.self).split(separator: "\n")
        let first = try JSONDocument(parsing: String(json[0])).rootValue
        #expect(try first.member("stale").bool() && first.string("as_of") == "2026-11-28T10:00:00+01:00")
        #expect(try JSONDocument(parsing: String(json.last!)).rootValue.string("type") == "provider_error")

        // The failed poll counts: within the floor nothing is sent, and the kept answer is still shown as stale.
        let sent = origin.requests.count
        clock.advance(by: 60)
        let again = await gathering.report(for: Self.oslo)
        #expect(origin.requests.count == sent)
        guard case .stale(_, let floor) = again.sources.first?.answer else { Issue.record("\(again.sources)"); return }
        #expect(floor.message == "MET Norway was polled less than 10 minutes ago; its terms allow one poll of a place per 10 minutes")
    }

    @Test func aFailureWithNothingKeptIsAFailureAndTheFloorStillHolds() async throws {
        let origin = try MetAlertsOrigin()
        origin.setDown(true)
        let clock = ManualClock(start: Self.start)
        let gathering = Self.gathering(origin, clock: clock, storage: MemoryStorage())
        let report = await gathering.report(for: Self.oslo)
        guard case .failed = report.sources.first?.answer else { Issue.record("\(report.sources)"); return }
        #expect(report.active.isEmpty)
        clock.advance(by: 120)
        origin.setDown(false)
        let again = await gathering.report(for: Self.oslo)
        guard case .failed(let error) = again.sources.first?.answer else { Issue.record("\(again.sources)"); return }
        #expect(error.code == .rateLimited(retryAfterSeconds: 480))
        #expect(origin.requests.count == 1)
    }

    @Test func anAnswerThatMustBeRevalidatedIsNeverShownStale() async throws {
        let origin = try MetAlertsOrigin(listHeaders: [HTTPHeader("Cache-Control", "max-age=60, must-revalidate")])
        let clock = ManualClock(start: Self.start)
        let gathering = Self.gathering(origin, clock: clock, storage: MemoryStorage())
        _ = await gathering.report(for: Self.oslo)
        clock.advance(by: 700)
        origin.setDown(true)
        let report = await gathering.report(for: Self.oslo)
        guard case .failed = report.sources.first?.answer else { Issue.record("\(report.sources)"); return }
        #expect(report.active.isEmpty)
    }

    @Test func anAnswerSaidNotToBeStoredIsNotKept() async throws {
        let origin = try MetAlertsOrigin(listHeaders: [HTTPHeader("Cache-Control", "no-store")])
        let clock = ManualClock(start: Self.start)
        let gathering = Self.gathering(origin, clock: clock, storage: MemoryStorage())
        _ = await gathering.report(for: Self.oslo)
        clock.advance(by: 700)
        origin.setDown(true)
        let report = await gathering.report(for: Self.oslo)
        guard case .failed = report.sources.first?.answer else { Issue.record("\(report.sources)"); return }
    }
}

/// The polling floor and the CAP files outlive the run: they are kept in the store.
@Suite(.serialized, .tags(.realTime)) struct AlertPollingStoreTests {
    @Test func aSecondRunWithinTheFloorSendsNothingAndShowsTheSameWarnings() async throws {
        let text = try String(contentsOfFile: "\(dataDirectory)/cassettes/met-alerts/oslo.json", encoding: .utf8)
        var bodies: [String: String] = [:]
        for interaction in try JSONDocument(parsing: text).rootValue.member("interactions").elements() {
            let url = try #require(RequestURL(string: try interaction.member("request").string("url")))
            bodies[url.path + (url.query.first { $0.name == "cap" }.map { "|" + $0.value } ?? "")] = try interaction.member("response").string("body")
        }
        let recorded = bodies
        let server = try LoopbackServer { request in
            let key = request.path + (request.parameter("cap").map { "|" + $0 } ?? "")
            return recorded[key].map { .init($0, headers: [("Content-Type", "application/xml")]) } ?? .init(status: 404, "none")
        }
        defer { server.stop() }
        let configuration = try temporaryConfiguration(
            #"{"providers": [{"id": "met-alerts", "type": "met-alerts", "base_url": "\#(server.baseURL)", "contact": "ops@example.org"}]}"#)
        let cache = temporaryDirectory("alerts-cache")
        let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }
        let first = await runCLI(["alerts", "Oslo", "--config", configuration], environment: ["XDG_CACHE_HOME": cache], transport: curl)
        #expect(first.code == 0, "\(first.stderr)")
        #expect(server.requests.count == 7)
        let second = await runCLI(["alerts", "Oslo", "--config", configuration], environment: ["XDG_CACHE_HOME": cache], transport: curl)
        #expect(second.code == 0, "\(second.stderr)")
        #expect(server.requests.count == 7, "the second run is within the floor: nothing is sent")
        #expect(second.stdout == first.stdout)
        #expect(second.lines.contains { $0.hasPrefix("SEVERE Snow until Sun Nov 29 03:00 · MET Norway") })
    }
}

/// `providers check` applies the conformance rules to the MetAlerts adapter, on the Oslo recording.
@Suite struct METAlertsCheckTests {
    @Test func theRecordedMetAlertsSourcePassesEveryRule() async {
        let run = await runCLI(["providers", "check", "met-alerts", "--demo"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Checking met-alerts (MET Norway, replay "))
        #expect(run.stdout.contains("alerts have an identifier and an event"))
        #expect(run.lines.last == "All 37 rules checked pass.")
    }

    @Test func theOsloDemoShowsTheUpdatedSnowWarningAndTheWindFirstAndNothingWithdrawnOrExpired() async {
        let run = await runCLI(["now", "Oslo", "--demo"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(Array(run.lines.prefix(2)) == ["SEVERE Snow until Sun Nov 29 03:00 · MET Norway", "MODERATE Wind until Sat Nov 28 22:00 · MET Norway"])
        #expect(!run.stdout.contains("Rain") && !run.stdout.contains("Ice"))
    }

    @Test func aNorwegianLocaleGetsTheNorwegianTextAndAFrenchOneIsToldItIsEnglish() async {
        let norwegian = await runCLI(["alerts", "Oslo", "--demo"], environment: ["LANG": "nb_NO.UTF-8"])
        #expect(norwegian.lines.contains("SEVERE Snø until Sun Nov 29 03:00 · MET Norway"))
        #expect(!norwegian.stdout.contains("Text in"))
        let french = await runCLI(["alerts", "Oslo", "--demo"], environment: ["LANG": "fr_FR.UTF-8"])
        #expect(french.lines.contains("SEVERE Snow until Sun Nov 29 03:00 · MET Norway"))
        #expect(french.lines.contains("  Text in English: the issuer sent none in fr"))
    }
}

/// What a source noted of its answer (a warning it left out) is shown under the warnings, naming the source.
@Suite struct AlertSourceNotesTests {
    @Test func aLeftOutWarningIsNamedInTheTableAndTheSentences() {
        let place = Place(name: "New York", countryCode: "US", coordinate: Coordinate(latitude: 40.7143, longitude: -74.006)!, utcOffsetSeconds: -18000)
        var source = AlertsReport.Source(id: "nws-alerts", name: "NWS", attribution: nil,
                                         answer: .answered(fetchedAt: AlertPollingTests.start, recordedAt: nil))
        source.notes = ["left out a Dense Fog Advisory that cannot be read (expected an ISO-8601 time at $.features[1].properties.expires, found other text)"]
        let report = AlertsReport(place: place, judgedAt: AlertPollingTests.start, active: [], sources: [source])
        #expect(AlertsTable(width: nil).text(report).contains("\nNWS: left out a Dense Fog Advisory that cannot be read ("))
        #expect(AlertsPlain().text(report).contains("\nNWS: left out a Dense Fog Advisory that cannot be read ("))
        #expect(AlertsCommand.exitCode(report, failOn: nil) == .success)
    }
}
