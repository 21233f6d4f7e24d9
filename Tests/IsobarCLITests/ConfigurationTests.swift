import Foundation
import IsobarCLI
import Testing

/// Writes a configuration into a fresh temporary directory and returns its path.
func temporaryConfiguration(_ text: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("config.json")
    try text.write(to: file, atomically: true, encoding: .utf8)
    return file.path
}

@Suite struct ConfigurationTests {
    let sentinel = "SENTINEL-KEY-7f3a"

    @Test func missingKeyIsReportedAndOthersStillAnswer() async throws {
        let config = try temporaryConfiguration("""
        {"providers": [
          {"id": "openweathermap", "type": "openweathermap", "api_key_env": "MY_OWM_KEY"},
          {"id": "open-meteo", "type": "open-meteo", "replay": "\(dataDirectory)/cassettes/open-meteo"}
        ]}
        """)
        let run = await runCLI(["compare", "Minsk", "--config", config])
        #expect(run.code == ExitCode.partial.rawValue)
        #expect(run.stdout.contains("OpenWeatherMap: not configured — OpenWeatherMap needs an API key: set MY_OWM_KEY"))
        #expect(run.stdout.contains("Open-Meteo"))

        let jsonl = try parseLines(await runCLI(["compare", "Minsk", "--config", config, "--format", "jsonl"]))
        let error = try #require(jsonl.first { (try? $0.string("type")) == "provider_error" })
        #expect(try error.member("error").string("code") == "not_configured")
        #expect(try jsonl.last?.member("failed_providers").stringsOrNulls() == ["openweathermap"])
    }

    @Test func noNetworkMeansNoneAnsweredAndTheKeyNeverShows() async throws {
        // The roomy deadline every test not about deadlines has (see `withRoomyDeadline`): a machine busy with the rest of
        // the suite must not decide the outcome.
        let run = await runCLI(["compare", "Minsk", "--config", dataDirectory + "/isobar.json"],
                               environment: ["OPENWEATHERMAP_API_KEY": sentinel])
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        #expect(run.stdout.contains("api.openweathermap.org was not contacted"))
        #expect(!run.stdout.contains(sentinel))
        #expect(!run.stderr.contains(sentinel))
        let jsonl = await runCLI(["compare", "Minsk", "--config", dataDirectory + "/isobar.json", "--format", "jsonl"],
                                 environment: ["OPENWEATHERMAP_API_KEY": sentinel])
        #expect(!jsonl.stdout.contains(sentinel))
    }

    @Test(arguments: [
        ("{\"providers\": [{\"type\": \"open-meteoo\"}]}", "unknown provider type 'open-meteoo'; did you mean 'open-meteo'?"),
        ("{\"providers\": [{\"type\": \"open-meteo\", \"bas_url\": \"x\"}]}", "unknown key 'bas_url'"),
        ("{\"providers\": [{\"type\": \"open-meteo\", \"base_url\": \"ftp://x\"}]}", "base_url is not an http(s) URL"),
        ("{\"units\": \"kelvin\", \"providers\": []}", "units must be metric, imperial or standard"),
        ("{\"providers\": [{\"type\": \"open-meteo\"}, {\"type\": \"open-meteo\"}]}", "two providers have the id 'open-meteo'"),
        ("{\"providers\": [{\"type\": \"open-meteo\", \"replay\": \"/nonexistent/cassettes\"}]}", "cannot read the cassette directory"),
        ("{\"providers\": [", "invalid JSON"),
        ("{\"providers\": [{\"type\": 7}]}", "expected string at $.providers[0].type"),
        ("{\"providers\": []}", "no provider is enabled"),
        ("{\"providers\": [{\"type\": \"open-meteo\", \"base_url\": \"http://example.com\"}]}", "must use https"),
        ("{\"providers\": [{\"type\": \"open-meteo\", \"geocoding_url\": \"ftp://x\"}]}",
         "$.providers[0].geocoding_url is not an http(s) URL"),
        ("{\"providers\": [{\"type\": \"open-meteo\", \"geocoding_url\": \"http://example.com\"}]}",
         "$.providers[0].geocoding_url must use https"),
        ("{\"providers\": [{\"type\": \"open-meteo\", \"forecast_days\": 20}]}", "a whole number in 1…16"),
        ("{\"units\": \"metric\", \"units\": \"imperial\", \"providers\": [{\"type\": \"open-meteo\"}]}", "$.units is named twice"),
        ("{\"providers\": [{\"type\": \"open-meteo\", \"ttl_s\": {\"current\": 60, \"current\": 0}}]}",
         "$.providers[0].ttl_s.current is named twice"),
        ("{\"providers\": [{\"type\": \"open-meteo\"}], \"providers\": [{\"type\": \"metar\"}]}", "$.providers is named twice"),
    ])
    func badConfigurationIsAOneLineConfigurationError(text: String, message: String) async throws {
        let config = try temporaryConfiguration(text)
        expectOneLineError(await runCLI(["compare", "Minsk", "--config", config]), code: .configuration, containing: message)
    }

    @Test func missingConfigurationFile() async {
        expectOneLineError(await runCLI(["compare", "Minsk", "--config", "/nonexistent/isobar.json"]), code: .configuration,
                           containing: "cannot read the configuration file /nonexistent/isobar.json")
    }

    /// A `config.json` that cannot be read is an error naming it, never a silent fall back to the bundled defaults.
    @Test(arguments: ["loop", "dangling"]) func anUnreadableUserConfigurationIsAnErrorNamingIt(_ kind: String) async throws {
        let configHome = temporaryDirectory("config-home")
        try FileManager.default.createDirectory(atPath: configHome + "/isobar", withIntermediateDirectories: true)
        let file = configHome + "/isobar/config.json"
        let target = kind == "loop" ? file : configHome + "/isobar/missing.json"
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: target)
        let cause = kind == "loop" ? "Too many levels of symbolic links" : "No such file or directory"
        expectOneLineError(await runCLI(["compare", "Minsk"], environment: ["XDG_CONFIG_HOME": configHome]), code: .configuration,
                           containing: "cannot read the configuration file \(file) (\(cause))")
    }

    /// A directory given as the configuration opens, but reading it fails: the system's reason is named.
    @Test func aDirectoryGivenAsTheConfigurationIsAnErrorNamingIt() async {
        let directory = temporaryDirectory("config-directory")
        expectOneLineError(await runCLI(["compare", "Minsk", "--config", directory]), code: .configuration,
                           containing: "cannot read the configuration file \(directory) (Is a directory)")
    }

    /// A file longer than one read is read whole (here 40 KB of indentation before the settings that matter).
    @Test func aLongConfigurationIsReadToItsEnd() async throws {
        let padding = String(repeating: " ", count: 40_000)
        let config = try temporaryConfiguration("""
        {\(padding)"units": "imperial", "providers": [{"type": "open-meteo", "replay": "\(dataDirectory)/cassettes/open-meteo"}]}
        """)
        let run = await runCLI(["compare", "Minsk", "--config", config])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Temperature (°F)"))
    }

    @Test func userConfigurationIsUsedWhenPresent() async throws {
        let config = try temporaryConfiguration("""
        {"units": "imperial", "providers": [{"type": "open-meteo", "replay": "\(dataDirectory)/cassettes/open-meteo"}]}
        """)
        let configHome = URL(fileURLWithPath: config).deletingLastPathComponent().appendingPathComponent("xdg")
        try FileManager.default.createDirectory(at: configHome.appendingPathComponent("isobar"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: config, toPath: configHome.appendingPathComponent("isobar/config.json").path)
        let run = await runCLI(["compare", "Minsk"], environment: ["XDG_CONFIG_HOME": configHome.path])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Temperature (°F)"))
        #expect(!run.stdout.contains("OpenWeatherMap"))
    }
}
