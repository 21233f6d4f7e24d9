import Foundation
import IsobarCLI
import IsobarCore
import Testing

/// `isobar config`: get and set round trips, the rest of the file kept in its order, and what it refuses.
@Suite struct ConfigCommandTests {
    let original = """
    {
      "units": "metric",
      "observations": {"type": "metar", "base_url": "https://aviationweather.gov"},
      "providers": [
        {"id": "open-meteo", "type": "open-meteo", "forecast_days": 10},
        {"id": "met-norway", "type": "met-norway"}
      ],
      "archive_days": 30
    }

    """

    func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func setThenGetRoundTripsAndKeepsTheRestInOrder() async throws {
        let file = try temporaryConfiguration(original)
        for (key, value, shown) in [("units", "imperial", "imperial"), ("open-meteo.weight", "2.5", "2.5"), ("bias_correction", "true", "true"),
                                    ("family_weight", "each", "each"), ("met-norway.enabled", "false", "false"), ("archive_days", "7", "7")] {
            let set = await runCLI(["config", "set", key, value, "--config", file])
            #expect(set.code == 0, "\(key): \(set.stderr)")
            #expect(set.stdout == "Set \(key) = \(shown) in \(file).\n")
            let get = await runCLI(["config", "get", key, "--config", file])
            #expect(get.stdout == shown + "\n", "\(key)")
        }
        let written = try text(file)
        let order = ["\"units\"", "\"observations\"", "\"providers\"", "\"archive_days\"", "\"bias_correction\"", "\"family_weight\""]
        let positions = order.compactMap { written.range(of: $0)?.lowerBound }
        #expect(positions.count == order.count && positions == positions.sorted(), "\(written)")
        #expect(written.contains(#""forecast_days":10"#) && written.contains("aviationweather.gov"))
        let configuration = try Configuration.load(path: file)
        #expect(configuration.units == .imperial)
        #expect(configuration.providers[0].weight == 2.5)
        #expect(configuration.providers[1].enabled == false)
        #expect(configuration.archiveDays == 7)
    }

    @Test func contactIsSetOnEveryEntryThatTakesOne() async throws {
        let file = try temporaryConfiguration(original)
        #expect(await runCLI(["config", "get", "contact", "--config", file]).stdout == "")
        let set = await runCLI(["config", "set", "contact", "ops@example.org", "--config", file, "--json"])
        #expect(set.code == 0)
        let line = try #require(try parseLines(set).first)
        #expect(try line.string("type") == "config_changed" && line.string("value") == "ops@example.org" && line.member("created").bool() == false)
        #expect(try Configuration.load(path: file).providers.map(\.options.contact) == [nil, "ops@example.org"])
        #expect(await runCLI(["config", "get", "contact", "--config", file]).stdout == "ops@example.org\n")
        let none = try temporaryConfiguration(#"{"providers": [{"type": "open-meteo"}]}"#)
        let refused = await runCLI(["config", "set", "contact", "ops@example.org", "--config", none])
        #expect(refused.code == ExitCode.usage.rawValue)
        #expect(refused.stderr.contains("takes a contact (types that do: met-norway, nws-alerts, met-alerts)"))
    }

    @Test func getShowsDefaultsAndListShowsEverySetting() async throws {
        let file = try temporaryConfiguration(original)
        #expect(await runCLI(["config", "get", "weights", "--config", file]).stdout == "equal\n")
        #expect(await runCLI(["config", "get", "open-meteo.weight", "--config", file]).stdout == "1\n")
        let list = await runCLI(["config", "--config", file])
        #expect(list.code == 0)
        #expect(list.stdout.hasPrefix("Settings of \(file):\n\nunits = metric\n"))
        #expect(list.stdout.contains("archive_days = 30\n"))
        #expect(list.stdout.contains("weights = equal (default)\n"))
        #expect(list.stdout.contains("open-meteo.forecast_days = 10\n"))
        #expect(list.stdout.contains("contact = (not set)\n"))
        let lines = await runCLI(["config", "list", "--config", file, "--json"])
        let values = try parseLines(lines)
        #expect(values.count == list.lines.count - 1)
        let units = try #require(values.first { try $0.string("key") == "units" })
        #expect(try units.string("value") == "metric" && units.member("set").bool() == true && units.string("file") == file)
    }

    @Test func aPasswordIsMaskedWhenShown() async throws {
        let file = try temporaryConfiguration(#"{"shared_store": "redis://worker:hunter2@cache.internal:6379/0", "providers": []}"#)
        let get = await runCLI(["config", "get", "shared_store", "--config", file])
        #expect(get.stdout == "redis://worker:***@cache.internal:6379/0\n")
        let list = await runCLI(["config", "--config", file, "--json"])
        #expect(!list.stdout.contains("hunter2"))
    }

    @Test func withoutAFileSetMakesYoursFromTheBundledDefaults() async throws {
        let home = temporaryDirectory("config-home")
        let path = home + "/isobar/config.json"
        let where_ = await runCLI(["config", "path"], environment: ["XDG_CONFIG_HOME": home])
        #expect(where_.stdout == path + "\n")
        let json = await runCLI(["config", "path", "--json"], environment: ["XDG_CONFIG_HOME": home])
        #expect(try parseLines(json).first?.member("exists").bool() == false)
        #expect(await runCLI(["config", "get", "units"], environment: ["XDG_CONFIG_HOME": home]).stdout == "metric\n")
        #expect(!FileManager.default.fileExists(atPath: path), "reading makes no file")
        let set = await runCLI(["config", "set", "units", "standard"], environment: ["XDG_CONFIG_HOME": home])
        #expect(set.code == 0, "\(set.stderr)")
        #expect(set.stdout.contains("made with the bundled defaults' providers"))
        let configuration = try Configuration.load(path: path)
        #expect(configuration.units == .standard)
        #expect(configuration.providers.map(\.id) == ["openweathermap", "open-meteo", "met-norway"])
    }

    @Test func badKeysAreUsageErrorsWithTheNearestName() async throws {
        let file = try temporaryConfiguration(original)
        for (arguments, message) in [
            (["get", "unit"], "unknown setting 'unit'; did you mean 'units'?"),
            (["set", "nosuch.weight", "2"], "no provider 'nosuch' in \(file); providers are open-meteo, met-norway"),
            (["set", "open-meteo.wieght", "2"], "unknown provider setting 'wieght'; did you mean 'open-meteo.weight'?"),
            (["get"], "'config get KEY' needs a KEY"),
            (["set", "units"], "'config set KEY VALUE' needs a KEY and a VALUE"),
            (["path", "extra"], "unexpected argument 'extra' for 'config path'"),
            (["gte", "units"], "unknown config action 'gte'; did you mean 'get'?"),
        ] {
            let run = await runCLI(["config"] + arguments + ["--config", file])
            #expect(run.code == ExitCode.usage.rawValue, "\(arguments)")
            #expect(run.stderr.hasPrefix("isobar: " + message), "\(arguments): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
        #expect(try text(file) == original)
    }

    @Test func badValuesChangeNothing() async throws {
        let file = try temporaryConfiguration(original)
        for (key, value, message) in [
            ("units", "kelvin", "units takes metric, imperial, standard, not 'kelvin'"),
            ("archive_days", "-1", "archive_days takes a whole number from 0 to 3650, not '-1'"),
            ("open-meteo.weight", "-2", "weight takes a number of at least 0, not '-2'"),
            ("bias_correction", "yes", "bias_correction takes true or false, not 'yes'"),
            ("contact", "nobody", "contact takes an e-mail address or an http(s) URL, not 'nobody'"),
            ("open-meteo.api_key_env", "MY KEY", "api_key_env takes a variable name"),
            ("open-meteo.base_url", "http://example.com", "cannot set open-meteo.base_url: \(file): $.providers[0].base_url must use https"),
            ("shared_store", "http://cache", "cannot set shared_store: \(file): shared_store:"),
        ] {
            let run = await runCLI(["config", "set", key, value, "--config", file])
            #expect(run.code == ExitCode.usage.rawValue, "\(key)")
            #expect(run.stderr.hasPrefix("isobar: " + message), "\(key): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
        #expect(try text(file) == original)
        let broken = try temporaryConfiguration(#"{"providers": [{"type": "open-meteo", "colour": "red"}]}"#)
        let refused = await runCLI(["config", "set", "units", "imperial", "--config", broken])
        #expect(refused.code == ExitCode.configuration.rawValue)
        #expect(refused.stderr.contains("nothing was changed (fix the file first)"))
    }
}
