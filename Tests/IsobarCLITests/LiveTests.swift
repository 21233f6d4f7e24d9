import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

/// The one key every test that needs a key uses; it must never appear in any output or file.
let sentinelKey = "SENTINEL-KEY-7f3a"

/// The recorded body of a bundled cassette as text.
func cassetteText(provider: String, place: String, pathSuffix: String) throws -> String {
    let text = try String(contentsOfFile: "\(dataDirectory)/cassettes/\(provider)/\(place).json", encoding: .utf8)
    for interaction in try JSONDocument(parsing: text).rootValue.member("interactions").elements()
    where try interaction.member("request").string("url").contains(pathSuffix + "?") {
        return try interaction.member("response").string("body")
    }
    throw CocoaError(.fileReadNoSuchFile)
}

/// A loopback server answering both providers' paths for Minsk from the bundled cassettes, or with `status` for OpenWeatherMap.
func providerServer(owmStatus: Int = 200, owmBody: String? = nil, headers: [(String, String)] = []) throws -> LoopbackServer {
    let weather = try cassetteText(provider: "openweathermap", place: "minsk", pathSuffix: "/data/2.5/weather")
    let forecast = try cassetteText(provider: "openweathermap", place: "minsk", pathSuffix: "/data/2.5/forecast")
    let meteo = try cassetteText(provider: "open-meteo", place: "minsk", pathSuffix: "/v1/forecast")
    let json = [("Content-Type", "application/json; charset=utf-8")] + headers
    return try LoopbackServer { request in
        switch request.path {
        case "/data/2.5/weather": .init(status: owmStatus, owmBody ?? weather, headers: json)
        case "/data/2.5/forecast": .init(status: owmStatus, owmBody ?? forecast, headers: json)
        case "/v1/forecast": .init(meteo, headers: json)
        default: .init(status: 404, #"{"cod":"404","message":"not found"}"#, headers: json)
        }
    }
}

/// A configuration pointing both providers at `server`, the key in TEST_OWM_KEY.
func liveConfiguration(_ server: LoopbackServer, extra: String = "") throws -> String {
    try temporaryConfiguration("""
    {"providers": [
      {"id": "openweathermap", "type": "openweathermap", "api_key_env": "TEST_OWM_KEY", "base_url": "\(server.baseURL)"\(extra)},
      {"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)"\(extra)}
    ]}
    """)
}

/// A loopback server answering OpenWeatherMap's current weather and forecast and Open-Meteo's forecast for Minsk as recorded,
/// the current weather's body changed by `edit`.
func minskServer(editingWeather edit: @escaping @Sendable (String) -> String = { $0 }) throws -> LoopbackServer {
    let weather = edit(try cassetteText(provider: "openweathermap", place: "minsk", pathSuffix: "/data/2.5/weather"))
    let forecast = try cassetteText(provider: "openweathermap", place: "minsk", pathSuffix: "/data/2.5/forecast")
    let meteo = try cassetteText(provider: "open-meteo", place: "minsk", pathSuffix: "/v1/forecast")
    let json = [("Content-Type", "application/json; charset=utf-8")]
    return try LoopbackServer { request in
        switch request.path {
        case "/data/2.5/weather": .init(weather, headers: json)
        case "/data/2.5/forecast": .init(forecast, headers: json)
        case "/v1/forecast": .init(meteo, headers: json)
        default: .init(status: 404, #"{"cod":"404","message":"not found"}"#, headers: json)
        }
    }
}

/// True when any file under a directory holds `text`'s bytes.
func filesContain(_ directory: String, _ text: String) throws -> Bool {
    let paths = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
    let needle = Data(text.utf8)
    return paths.contains { path in
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory)
        guard !isDirectory.boolValue else { return false }
        // The store's threads may still be closing: its -wal and -shm files can vanish while we look.
        guard let data = FileManager.default.contents(atPath: directory + "/" + path) else { return false }
        return data.range(of: needle) != nil
    }
}

/// Every file under a directory, as text.
func filesText(_ directory: String) throws -> String {
    let paths = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
    return try paths.map { path -> String in
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory)
        return isDirectory.boolValue ? "" : try String(contentsOfFile: directory + "/" + path, encoding: .utf8)
    }.joined(separator: "\n")
}

@Suite(.serialized) struct LiveTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    @Test func bothAdaptersAnswerOverRealHTTP() async throws {
        let server = try providerServer()
        let run = await runCLI(["compare", "Minsk", "--config", try liveConfiguration(server), "--format", "jsonl"],
                               environment: ["TEST_OWM_KEY": sentinelKey], transport: curl)
        #expect(run.code == 0, "\(run.stdout)\(run.stderr)")
        let lines = try parseLines(run)
        let owm = try resultLine(lines, provider: "openweathermap")
        #expect(try owm.member("source").string("kind") == "live")
        #expect(try owm.member("current").double("temperature") == 0.04)
        #expect(try resultLine(lines, provider: "open-meteo").member("current").double("temperature") == -0.9)
        // The key went to the server, and nowhere else.
        let weatherRequest = try #require(server.requests.first { $0.path == "/data/2.5/weather" })
        #expect(weatherRequest.parameter("appid") == sentinelKey)
        #expect(weatherRequest.headers["user-agent"] == "isobar/test")
        #expect(!run.stdout.contains(sentinelKey) && !run.stderr.contains(sentinelKey))
    }

    @Test(arguments: [
        (401, #"{"cod":401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#, "unauthorized"),
        (404, #"{"cod":"404","message":"city not found"}"#, "not_found"),
        (400, #"{"cod":"400","message":"wrong latitude"}"#, "bad_request"),
        (429, #"{"cod":429, "message": "Your account is temporary blocked due to exceeding of requests limitation of your subscription type."}"#, "rate_limited"),
        (500, "<html>Internal Server Error</html>", "unavailable"),
        (503, "<html>Service Unavailable</html>", "unavailable"),
    ])
    func failingProviderIsReportedAndTheOtherStillAnswers(status: Int, body: String, code: String) async throws {
        let server = try providerServer(owmStatus: status, owmBody: body, headers: status == 429 ? [("Retry-After", "30")] : [])
        let run = await runCLI(["compare", "Minsk", "--config", try liveConfiguration(server), "--format", "jsonl"],
                               environment: ["TEST_OWM_KEY": sentinelKey], transport: curl)
        #expect(run.code == ExitCode.partial.rawValue)
        let lines = try parseLines(run)
        let failure = try #require(lines.first { (try? $0.string("type")) == "provider_error" })
        #expect(try failure.member("error").string("code") == code)
        if status == 429 { #expect(try failure.member("error").double("retry_after_s") == 30) }
        #expect(try resultLine(lines, provider: "open-meteo").member("current").double("temperature") == -0.9)
        #expect(!run.stdout.contains(sentinelKey) && !run.stderr.contains(sentinelKey))
    }

    @Test func unreachableProvidersAreReportedPlainly() async throws {
        let server = try LoopbackServer { _ in .init("{}") }
        let config = try liveConfiguration(server)
        server.stop()
        let run = await runCLI(["compare", "Minsk", "--config", config], transport: curl)
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        #expect(run.stdout.contains("OpenWeatherMap: not configured — OpenWeatherMap needs an API key: set TEST_OWM_KEY"))
        #expect(run.stdout.contains("Open-Meteo: unavailable — 127.0.0.1:\(server.port) refused the connection or is unreachable"))
        #expect(!run.stdout.contains("Fatal") && run.stderr.isEmpty)
    }

    @Test func perProviderTimeoutComesFromTheConfiguration() async throws {
        let server = try LoopbackServer { _ in .init("{}", delaySeconds: 3) }
        let config = try liveConfiguration(server, extra: #", "timeout_s": 0.5"#)
        let run = await runCLI(["compare", "Minsk", "--config", config, "--providers", "open-meteo"], transport: curl)
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        // The budget is 0.5 s (a 10 s one would have the server's answer at 3 s: exit 0). On a loaded machine some of it, or
        // all, may be gone before the request is sent, so the message names what was left of it, or that nothing was: never
        // more than the budget, never the server's 3 s.
        if !run.stdout.contains("no time left before the deadline") {
            let named = try #require(run.stdout.firstMatch(of: /within (?:the |its )?(\d+(?:\.\d+)?) s/).flatMap { Double($0.1) }, "\(run.stdout)")
            #expect(named > 0 && named <= 0.5, "\(run.stdout)")
        }
    }

    @Test func recordThenReplayGivesTheSameOutput() async throws {
        let server = try providerServer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-record-\(UUID().uuidString)").path
        let config = try liveConfiguration(server)
        let live = await runCLI(["compare", "Minsk", "--config", config, "--format", "jsonl", "--record", directory],
                                environment: ["TEST_OWM_KEY": sentinelKey], transport: curl)
        #expect(live.code == 0, "\(live.stderr)")
        #expect(live.stderr.contains("recorded 1 exchange(s) of openweathermap"))
        let requestsBeforeReplay = server.requests.count
        let replayed = await runCLI(["compare", "Minsk", "--config", config, "--format", "jsonl", "--replay", directory])
        #expect(replayed.code == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(server.requests.count == requestsBeforeReplay)
        // Identical but for where the data came from and when it was fetched.
        func normalized(_ run: CLIRun) throws -> [String] {
            try parseLines(run).map { line in
                var text = outputValue(line).serialized()
                for key in ["source", "fetched_at", "outcomes"] { text = text.removingMember(key) }
                return text
            }.sorted()
        }
        #expect(try normalized(live) == normalized(replayed))
        let recorded = try filesText(directory)
        #expect(recorded.contains("isobar-cassette"))
        #expect(!recorded.contains(sentinelKey))
        #expect(!recorded.contains("appid"))
    }

    @Test func recordCannotBeCombinedWithReplay() async {
        expectOneLineError(await runCLI(["compare", "Minsk", "--demo", "--record", "/tmp/x"]), code: .usage, containing: "--record asks live providers")
    }

    @Test func readableConfigurationWithAKeyIsWarnedAbout() async throws {
        let server = try providerServer()
        let config = try temporaryConfiguration("""
        {"providers": [{"type": "openweathermap", "api_key": "\(sentinelKey)", "base_url": "\(server.baseURL)"}]}
        """)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: config)
        let run = await runCLI(["compare", "Minsk", "--config", config], transport: curl)
        #expect(run.stderr.contains("holds an API key and is readable by others; run chmod 600"))
        #expect(!run.stderr.contains(sentinelKey) && !run.stdout.contains(sentinelKey))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config)
        let quiet = await runCLI(["compare", "Minsk", "--config", config], transport: curl)
        #expect(quiet.stderr.isEmpty)
        #expect(quiet.code == 0)
    }
}

/// Rebuilds a parsed JSON value as output, to serialise it canonically.
func outputValue(_ value: JSONValue) -> JSONOutput {
    switch value.kind {
    case .object: return .object(((try? value.members()) ?? []).map { ($0.key, outputValue($0.value)) })
    case .array: return .array(((try? value.elements()) ?? []).map(outputValue))
    case .string: return .string((try? value.string()) ?? "")
    case .number: return .number((try? value.double()) ?? .nan)
    case .bool: return .bool((try? value.bool()) ?? false)
    case .null: return .null
    }
}

extension String {
    /// The compact JSON text without the top-level member `key`.
    func removingMember(_ key: String) -> String {
        guard let document = try? JSONDocument(parsing: self), let members = try? document.rootValue.members() else { return self }
        return JSONOutput.object(members.filter { $0.key != key }.map { ($0.key, outputValue($0.value)) }).serialized()
    }
}
