import Foundation
@testable import IsobarCLI
import IsobarCore
import IsobarEngine
import IsobarHTTP
import IsobarTestKit
import OpenWeatherMap
import Synchronization
import Testing

/// A loopback One Call 3.0 origin answering the bundled New York recording (a Winter Storm Warning passed on from the NWS
/// and a Coastal Flood Advisory), or `status` with `body`.
private func oneCallOrigin(status: Int = 200, body: String? = nil) throws -> LoopbackServer {
    let recorded = try cassetteText(provider: "openweathermap-alerts", place: "new-york", pathSuffix: "/data/3.0/onecall")
    return try LoopbackServer { request in
        guard request.path == "/data/3.0/onecall" else { return .init(status: 404, #"{"cod":"404","message":"Internal error"}"#) }
        return .init(status: status, body ?? recorded)
    }
}

/// OpenWeatherMap's answer when the key has no One Call by Call subscription (as its API sends it).
private let noSubscriptionBody = #"{"cod":401, "message": "Please note that using One Call 3.0 requires a separate subscription to the One Call by Call plan. Learn more here https://openweathermap.org/price. If you have a valid subscription to the One Call by Call plan, but still receive this error, then please see https://openweathermap.org/faq#error401 for more info."}"#

/// The OpenWeatherMap alerts adapter: its request, what it maps (and leaves unknown), its errors, its key. Answers come from
/// a stub; the HTTP path itself is tested over loopback below (`OpenWeatherMapAlertsHTTPTests`).
@Suite struct OpenWeatherMapAlertsTests {
    static let recordedAt = Date(timeIntervalSince1970: 1_795_856_400)
    static let newYork = Place(name: "New York", countryCode: "US", coordinate: Coordinate(latitude: 40.7143, longitude: -74.006)!,
                               utcOffsetSeconds: -18000)

    static func recorded() throws -> String {
        try cassetteText(provider: "openweathermap-alerts", place: "new-york", pathSuffix: "/data/3.0/onecall")
    }

    static func provider(key: String? = sentinelKey) -> OpenWeatherMapAlertsProvider {
        OpenWeatherMapAlertsProvider(configuration: OpenWeatherMapProvider.Configuration(id: "openweathermap-alerts", apiKey: key))
    }

    static func fetch(_ transport: StubTransport, key: String? = sentinelKey) async throws(ProviderError) -> WeatherReport {
        try await provider(key: key).fetch(WeatherRequest(place: newYork, kinds: [.alerts]),
                                           context: FetchContext(transport: transport, time: ManualClock(start: recordedAt)))
    }

    /// The error each answer (status and body) makes the adapter throw.
    static func failures(_ answers: [(status: Int, body: String)]) async -> [ProviderError] {
        var errors: [ProviderError] = []
        for answer in answers {
            do {
                _ = try await fetch(StubTransport(status: answer.status, body: answer.body))
                Issue.record("HTTP \(answer.status) \(answer.body) was read as an answer")
            } catch {
                errors.append(error)
            }
        }
        return errors
    }

    @Test func itAsksForTheAlertsAloneWithTheKeyAndMapsOnlyWhatIsGiven() async throws {
        let transport = StubTransport(status: 200, body: try Self.recorded())
        let report = try await Self.fetch(transport)
        let request = try #require(transport.requests.first)
        #expect(request.url.string == "https://api.openweathermap.org/data/3.0/onecall?lat=40.7143&lon=-74.006"
            + "&exclude=current%2Cminutely%2Chourly%2Cdaily&appid=\(sentinelKey)" || request.url.string
            == "https://api.openweathermap.org/data/3.0/onecall?lat=40.7143&lon=-74.006&exclude=current,minutely,hourly,daily&appid=\(sentinelKey)")
        #expect(request.secretQueryNames == ["appid"] && !request.redactedURL.contains(sentinelKey))

        #expect(report.alerts.map(\.event) == ["Winter Storm Warning", "Coastal Flood Advisory"] && report.notices.isEmpty)
        let warning = try #require(report.alerts.first)
        #expect(warning.identity == AlertIdentity(sender: "NWS Upton NY", identifier: "Winter Storm Warning@2026-11-29T00:00:00+00:00"))
        #expect(warning.identity.sent == nil && warning.messageType == .alert && warning.references.isEmpty)
        #expect(warning.severity == .unknown && warning.urgency == .unknown && warning.certainty == .unknown, "OpenWeatherMap gives no axis")
        #expect(warning.onset == Date(timeIntervalSince1970: 1_795_910_400) && warning.ends == Date(timeIntervalSince1970: 1_795_993_200))
        #expect(warning.effective == nil && warning.expires == nil)
        #expect(warning.area == AlertArea() && warning.language == nil && warning.headline == nil && warning.instruction == nil)
        #expect(warning.senderName == "NWS Upton NY" && warning.source == "openweathermap-alerts" && warning.tags == ["Snow/Ice"])
        // The issuer's text, as sent: line breaks and all.
        let body = try JSONDocument(parsing: Self.recorded())
        #expect(warning.description == (try body.rootValue.member("alerts").elements()[0].string("description")))
        #expect(warning.description?.contains("\n\n* WHERE...New York City.") == true)
        #expect(report.alerts[1].tags == ["Coastal event", "Flood"])
    }

    @Test func anAnswerWithoutAlertsHasNone() async throws {
        let report = try await Self.fetch(StubTransport(status: 200, body: #"{"lat":51.5085,"lon":-0.1257,"timezone":"Europe/London","timezone_offset":0}"#))
        #expect(report.alerts.isEmpty && report.notices.isEmpty)
    }

    @Test func aKeyWithoutTheSubscriptionMakesTheSourceUnavailableSaidInOneLine() async throws {
        let errors = await Self.failures([
            (401, noSubscriptionBody),
            (401, #"{"cod":401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#),
        ])
        #expect(errors.count == 2)
        #expect(errors.first?.code == .unavailable)
        #expect(errors.first?.message == "your OpenWeatherMap key has no One Call 3.0 subscription: its warnings come with the One Call by Call "
            + "plan (openweathermap.org/price; a new subscription may take a while to activate)")
        #expect(errors.last?.code == .unauthorized && errors.last?.message.hasPrefix("OpenWeatherMap refused the API key (HTTP 401): Invalid API key") == true)
    }

    @Test func anUnreadableAnswerIsAOneLineBadResponse() async throws {
        let bodies = ["<html>Bad Gateway</html>", "[1, 2]", #"{"alerts": {"event": "Wind"}}"#, #"{"alerts": [1"#]
        let errors = await Self.failures(bodies.map { (200, $0) })
        #expect(errors.count == bodies.count)
        for (body, error) in zip(bodies, errors) {
            guard case .badResponse = error.code else { Issue.record("\(body): \(error.codeName) \(error)"); continue }
            #expect(error.message.hasPrefix("OpenWeatherMap sent a response Isobar cannot read"), "\(error.message)")
            #expect(!error.message.contains("\n") && !error.message.contains(sentinelKey))
        }
    }

    @Test func aServerMessageEchoingTheKeyIsRedacted() async throws {
        let errors = await Self.failures([(400, #"{"cod":"400","message":"appid \#(sentinelKey) is malformed"}"#)])
        let error = try #require(errors.first)
        #expect(error.code == .badRequest, "\(error)")
        #expect(!error.message.contains(sentinelKey) && error.message.contains("appid REDACTED is malformed"))
    }

    @Test func anAlertThatCannotBeReadIsLeftOutWithANoticeAndTheOthersCount() async throws {
        let transport = StubTransport(status: 200, body: #"""
            {"alerts":[{"sender_name":"NWS","start":1795910400},
                       {"sender_name":"NWS","event":"Flood Watch","start":1795910400,"end":1795900000},
                       {"sender_name":"NWS","event":"Heat Advisory","start":"tomorrow"},
                       {"sender_name":"","event":"Wind Advisory","start":1795910400,"end":1795993200,"description":"Gusts to 50 mph.","tags":[]}]}
            """#)
        let report = try await Self.fetch(transport)
        #expect(report.alerts.map(\.event) == ["Wind Advisory"])
        #expect(report.alerts.first?.identity.sender == "" && report.alerts.first?.senderName == nil && report.alerts.first?.tags == [])
        #expect(report.notices == [
            "left out a warning that cannot be read (missing value at $.alerts[0].event)",
            "left out a Flood Watch that cannot be read (expected an end after the start at $.alerts[1].end, found an earlier end)",
            "left out a Heat Advisory that cannot be read (expected number at $.alerts[2].start, found string)",
        ])
    }

    @Test func withoutAKeyItIsNotConfiguredAndSendsNothing() async throws {
        let transport = StubTransport(status: 200, body: "{}")
        let error = await #expect(throws: ProviderError.self) { try await Self.fetch(transport, key: nil) }
        #expect(error?.code == .notConfigured && error?.message == "OpenWeatherMap needs an API key: set OPENWEATHERMAP_API_KEY")
        #expect(transport.requests.isEmpty)
    }

    @Test func itDeclaresAlertsOnlyEverywhereFreshForTenMinutes() {
        let capabilities = Self.provider().capabilities
        #expect(capabilities.kinds == [.alerts] && capabilities.requiresAPIKey && capabilities.freshFor.current == 600)
        #expect(capabilities.pollingFloorSeconds == nil, "a failed poll is asked again, and says why")
        #expect(Self.provider().coverage.contains(Coordinate(latitude: -33.9, longitude: 151.2)!))
    }
}

/// The OpenWeatherMap alerts source over real HTTP (loopback), through the command line: the request it sends, the
/// subscription message, an unreadable answer, and the key kept out of output, the cache and recordings.
@Suite(.serialized, .tags(.realTime)) struct OpenWeatherMapAlertsHTTPTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    /// A configuration with one live `openweathermap-alerts` entry at `server`, its key in TEST_OWM_KEY.
    static func configuration(_ server: LoopbackServer) throws -> String {
        try temporaryConfiguration(#"""
            {"providers": [{"id": "openweathermap-alerts", "type": "openweathermap-alerts", "api_key_env": "TEST_OWM_KEY", "base_url": "\#(server.baseURL)"}]}
            """#)
    }

    @Test func withoutTheSubscriptionTheAlertsCommandSaysSoAndNeverShowsTheKey() async throws {
        let server = try oneCallOrigin(status: 401, body: noSubscriptionBody)
        defer { server.stop() }
        let cache = temporaryDirectory("owm-alerts-cache")
        let run = await runCLI(["alerts", "New York", "--config", try Self.configuration(server)],
                               environment: ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": cache], transport: curl)
        #expect(run.code == ExitCode.noneAnswered.rawValue, "\(run.stdout)\(run.stderr)")
        #expect(run.lines.contains("OpenWeatherMap: no answer — your OpenWeatherMap key has no One Call 3.0 subscription: its warnings come "
            + "with the One Call by Call plan (openweathermap.org/price; a new subscription may take a while to activate)"), "\(run.stdout)")
        #expect(run.stderr.isEmpty)
        // A second run asks again and says the same (no polling floor stands in for the reason).
        let json = await runCLI(["alerts", "New York", "--config", try Self.configuration(server), "--format", "jsonl"],
                                environment: ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": cache], transport: curl)
        let line = try #require(try parseLines(json).first)
        #expect(try line.string("type") == "provider_error" && line.member("error").string("code") == "unavailable")
        #expect(try line.member("error").string("message").hasPrefix("your OpenWeatherMap key has no One Call 3.0 subscription: "))
        #expect(server.requests.count == 2)
        for text in [run.stdout, run.stderr, json.stdout, json.stderr] { #expect(!text.contains(sentinelKey)) }
        #expect(try !filesContain(cache, sentinelKey))
    }

    @Test func anUnreadableAnswerIsOneLineNamingTheSourceAndNeverTheKey() async throws {
        let server = try oneCallOrigin(body: "<html>Bad Gateway</html>")
        defer { server.stop() }
        let run = await runCLI(["alerts", "New York", "--config", try Self.configuration(server)],
                               environment: ["TEST_OWM_KEY": sentinelKey], transport: curl)
        #expect(run.code == ExitCode.noneAnswered.rawValue, "\(run.stdout)\(run.stderr)")
        let said = run.lines.filter { $0.hasPrefix("OpenWeatherMap: no answer — OpenWeatherMap sent a response Isobar cannot read") }
        #expect(said.count == 1, "\(run.stdout)")
        #expect(!run.stdout.contains(sentinelKey) && !run.stderr.contains(sentinelKey))
    }

    @Test func aRecordingKeepsTheAnswerButNeverTheKeyAndReplaysTheSameWarnings() async throws {
        let server = try oneCallOrigin()
        defer { server.stop() }
        let directory = temporaryDirectory("owm-alerts-record")
        let cache = temporaryDirectory("owm-alerts-cache")
        let configuration = try Self.configuration(server)
        let live = await runCLI(["alerts", "New York", "--config", configuration, "--record", directory],
                                environment: ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": cache], transport: curl)
        #expect(live.code == 0, "\(live.stdout)\(live.stderr)")
        #expect(live.lines.contains { $0.hasPrefix("ALERT Winter Storm Warning until Sun Nov 29 18:00 · OpenWeatherMap") })
        // One request: the point, every part of One Call but the alerts excluded, the key as `appid`.
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1 && request.path == "/data/3.0/onecall")
        #expect(request.parameter("lat") == "40.7143" && request.parameter("lon") == "-74.006")
        #expect(request.parameter("exclude") == "current,minutely,hourly,daily" && request.parameter("appid") == sentinelKey)
        #expect(Set(request.query.split(separator: "&").map { String($0.prefix { $0 != "=" }) }) == ["lat", "lon", "exclude", "appid"])
        let recorded = try filesText(directory)
        #expect(recorded.contains("/data/3.0/onecall") && recorded.contains("Coastal Flood Advisory"))
        #expect(!recorded.contains(sentinelKey) && !recorded.contains("appid"))
        #expect(try !filesContain(cache, sentinelKey))
        let replayed = await runCLI(["alerts", "New York", "--config", configuration, "--replay", directory])
        #expect(replayed.code == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(replayed.lines.filter { $0.hasPrefix("ALERT ") } == live.lines.filter { $0.hasPrefix("ALERT ") })
        for text in [live.stdout, live.stderr, replayed.stdout, replayed.stderr] { #expect(!text.contains(sentinelKey)) }
    }
}

/// The New York demo: the NWS's Winter Storm Warning and OpenWeatherMap's copy of it shown once, naming both; the advisory
/// only OpenWeatherMap lists shown with its severity unknown.
@Suite struct OpenWeatherMapAlertsDemoTests {
    @Test func theWarningBothSendIsShownOnceNamingBoth() async throws {
        let run = await runCLI(["alerts", "New York", "--demo"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.lines.filter { $0.contains("Winter Storm Warning until") } == ["SEVERE Winter Storm Warning until Sun Nov 29 18:00 · NWS, OpenWeatherMap"])
        #expect(run.lines.contains("ALERT Coastal Flood Advisory until Sat Nov 28 14:00 · OpenWeatherMap"))
        #expect(run.lines.contains("  Severity unknown, urgency unknown, certainty unknown; from Sat Nov 28 10:00"))
        #expect(run.lines.contains("  Tags: Coastal event, Flood"))
        let json = try parseLines(await runCLI(["alerts", "New York", "--demo", "--format", "jsonl"]))
        let warning = try #require(json.first { (try? $0.string("event")) == "Winter Storm Warning" })
        #expect(try warning.member("providers").elements().map { try $0.string() } == ["nws-alerts", "openweathermap-alerts"])
        #expect(try warning.string("provider") == "nws-alerts")
        #expect(try warning.member(ifPresent: "tags") == nil, "the NWS gives no tags")
        let flood = try #require(json.first { (try? $0.string("event")) == "Coastal Flood Advisory" })
        #expect(try flood.string("severity") == "Unknown" && flood.member("sent").isNull && flood.string("identifier") == "Coastal Flood Advisory@2026-11-28T15:00:00+00:00")
        #expect(try flood.member("tags").elements().map { try $0.string() } == ["Coastal event", "Flood"])
    }

    @Test func aPlaceTheDemoDidNotRecordHasItsWarningsUnknownNotNone() async throws {
        let run = await runCLI(["alerts", "10,10", "--demo"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.lines.contains("No warnings known (no recording of 10,10)"))
        #expect(run.lines.contains("OpenWeatherMap: not recorded — no recording of 10,10"))
        #expect(!run.stdout.contains("cassettes") && !run.stdout.contains("https://"))
        let plain = await runCLI(["alerts", "10,10", "--demo", "--plain"])
        #expect(plain.lines.first == "No warnings are known for 10,10: no recording of it.")
        let json = try parseLines(await runCLI(["alerts", "10,10", "--demo", "--format", "jsonl"]))
        let line = try #require(json.first { (try? $0.string("provider")) == "openweathermap-alerts" })
        #expect(try line.string("status") == "skipped" && line.member("error").string("reason") == "not_recorded")
        // Above the weather, a place not recorded says nothing of warnings, as when no source covers it.
        let weather = await runCLI(["compare", "10,10", "--demo"])
        #expect(!weather.stdout.contains("Warnings from"))
    }

    @Test func aPlaceWithNothingInForceSaysNothingAboveItsWeather() async {
        let run = await runCLI(["now", "London", "--demo"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("OpenWeatherMap unknown") && !run.stdout.contains("Warnings from"))
    }

    @Test func providersCheckAppliesEveryRuleToTheRecordedSource() async {
        let run = await runCLI(["providers", "check", "openweathermap-alerts", "--demo"])
        #expect(run.code == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("Checking openweathermap-alerts (OpenWeatherMap, replay "))
        #expect(run.stdout.contains("alerts have an identifier and an event"))
        #expect(run.lines.last == "All 37 rules checked pass.")
    }
}
