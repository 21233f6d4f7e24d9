import Foundation
import IsobarCLI
import IsobarCore
import Testing

/// A plug-in program on `PATH` is only listed until the user enables it; enabling and disabling change the configuration file.
@Suite(.serialized) struct ProvidersEnableTests {
    /// This machine's PATH, for sh.
    let systemPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"

    /// A folder holding `isobar-provider-spy`, a `fetch` plug-in that leaves the file `ran` beside itself whenever it runs.
    func spyFolder() -> String {
        let folder = temporaryDirectory("spy-bin")
        let text = """
        #!/bin/sh
        input=$(cat)
        echo ran >> "$(dirname "$0")/ran"
        case "$input" in
        *'"call":"describe"'*) echo '{"protocol":1,"ok":true,"describe":{"id":"spy","name":"Spy","kinds":["current"],"coverage":"global","mode":"fetch"}}' ;;
        *) echo '{"protocol":1,"ok":true,"report":{"units":"si","current":{"time":"2026-11-28T09:00:00Z","temperature_c":3.5}}}' ;;
        esac
        """
        _ = FileManager.default.createFile(atPath: folder + "/isobar-provider-spy", contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
        return folder
    }

    /// True when the spy in `folder` has run.
    func ran(_ folder: String) -> Bool { FileManager.default.fileExists(atPath: folder + "/ran") }

    /// The providers a JSON-lines run answered or failed with.
    func providerIDs(_ run: CLIRun) -> [String] {
        ((try? parseLines(run)) ?? []).compactMap { try? $0.string("provider") }
    }

    /// The environment of a user whose configuration folder is `configHome`, with the spy on `PATH`.
    func environment(_ bin: String, configHome: String = "/nonexistent-config") -> [String: String] {
        ["PATH": "\(bin):\(systemPath)", "XDG_CONFIG_HOME": configHome]
    }

    @Test func aProgramOnPathIsNeverRunUnasked() async throws {
        let bin = spyFolder()
        let config = try temporaryConfiguration(#"{"providers": [{"id": "open-meteo", "type": "open-meteo"}]}"#)
        let demo = await runCLI(["compare", "Minsk", "--demo", "--format", "jsonl"], environment: environment(bin))
        #expect(demo.code == 0, "\(demo.stderr)")
        let live = await runCLI(["compare", "Minsk", "--config", config, "--format", "jsonl"], environment: environment(bin))
        #expect(!providerIDs(live).isEmpty, "\(live.stdout)\(live.stderr)")
        let defaults = await runCLI(["now", "Minsk", "--format", "jsonl"], environment: environment(bin))
        let listed = await runCLI(["providers"], environment: environment(bin))
        #expect(listed.code == 0, "\(listed.stderr)")
        #expect(!ran(bin), "the program on PATH was run without being enabled")
        for run in [demo, live, defaults] { #expect(!providerIDs(run).contains("spy")) }
        #expect(!listed.stdout.contains("spy"))
    }

    @Test func availableListsTheProgramWithoutRunningIt() async throws {
        let bin = spyFolder()
        let table = await runCLI(["providers", "--available"], environment: environment(bin))
        #expect(table.code == 0, "\(table.stderr)")
        #expect(table.stdout.contains("spy: \(bin)/isobar-provider-spy (not enabled)"), "\(table.stdout)")
        let jsonl = await runCLI(["providers", "--available", "--format", "jsonl"], environment: environment(bin))
        let line = try #require(try parseLines(jsonl).first { (try? $0.string("provider")) == "spy" })
        #expect(try line.string("type") == "plugin_available")
        #expect(try line.string("path") == bin + "/isobar-provider-spy")
        #expect(try line.string("state") == "available")
        #expect(!ran(bin))
    }

    @Test func enablingWritesTheEntryAndOnlyThenTheProgramRuns() async throws {
        let bin = spyFolder()
        let configHome = temporaryDirectory("config-home")
        let file = configHome + "/isobar/config.json"
        let enable = await runCLI(["providers", "enable", "spy"], environment: environment(bin, configHome: configHome))
        #expect(enable.code == 0, "\(enable.stderr)")
        #expect(enable.stdout.contains("Enabled spy"))
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let configuration = try Configuration.load(path: file)
        let bundled = try Configuration.load(path: dataDirectory + "/isobar.json")
        #expect(configuration.providers.map(\.id) == bundled.providers.map(\.id) + ["spy"])
        #expect(configuration.observations != nil, "the bundled defaults' other members are kept")
        let spy = try #require(configuration.providers.last)
        #expect(spy.type == "exec" && spy.options.notes == ["program: " + bin + "/isobar-provider-spy"] && spy.enabled)
        #expect(!ran(bin), "enabling does not run the program")

        let compare = await runCLI(["compare", "Minsk", "--format", "jsonl"], environment: environment(bin, configHome: configHome))
        #expect(ran(bin), "\(compare.stdout)\(compare.stderr)")
        #expect(providerIDs(compare).contains("spy"))
        let available = await runCLI(["providers", "--available"], environment: environment(bin, configHome: configHome))
        #expect(available.stdout.contains("spy: \(bin)/isobar-provider-spy (enabled)"))

        let disable = await runCLI(["providers", "disable", "spy"], environment: environment(bin, configHome: configHome))
        #expect(disable.code == 0, "\(disable.stderr)")
        #expect(try Configuration.load(path: file).providers.last.map { ($0.id, $0.enabled) } ?? ("", true) == ("spy", false))
        try FileManager.default.removeItem(atPath: bin + "/ran")
        let after = await runCLI(["compare", "Minsk", "--format", "jsonl"], environment: environment(bin, configHome: configHome))
        #expect(!ran(bin), "a disabled plug-in ran")
        #expect(!providerIDs(after).contains("spy"))
    }

    @Test func enablingKeepsTheFilesOtherContent() async throws {
        let bin = spyFolder()
        let config = try temporaryConfiguration(#"""
        {"units": "imperial", "archive_days": 7, "providers": [{"id": "om", "type": "open-meteo", "weight": 2.5, "enabled": false}]}
        """#)
        let enable = await runCLI(["providers", "enable", "spy", "--config", config], environment: environment(bin))
        #expect(enable.code == 0, "\(enable.stderr)")
        let configuration = try Configuration.load(path: config)
        #expect(configuration.units == .imperial && configuration.archiveDays == 7)
        #expect(configuration.providers.map(\.id) == ["om", "spy"])
        #expect(configuration.providers.first.map { ($0.weight, $0.enabled) } ?? (nil, true) == (2.5, false))
        let again = await runCLI(["providers", "enable", "om", "--config", config], environment: environment(bin))
        #expect(again.code == 0, "\(again.stderr)")
        #expect(try Configuration.load(path: config).providers.first.map { ($0.weight, $0.enabled) } ?? (nil, false) == (2.5, true))
    }

    @Test func aNameNotFoundOrEnabledTwiceIsAUsageError() async throws {
        let bin = spyFolder()
        let configHome = temporaryDirectory("config-home")
        let missing = await runCLI(["providers", "enable", "nothing-here"], environment: environment(bin, configHome: configHome))
        #expect(missing.code == 64)
        #expect(missing.stderr.hasPrefix("isobar: no plug-in program isobar-provider-nothing-here in \(bin):"), "\(missing.stderr)")
        #expect(missing.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: configHome + "/isobar/config.json"), "nothing was written")

        let first = await runCLI(["providers", "enable", "spy"], environment: environment(bin, configHome: configHome))
        #expect(first.code == 0, "\(first.stderr)")
        let written = try String(contentsOfFile: configHome + "/isobar/config.json", encoding: .utf8)
        let twice = await runCLI(["providers", "enable", "spy"], environment: environment(bin, configHome: configHome))
        #expect(twice.code == 64)
        #expect(twice.stderr == "isobar: provider 'spy' is already enabled in \(configHome)/isobar/config.json\n")
        #expect(try String(contentsOfFile: configHome + "/isobar/config.json", encoding: .utf8) == written)
        let unknown = await runCLI(["providers", "disable", "nobody"], environment: environment(bin, configHome: configHome))
        #expect(unknown.code == 64)
        #expect(unknown.stderr.contains("no provider 'nobody' in"))
    }

    @Test func aConfigurationFolderThatCannotBeMadeIsAConfigurationError() async throws {
        let bin = spyFolder()
        let blocker = temporaryDirectory("config-home") + "/a-file"
        _ = FileManager.default.createFile(atPath: blocker, contents: Data("not a folder".utf8))
        let run = await runCLI(["providers", "enable", "spy"], environment: environment(bin, configHome: blocker))
        #expect(run.code == 78)
        #expect(run.stderr.hasPrefix("isobar: cannot write \(blocker)"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test func aFileThatCannotBeParsedIsLeftAsItIs() async throws {
        let bin = spyFolder()
        let config = try temporaryConfiguration(#"{"providers": [}"#)
        let run = await runCLI(["providers", "enable", "spy", "--config", config], environment: environment(bin))
        #expect(run.code == 78)
        #expect(run.stderr.contains("nothing was changed (fix the file first)"), "\(run.stderr)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == #"{"providers": [}"#)
    }
}
