import Foundation
@testable import IsobarCLI
import IsobarCore
import IsobarHTTP
@testable import IsobarRender
import IsobarTestKit
import Synchronization
import Testing

/// Fails every request as a host name that does not resolve would (the hook for "no network": no real lookup is made),
/// counting the hosts asked.
final class UnresolvedTransport: Transport {
    private let asked = Mutex<[String]>([])

    /// Every host asked, in order, once per request.
    var hosts: [String] { asked.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        let host = request.url.host
        asked.withLock { $0.append(host) }
        throw ProviderError(.unavailable, "\(request.origin): cannot resolve \(host) (DNS failure or no network)", reason: .dnsFailure)
    }
}

/// Answers every request with HTTP 429 and a Retry-After of an hour, counting the requests.
final class TooManyRequestsTransport: Transport {
    private let count = Mutex(0)

    /// Requests answered.
    var requests: Int { count.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        count.withLock { $0 += 1 }
        return HTTPResponse(status: 429, headers: [HTTPHeader("Retry-After", "3600")], body: [])
    }
}

/// What a new user sees when nothing answers: one verdict line naming the cause and the next step, in every format.
@Suite struct FirstRunVerdictTests {
    /// The verdict of the bundled default configuration with no key, no contact and no network.
    static let defaultOffline = "No provider answered: OpenWeatherMap and MET Norway are not set up; Open-Meteo could not be reached. "
        + "Next: set OPENWEATHERMAP_API_KEY (OpenWeatherMap) and ISOBAR_CONTACT (MET Norway), or run isobar setup; "
        + "check the network connection; or add --demo to see recorded data."

    @Test func theDefaultConfigurationOfflineSaysWhatIsMissingAndWhatToDo() async {
        let network = UnresolvedTransport()
        let run = await runCLI(["compare", "Minsk"], transport: { network })
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        #expect(run.lines.last == Self.defaultOffline)
        #expect(run.lines.contains("OpenWeatherMap: not configured — OpenWeatherMap needs an API key: set OPENWEATHERMAP_API_KEY"))
        // With no file of the user's, the message says where one goes and what writes it.
        #expect(run.lines.contains(#"MET Norway: not configured — MET Norway's terms ask for a contact (an e-mail address or URL): set "#
            + #"ISOBAR_CONTACT, or "contact" in a "met-norway" entry of /nonexistent-config/isobar/config.json (isobar setup writes that file)"#))
        #expect(run.lines.contains { $0.hasPrefix("Open-Meteo: ") && $0.contains("cannot resolve api.open-meteo.com") })
        // Only Open-Meteo was asked, once (and its air-quality host, for the air sources `compare` shows after the weather):
        // a name that does not resolve is not asked again, the providers that are not set up send nothing, and no
        // observation is asked when no forecast came.
        #expect(network.hosts.sorted() == ["air-quality-api.open-meteo.com", "api.open-meteo.com"])
    }

    @Test func theVerdictIsTheLastSentenceOfPlainOutput() async {
        let run = await runCLI(["compare", "Minsk", "--plain"], transport: { UnresolvedTransport() })
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        #expect(run.lines.first == "No provider answered for Minsk, Minsk City, Belarus.")
        #expect(run.lines.last == Self.defaultOffline)
    }

    @Test func theVerdictIsAFieldOfTheConsensusLine() async throws {
        let run = await runCLI(["compare", "Minsk", "--format", "jsonl"], transport: { UnresolvedTransport() })
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        let consensus = try #require(run.lines.last)
        let line = try JSONSerialization.jsonObject(with: Data(consensus.utf8)) as? [String: Any]
        #expect(line?["type"] as? String == "consensus")
        let verdict = try #require(line?["diagnosis"] as? [String: Any])
        #expect(verdict["cause"] as? String == "mixed")
        #expect(verdict["answered"] as? Int == 0)
        #expect(verdict["needed"] as? Int == 1)
        #expect(verdict["settings"] as? [String] == ["OPENWEATHERMAP_API_KEY", "ISOBAR_CONTACT"])
        #expect("\(verdict["message"] as? String ?? "") \(verdict["next_step"] as? String ?? "")" == Self.defaultOffline)
        // The provider lines carry no verdict, and a run where providers answer has none.
        #expect(run.lines.dropLast().allSatisfy { !$0.contains(#""diagnosis""#) })
        let demo = await runCLI(["compare", "Minsk", "--demo", "--format", "jsonl"])
        #expect(demo.code == 0)
        #expect(!demo.stdout.contains(#""diagnosis""#))
    }

    @Test func verboseNamesTheObservationStepItSkips() async {
        let network = UnresolvedTransport()
        let run = await runCLI(["compare", "Minsk", "--verbose"], transport: { network })
        #expect(run.stderr.contains("isobar: note: observations: not asked, as no provider answered"))
        #expect(!network.hosts.contains("aviationweather.gov"))
    }

    @Test func noBreakerJargonAfterManyFailingRuns() async {
        let network = UnresolvedTransport()
        let cache = ["XDG_CACHE_HOME": temporaryDirectory("verdict-breaker")]
        var runs: [CLIRun] = []
        for _ in 1...7 { runs.append(await runCLI(["compare", "Minsk"], environment: cache, transport: { network })) }
        for run in runs {
            #expect(run.code == ExitCode.noneAnswered.rawValue)
            for jargon in ["in a row", "half-open", "probing"] { #expect(!run.stdout.contains(jargon), "\(run.stdout)") }
        }
        // Five failed commands open the breaker: the next ones leave Open-Meteo alone and say so in plain words.
        #expect(network.hosts.filter { $0 == "api.open-meteo.com" }.count == 5)
        let skipped = runs[5].lines.first { $0.hasPrefix("Open-Meteo: ") }
        #expect(skipped?.hasPrefix("Open-Meteo: skipped — not asked for the next ") == true)
        // The real cause stays in view, not only the count.
        #expect(skipped?.contains("after 5 failed attempts; the last: cannot resolve api.open-meteo.com") == true, "\(skipped ?? "")")
        #expect(runs[6].lines.last?.hasPrefix("No provider answered: OpenWeatherMap and MET Norway are not set up; "
            + "Open-Meteo is rate-limited or paused. Next: set OPENWEATHERMAP_API_KEY") == true)
        #expect(runs[6].lines.last?.contains("try again later") == true)
        // `isobar providers` shows the same cause beside the breaker.
        let providers = await runCLI(["providers"], environment: cache, transport: { network })
        #expect(providers.stdout.contains("breaker: open since "), "\(providers.stdout)")
        #expect(providers.stdout.contains("(after 5 failed attempts; the last: cannot resolve api.open-meteo.com"), "\(providers.stdout)")
    }

    @Test(.tags(.realTime)) func everyConnectionRefusedIsOffline() async throws {
        let server = try LoopbackServer { _ in .init("{}") }
        let base = server.baseURL
        server.stop()
        let config = try temporaryConfiguration("""
        {"providers": [
          {"id": "open-meteo", "type": "open-meteo", "base_url": "\(base)"},
          {"id": "met-norway", "type": "met-norway", "base_url": "\(base)", "contact": "test@example.org"}
        ]}
        """)
        let run = await runCLI(["compare", "Minsk", "--config", config], transport: { CurlTransport(userAgent: "isobar/test") })
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        #expect(run.lines.last == "No provider answered: none could be reached (no network, a DNS failure or connections refused). "
            + "Next: check the network connection; or add --demo to see recorded data.")
    }

    @Test func noKeyAnywhereIsNotConfiguredAndCountsNothing() async throws {
        let config = try temporaryConfiguration("""
        {"providers": [
          {"id": "owm-a", "type": "openweathermap", "api_key_env": "OWM_A_KEY"},
          {"id": "owm-b", "type": "openweathermap", "api_key_env": "OWM_B_KEY"},
          {"id": "met-norway", "type": "met-norway"}
        ]}
        """)
        let network = UnresolvedTransport()
        let cache = ["XDG_CACHE_HOME": temporaryDirectory("verdict-keys")]
        let run = await runCLI(["compare", "Minsk", "--config", config], environment: cache, transport: { network })
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        #expect(run.lines.last == "No provider answered: none is set up yet (a key or a contact is missing). "
            + "Next: set OWM_A_KEY (owm-a), OWM_B_KEY (owm-b) and ISOBAR_CONTACT (MET Norway), or run isobar setup; "
            + "or add --demo to see recorded data.")
        // Two entries of one type are told apart by their ids; the message names the file the entry is in.
        #expect(run.lines.contains("owm-a: not configured — OpenWeatherMap needs an API key: set OWM_A_KEY"))
        #expect(run.lines.contains("owm-b: not configured — OpenWeatherMap needs an API key: set OWM_B_KEY"))
        #expect(run.lines.contains { $0.hasSuffix(#"or "contact" in the "met-norway" entry of \#(config)"#) })
        // Nothing was sent, so nothing counts against the rate limits.
        #expect(network.hosts.isEmpty)
        let info = await runCLI(["providers", "--config", config, "--format", "jsonl"], environment: cache)
        let limits = try info.lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            .filter { ($0["provider"] as? String)?.hasPrefix("owm-") == true }
            .flatMap { ($0["rate_limits"] as? [[String: Any]]) ?? [] }
        #expect(!limits.isEmpty)
        #expect(limits.allSatisfy { ($0["used"] as? Double) == 0 })
    }

    @Test func everyProviderPausedIsRateLimited() async throws {
        let config = try temporaryConfiguration("""
        {"providers": [
          {"id": "open-meteo", "type": "open-meteo"},
          {"id": "met-norway", "type": "met-norway", "contact": "test@example.org"}
        ]}
        """)
        let network = TooManyRequestsTransport()
        let run = await runCLI(["compare", "Minsk", "--config", config], transport: { network })
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        #expect(network.requests == 2)
        #expect(run.lines.last == "No provider answered: every provider is rate-limited or paused for now. "
            + "Next: try again later; or add --demo to see recorded data.")
        let json = await runCLI(["compare", "Minsk", "--config", config, "--format", "jsonl"], transport: { network })
        #expect(json.lines.last?.contains(#""diagnosis":{"cause":"rate_limited","answered":0,"needed":1,"#) == true)
    }

    @Test func tooFewAnswersForMinProvidersNameWhoFailed() async throws {
        let config = try temporaryConfiguration("""
        {"providers": [
          {"id": "openweathermap", "type": "openweathermap", "replay": "\(dataDirectory)/cassettes/openweathermap"},
          {"id": "met-norway", "type": "met-norway"}
        ]}
        """)
        let run = await runCLI(["compare", "Minsk", "--config", config, "--min-providers", "2"], transport: { UnresolvedTransport() })
        #expect(run.code == ExitCode.quorumNotMet.rawValue)
        #expect(run.lines.last == "Only 1 answered of the 2 --min-providers asks for: MET Norway is not set up. "
            + "Next: set ISOBAR_CONTACT (MET Norway), or run isobar setup; or add --demo to see recorded data.")
        // Enough answers: no verdict.
        let enough = await runCLI(["compare", "Minsk", "--config", config], transport: { UnresolvedTransport() })
        #expect(enough.code == ExitCode.partial.rawValue)
        #expect(!enough.stdout.contains("Next:"))
    }

    @Test func theDemoIsNotSuggestedToTheDemo() async {
        let run = await runCLI(["compare", "10,10", "--demo"])
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        #expect(run.lines.last?.hasPrefix("No provider answered: ") == true)
        #expect(run.lines.last?.contains("add --demo") == false)
    }
}

/// Judging failures alone, without a command around them.
@Suite struct VerdictTests {
    let context: RenderContext = {
        var context = RenderContext(view: .compare, place: Place(name: "Minsk", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!),
                                    units: .metric, providers: [("a", "A"), ("b", "B")], color: false, now: Date())
        context.configured = [("a", "A", ["a"]), ("b", "B", ["b"])]
        return context
    }()

    @Test func enoughAnswersHaveNoVerdict() {
        #expect(Verdict.judge([("b", ProviderError(.timeout, "B: slow"))], answered: 1, context: context) == nil)
        var strict = context
        strict.minimumAnswers = 2
        #expect(Verdict.judge([("b", ProviderError(.timeout, "B: slow"))], answered: 1, context: strict)?.needed == 2)
    }

    @Test(arguments: [
        (ProviderError(.unavailable, "x", reason: .dnsFailure), Verdict.Cause.offline),
        (ProviderError(.unavailable, "x", reason: .connectTimeout), .offline),
        (ProviderError(.notConfigured, "x"), .notConfigured),
        (ProviderError(.unauthorized, "x"), .notConfigured),
        (ProviderError(.rateLimited(retryAfterSeconds: 30), "x", reason: .localLimit), .rateLimited),
        (ProviderError(.unavailable, "x", reason: .breakerOpen), .rateLimited),
        (ProviderError(.timeout, "x", reason: .deadline), .failed),
        (ProviderError(.badResponse(path: "$"), "x"), .failed),
    ])
    func aCauseSharedByEveryFailureIsNamed(_ error: ProviderError, _ cause: Verdict.Cause) {
        #expect(Verdict.judge([("a", error), ("b", error)], answered: 0, context: context)?.cause == cause)
    }

    @Test func differentCausesAreMixedAndEachIsNamed() throws {
        let verdict = try #require(Verdict.judge([("a", ProviderError(.notConfigured, "x", setting: "A_KEY")),
                                                  ("b", ProviderError(.timeout, "y"))], answered: 0, context: context))
        #expect(verdict.cause == .mixed)
        #expect(verdict.summary == "No provider answered: A is not set up; B failed.")
        #expect(verdict.nextStep == "Next: set A_KEY (A), or run isobar setup; or add --demo to see recorded data.")
        #expect(verdict.settings == ["A_KEY"])
    }

    @Test func placesOutsideEveryCoverageAreNoFaultUntilNothingElseHappened() throws {
        let outside = ProviderError(.unsupported, "x", reason: .outsideCoverage)
        let only = try #require(Verdict.judge([("a", outside), ("b", outside)], answered: 0, context: context))
        #expect(only.cause == .outsideCoverage)
        #expect(only.summary == "No provider answered: no configured provider covers Minsk.")
        let withOther = try #require(Verdict.judge([("a", outside), ("b", ProviderError(.notConfigured, "y"))], answered: 0, context: context))
        #expect(withOther.cause == .notConfigured)
    }

    @Test func twoSourcesOfOneNameAreToldApartByTheirIds() {
        let named = RenderContext.distinct([("owm-a", "OpenWeatherMap"), ("owm-b", "OpenWeatherMap"), ("met-norway", "MET Norway")])
        #expect(named.map(\.name) == ["owm-a", "owm-b", "MET Norway"])
    }
}

/// Every configured source shows, failed or not, and every id output prints is accepted back.
@Suite struct EverySourceShownTests {
    /// OpenWeatherMap replayed, and a live Open-Meteo of three models whose one request fails.
    static let multiModel: String = {
        let path = temporaryDirectory("multi-model") + "/config.json"
        let text = """
        {"providers": [
          {"id": "openweathermap", "type": "openweathermap", "replay": "\(dataDirectory)/cassettes/openweathermap"},
          {"id": "open-meteo", "type": "open-meteo", "models": ["ecmwf_ifs025", "gfs_seamless", "icon_seamless"]}
        ]}
        """
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }()

    @Test(arguments: [("multi-model-failure-compare-table.txt", [String]()), ("multi-model-failure-compare-plain.txt", ["--plain"]),
                      ("multi-model-failure-forecast-table.txt", ["--days", "2"])])
    func aFailedMultiModelProviderIsShown(golden: String, extra: [String]) async throws {
        let command = golden.contains("forecast") ? "forecast" : "compare"
        let run = await runCLI([command, "Minsk", "--config", Self.multiModel] + extra, transport: { UnresolvedTransport() })
        #expect(run.code == ExitCode.partial.rawValue, "\(run.stderr)")
        #expect(run.stdout.contains("Open-Meteo (ECMWF IFS"))
        let path = packageRoot + "/Tests/IsobarCLITests/Golden/" + golden
        let actual = Array(run.stdout.utf8)
        if ProcessInfo.processInfo.environment["ISOBAR_UPDATE_GOLDEN"] == "1" { try Data(actual).write(to: URL(fileURLWithPath: path)) }
        let expected = try #require(FileManager.default.contents(atPath: path).map(Array.init), "\(golden) is missing")
        if let difference = GoldenOutputTests.firstDifference(expected: expected, actual: actual) { Issue.record("\(golden): \(difference)") }
    }

    @Test func aModelIdSelectsTheEntryThatAsksForIt() async throws {
        let run = await runCLI(["compare", "Minsk", "--demo", "--providers", "open-meteo/ecmwf_ifs025", "--format", "jsonl"])
        #expect(run.code == 0, "\(run.stderr)")
        let line = run.lines.last { $0.contains(#""type":"consensus""#) }
        let consensus = try #require(line.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(consensus["providers"] as? [String] == ["open-meteo/ecmwf_ifs025", "open-meteo/gfs_seamless", "open-meteo/icon_seamless"])
    }

    @Test func providersCheckTakesAModelId() async {
        let run = await runCLI(["providers", "check", "open-meteo/ecmwf_ifs025", "--demo"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Checking open-meteo (Open-Meteo, replay "))
    }

    @Test func providersResetTakesAModelId() async throws {
        let config = try temporaryConfiguration("""
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "models": ["ecmwf_ifs025", "gfs_seamless"]}]}
        """)
        let run = await runCLI(["providers", "reset", "open-meteo/gfs_seamless", "--config", config])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "Cleared the cooldown and breaker of open-meteo.\n")
    }

    @Test func anUnknownModelIdIsAUsageErrorWithASuggestion() async {
        let run = await runCLI(["compare", "Minsk", "--demo", "--providers", "open-meteo/ecmwf_ifs25"])
        #expect(run.code == ExitCode.usage.rawValue)
        #expect(run.stderr.contains("unknown provider 'open-meteo/ecmwf_ifs25'; did you mean 'open-meteo/ecmwf_ifs025'?"))
    }
}
