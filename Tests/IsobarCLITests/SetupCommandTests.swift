import Foundation
@testable import IsobarCLI
import IsobarCore
@testable import IsobarRender
import Synchronization
import Testing

/// `isobar setup`: the file it writes, what it leaves out, what it refuses, and its questions on a terminal.
@Suite struct SetupCommandTests {
    /// A user with an empty configuration folder.
    func user() -> (environment: [String: String], file: String) {
        let home = temporaryDirectory("setup-config")
        return (["XDG_CONFIG_HOME": home], home + "/isobar/config.json")
    }

    func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// Runs with a terminal that answers `answers` in turn (then the end of input).
    func runAsking(_ arguments: [String], answers: [String], environment: [String: String]) async -> CLIRun {
        let queue = Mutex(answers)
        let prompter = Prompter(isTerminal: true) { queue.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
        let output = BufferedSink()
        let errors = BufferedSink()
        var all = ["ISOBAR_DATA_DIR": dataDirectory, "HOME": "/nonexistent-home", "XDG_DATA_HOME": temporaryDirectory("data")]
        all.merge(environment) { $1 }
        let code = await IsobarCommandLine(environment: all, output: output, errors: errors, prompter: prompter).run(arguments)
        return CLIRun(code: code, stdout: output.text, stderr: errors.text)
    }

    @Test func flagsWriteAPrivateFileWithVariableNamesNeverKeys() async throws {
        let (environment, file) = user()
        let run = await runCLI(["setup", "--yes", "--contact", "me@example.com", "--key-env", "openweathermap=OWM_KEY"],
                               environment: environment.merging(["OWM_KEY": "secret-value-9"]) { $1 })
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Wrote \(file) with openweathermap, open-meteo, met-norway."))
        #expect(run.stdout.contains("Next: isobar doctor"))
        #expect(try mode(file) == 0o600)
        #expect(try mode((file as NSString).deletingLastPathComponent) == 0o700)
        let written = try text(file)
        #expect(!written.contains("secret-value-9") && !run.stdout.contains("secret-value-9"))
        let configuration = try Configuration.load(path: file)
        #expect(configuration.providers.map(\.id) == ["openweathermap", "open-meteo", "met-norway"])
        #expect(configuration.providers[0].apiKeyEnv == "OWM_KEY" && configuration.providers[0].apiKey == nil)
        #expect(configuration.providers[2].options.contact == "me@example.com")
        #expect(configuration.units == .metric)
    }

    @Test func withoutContactOrKeyOnlyWhatNeedsNothingIsWritten() async throws {
        let (environment, file) = user()
        let run = await runCLI(["setup", "--units", "imperial", "--json"], environment: environment)
        #expect(run.code == 0, "\(run.stderr)")
        let line = try #require(try parseLines(run).first)
        #expect(try line.string("type") == "setup_written")
        #expect(try line.string("file") == file)
        #expect(try line.member("providers").elements().map { try $0.string() } == ["open-meteo"])
        #expect(try line.member("backup").kind == .null)
        let configuration = try Configuration.load(path: file)
        #expect(configuration.providers.map(\.type) == ["open-meteo"])
        #expect(configuration.units == .imperial)
        let table = await runCLI(["setup", "--force"], environment: environment)
        #expect(table.stdout.contains("Left out: openweathermap (it needs an API key: --key-env openweathermap=VAR); met-norway (it needs a contact: --contact EMAIL)."))
    }

    @Test func anExistingFileIsKeptWithoutForceAndCopiedWithIt() async throws {
        let (environment, file) = user()
        #expect(await runCLI(["setup", "--yes"], environment: environment).code == 0)
        let first = try text(file)
        let refused = await runCLI(["setup", "--yes", "--contact", "me@example.com"], environment: environment)
        #expect(refused.code == ExitCode.usage.rawValue)
        #expect(refused.stderr == "isobar: \(file) already exists; isobar config set KEY VALUE changes one setting, isobar setup --force replaces the file (keeping a copy)\n")
        #expect(try text(file) == first)

        let forced = await runCLI(["setup", "--yes", "--force", "--contact", "me@example.com"], environment: environment)
        #expect(forced.code == 0, "\(forced.stderr)")
        #expect(forced.stdout.contains("The earlier file is kept as \(file).bak."))
        #expect(try text(file + ".bak") == first)
        #expect(try mode(file + ".bak") == 0o600)
        #expect(try text(file).contains("me@example.com"))
        let again = await runCLI(["setup", "--yes", "--force"], environment: environment)
        #expect(again.code == 0)
        #expect(try text(file + ".bak") == first, "an earlier copy is never replaced")
        #expect(try text(file + ".bak.2").contains("me@example.com"))
    }

    @Test func keyValuesAreStoredOnlyWhenAskedAndNeverShown() async throws {
        let (environment, file) = user()
        let missing = await runCLI(["setup", "--key-env", "openweathermap", "--write-key-values"], environment: environment)
        #expect(missing.code == ExitCode.usage.rawValue)
        #expect(missing.stderr.contains("OPENWEATHERMAP_API_KEY is not set or empty"))
        #expect(!FileManager.default.fileExists(atPath: file), "nothing is written")
        let run = await runCLI(["setup", "--key-env", "openweathermap", "--write-key-values"],
                               environment: environment.merging(["OPENWEATHERMAP_API_KEY": "stored-key-1"]) { $1 })
        #expect(run.code == 0, "\(run.stderr)")
        #expect(try Configuration.load(path: file).providers.first?.apiKey == "stored-key-1")
        #expect(try mode(file) == 0o600)
        #expect(!run.stdout.contains("stored-key-1"))
    }

    @Test func badOptionsAreUsageErrorsAndWriteNothing() async throws {
        let (environment, file) = user()
        for (arguments, message) in [
            (["--contact", "not an address"], "--contact takes an e-mail address or an http(s) URL without spaces, not 'not an address'"),
            (["--contact", "@example.com"], "--contact takes an e-mail address"),
            (["--key-env", "open-meteo"], "--key-env: 'open-meteo' is not a provider type that needs a key; those are openweathermap"),
            (["--key-env", "openweathermap=1KEY"], "--key-env takes TYPE or TYPE=VARIABLE pairs"),
            (["--key-env", "openweathermap,openweathermap=X"], "--key-env names 'openweathermap' twice"),
            (["--write-key-values"], "--write-key-values stores the keys of --key-env"),
            (["--units", "kelvin"], "invalid value 'kelvin' for --units"),
        ] {
            let run = await runCLI(["setup", "--yes"] + arguments, environment: environment)
            #expect(run.code == ExitCode.usage.rawValue, "\(arguments)")
            #expect(run.stderr.hasPrefix("isobar: " + message), "\(arguments): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test func onATerminalItAsksForWhatTheFlagsLeaveOut() async throws {
        let (environment, file) = user()
        let run = await runAsking(["setup"], answers: ["not a contact", "me@example.com", "OWM KEY", "OWM_KEY"], environment: environment)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stderr.contains("MET Norway's terms ask for a contact"))
        #expect(run.stderr.contains("'not a contact' is not an e-mail address or http(s) URL."))
        #expect(run.stderr.contains("OpenWeatherMap needs an API key."))
        let configuration = try Configuration.load(path: file)
        #expect(configuration.providers.map(\.id) == ["openweathermap", "open-meteo", "met-norway"])
        #expect(configuration.providers[0].apiKeyEnv == "OWM_KEY")

        let (other, otherFile) = user()
        let skipped = await runAsking(["setup"], answers: [""], environment: other)
        #expect(skipped.code == 0)
        #expect(try Configuration.load(path: otherFile).providers.map(\.id) == ["open-meteo"], "Enter, then the end of input, leave both out")
        let (quiet, _) = user()
        let unasked = await runAsking(["setup", "--yes"], answers: ["me@example.com"], environment: quiet)
        #expect(unasked.code == 0)
        #expect(unasked.stderr.isEmpty)
    }
}
