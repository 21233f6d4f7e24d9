import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
@testable import IsobarRender
import IsobarTestKit
import Testing

/// `isobar doctor` against providers on loopback servers: one that is away, one that answers, one that refuses the key;
/// folders that cannot be written; keys, contacts and plug-ins; every outcome judged by its line and the exit code.
@Suite(.tags(.realTime)) struct DoctorTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    /// A configuration file holding `providers` (JSON) and `extra` top-level members.
    func configuration(_ providers: String, extra: String = "") throws -> String {
        try temporaryConfiguration(#"{\#(extra)"providers": [\#(providers)]}"#)
    }

    /// Isobar's clock in the tests that compare it with a `Date` header: still, three hours after the recordings were made.
    let instant = Date(timeIntervalSince1970: 1_795_856_400 + 3 * 3_600)

    /// `instant` moved by `offset` seconds, as an HTTP date.
    func dateHeader(offset: Double) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: instant.addingTimeInterval(offset))
    }

    /// The recorded Open-Meteo answer for Minsk, with a `Date` header `offset` seconds from `instant`.
    func openMeteoServer(dateOffset: Double = 0) throws -> LoopbackServer {
        let text = try String(contentsOfFile: dataDirectory + "/cassettes/open-meteo/minsk.json", encoding: .utf8)
        let cassette = try JSONDocument(parsing: text).rootValue
        let body = try cassette.member("interactions").elements()[0].member("response").string("body")
        let date = dateHeader(offset: dateOffset)
        return try LoopbackServer { _ in
            LoopbackServer.Response(status: 200, body, headers: [("Content-Type", "application/json"), ("Date", date)])
        }
    }

    /// Runs `isobar doctor` over the network on a clock that stands still at `instant`, so that how long the run takes
    /// never moves the clock's comparison.
    func runOnStillClock(_ arguments: [String], environment extra: [String: String] = [:]) async -> CLIRun {
        let output = BufferedSink()
        let errors = BufferedSink()
        let environment = ["ISOBAR_DATA_DIR": dataDirectory, "HOME": "/nonexistent-home", "XDG_CONFIG_HOME": "/nonexistent-config",
                           "XDG_CACHE_HOME": temporaryDirectory("cache"), "XDG_DATA_HOME": temporaryDirectory("data")].merging(extra) { $1 }
        let code = await IsobarCommandLine(environment: environment, output: output, errors: errors, liveTransport: curl,
                                           time: ManualClock(start: instant)).run(withRoomyDeadline(arguments))
        return CLIRun(code: code, stdout: output.text, stderr: errors.text)
    }

    /// The checks of a JSON-lines run by name.
    func checks(_ run: CLIRun) throws -> [String: JSONValue] {
        var checks: [String: JSONValue] = [:]
        for line in try parseLines(run) {
            #expect(try line.string("type") == "doctor_check")
            checks[try line.string("name")] = line
        }
        return checks
    }

    @Test func aProviderThatRefusesConnectionsFailsWithTheStepAndTheFix() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.Response("{}") }
        let port = server.port
        server.stop()
        let config = try configuration(#"{"id": "open-meteo", "type": "open-meteo", "base_url": "http://127.0.0.1:\#(port)"}"#)
        let run = await runCLI(["doctor", "--config", config], environment: ["LANG": "C.UTF-8"], transport: curl)
        #expect(run.code == ExitCode.checkFailed.rawValue, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("✗ network open-meteo: 127.0.0.1: name found, but the connection was refused"), "\(run.stdout)")
        #expect(run.stdout.contains("; fix: check the network connection"))
        #expect(run.stdout.contains("✓ configuration: \(config) is valid"))
        #expect(run.stdout.contains("? clock: cannot tell"))
        #expect(run.stdout.hasSuffix("1 of 7 checks failed.\n"), "\(run.stdout)")

        let ascii = await runCLI(["doctor", "--config", config], environment: ["LANG": "C"], transport: curl)
        #expect(ascii.stdout.contains("FAIL network open-meteo: "))
        #expect(ascii.stdout.contains("ok configuration: "))
        #expect(!ascii.stdout.unicodeScalars.contains { !$0.isASCII })

        let lines = await runCLI(["doctor", "--config", config, "--json"], transport: curl)
        #expect(lines.code == ExitCode.checkFailed.rawValue)
        let byName = try checks(lines)
        let network = try #require(byName["network open-meteo"])
        #expect(try network.member("passed").bool() == false)
        #expect(try network.string("fix").contains("base_url"))
        #expect(try byName["configuration"]?.member("passed").bool() == true)
        #expect(try byName["configuration"]?.member("fix").kind == .null)
        #expect(try byName["clock"]?.member("passed").kind == .null)
    }

    @Test func aProviderThatAnswersPassesAndTheClockIsComparedWithItsDate() async throws {
        let server = try openMeteoServer()
        let config = try configuration(#"{"id": "open-meteo", "type": "open-meteo", "base_url": "\#(server.baseURL)"}"#)
        let run = await runOnStillClock(["doctor", "--config", config], environment: ["LANG": "en_GB.UTF-8"])
        #expect(run.code == ExitCode.success.rawValue, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("✓ network open-meteo: 127.0.0.1: name found, connected, HTTP 200 with current conditions"), "\(run.stdout)")
        #expect(run.stdout.contains("✓ clock: within 60 s of 127.0.0.1's clock (0 s apart)"), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("All 7 checks passed.\n"))
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.path == "/v1/forecast")
    }

    @Test func aClockAnHourOffFails() async throws {
        let server = try openMeteoServer(dateOffset: -3_600)
        let config = try configuration(#"{"id": "open-meteo", "type": "open-meteo", "base_url": "\#(server.baseURL)"}"#)
        let run = await runOnStillClock(["doctor", "--config", config, "--json"])
        #expect(run.code == ExitCode.checkFailed.rawValue, "\(run.stdout)\(run.stderr)")
        let byName = try checks(run)
        #expect(try byName["network open-meteo"]?.member("passed").bool() == true)
        let clock = try #require(byName["clock"])
        #expect(try clock.member("passed").bool() == false)
        #expect(try clock.string("detail") == "60 min ahead of 127.0.0.1's clock")
        #expect(try clock.string("fix").contains("timedatectl set-ntp true"))
    }

    @Test func aRefusedKeyIsSaidAndNeverShown() async throws {
        let secret = "doctor-secret-4711"
        let server = try LoopbackServer { _ in
            LoopbackServer.Response(status: 401, #"{"cod": 401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401"}"#)
        }
        let config = try configuration(#"{"id": "owm", "type": "openweathermap", "base_url": "\#(server.baseURL)"}"#)
        let run = await runCLI(["doctor", "--config", config], environment: ["OPENWEATHERMAP_API_KEY": secret, "LANG": "C.UTF-8"],
                               transport: curl)
        #expect(run.code == ExitCode.checkFailed.rawValue, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("✓ key owm: set in OPENWEATHERMAP_API_KEY (not shown)"))
        #expect(run.stdout.contains("✗ network owm: 127.0.0.1 answered HTTP 401: the key was refused; fix: check the key in OPENWEATHERMAP_API_KEY"),
                "\(run.stdout)")
        #expect(server.requests.first?.parameter("appid") == secret, "the key was sent")
        #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret))
    }

    @Test func missingKeysAndContactsAreNamedAndThoseProvidersNotAsked() async throws {
        let config = try configuration(#"{"id": "openweathermap", "type": "openweathermap"}, {"id": "met-norway", "type": "met-norway"}"#)
        // No transport: were a provider asked, its line would say the network is off.
        let run = await runCLI(["doctor", "--config", config, "--json"])
        #expect(run.code == ExitCode.checkFailed.rawValue)
        let byName = try checks(run)
        #expect(try byName["key openweathermap"]?.member("passed").bool() == false)
        #expect(try byName["key openweathermap"]?.string("fix") == "export OPENWEATHERMAP_API_KEY=YOUR_KEY (in ~/.profile to keep it)")
        #expect(try byName["contact met-norway"]?.member("passed").bool() == false)
        #expect(try byName["contact met-norway"]?.string("fix").contains("isobar config set contact") == true)
        #expect(try byName["network openweathermap"]?.member("passed").kind == .null)
        #expect(try byName["network met-norway"]?.string("detail") == "not tried: contact met-norway is missing")

        let given = await runCLI(["doctor", "--config", config, "--json"], environment: ["OPENWEATHERMAP_API_KEY": "k", "ISOBAR_CONTACT": "me@example.com"])
        let found = try checks(given)
        #expect(try found["key openweathermap"]?.member("passed").bool() == true)
        #expect(try found["contact met-norway"]?.string("detail") == "me@example.com (from ISOBAR_CONTACT)")
        #expect(try found["network met-norway"]?.member("passed").bool() == false, "asked, through a transport that refuses every request")
    }

    @Test func folderThatCannotBeWrittenFails() async throws {
        let config = try configuration(#"{"id": "open-meteo", "type": "open-meteo", "replay": "\#(dataDirectory)/cassettes/open-meteo"}"#)
        let file = temporaryDirectory("doctor-file") + "/plain-file"
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        let run = await runCLI(["doctor", "--config", config, "--cache-dir", file + "/cache", "--json"])
        #expect(run.code == ExitCode.checkFailed.rawValue)
        let byName = try checks(run)
        #expect(try byName["cache folder"]?.string("detail") == "cannot make \(file) (Not a directory)")
        #expect(try byName["data folder"]?.member("passed").bool() == true)
        #expect(try byName["network open-meteo"]?.string("detail").hasPrefix("replays the recordings") == true)
        #expect(byName.values.filter { (try? $0.member("passed").bool()) == false }.count == 1)
    }

    @Test(.enabled(if: ScratchMount.available)) func aReadOnlyCacheFolderFails() async throws {
        let disk = try #require(ScratchMount(kilobytes: 64))
        #expect(try await disk.remountReadOnly())
        let config = try configuration(#"{"id": "open-meteo", "type": "open-meteo", "replay": "\#(dataDirectory)/cassettes/open-meteo"}"#)
        let run = await runCLI(["doctor", "--config", config, "--cache-dir", disk.path, "--json"])
        #expect(run.code == ExitCode.checkFailed.rawValue)
        let cache = try #require(try checks(run)["cache folder"])
        #expect(try cache.string("detail") == "cannot write in \(disk.path) (Read-only file system)")
        #expect(try cache.string("fix").contains("--cache-dir"))
    }

    @Test func anUnusableConfigurationFailsAndTheOtherChecksStillRun() async throws {
        let config = try temporaryConfiguration(#"{"providers": [{"type": "open-meteo", "colour": "red"}]}"#)
        let run = await runCLI(["doctor", "--config", config, "--json"])
        #expect(run.code == ExitCode.checkFailed.rawValue)
        let byName = try checks(run)
        #expect(try byName["configuration"]?.string("detail").contains("unknown key 'colour'") == true)
        #expect(try byName["cache folder"]?.member("passed").bool() == true)
        #expect(byName["clock"] != nil)
    }

    @Test func anAbsentSharedStoreFails() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.Response("{}") }
        let port = server.port
        server.stop()
        let config = try configuration(#"{"id": "open-meteo", "type": "open-meteo", "replay": "\#(dataDirectory)/cassettes/open-meteo"}"#,
                                       extra: #""shared_store": "redis://:hunter2@127.0.0.1:\#(port)/0", "#)
        let run = await runCLI(["doctor", "--config", config, "--json"])
        #expect(run.code == ExitCode.checkFailed.rawValue)
        let shared = try #require(try checks(run)["shared store"])
        #expect(try shared.member("passed").bool() == false)
        #expect(!run.stdout.contains("hunter2"))
    }

    @Test func pluginsAreListedAndNotRun() async throws {
        let folder = temporaryDirectory("doctor-bin")
        let program = folder + "/isobar-provider-spy"
        _ = FileManager.default.createFile(atPath: program, contents: Data("#!/bin/sh\ntouch \"$(dirname \"$0\")/ran\"\n".utf8),
                                           attributes: [.posixPermissions: 0o755])
        let config = try configuration(#"{"id": "open-meteo", "type": "open-meteo", "replay": "\#(dataDirectory)/cassettes/open-meteo"}"#)
        let run = await runCLI(["doctor", "--config", config, "--json"], environment: ["PATH": folder + ":/usr/bin:/bin"])
        #expect(run.code == ExitCode.success.rawValue, "\(run.stdout)")
        #expect(try checks(run)["plug-ins"]?.string("detail").hasPrefix("found spy (not enabled)") == true)
        #expect(!FileManager.default.fileExists(atPath: folder + "/ran"))
    }

    @Test func badArgumentsAreUsageErrors() async {
        let timeout = await runCLI(["doctor", "--timeout", "0"])
        #expect(timeout.code == ExitCode.usage.rawValue)
        #expect(timeout.stderr == "isobar: --timeout takes a duration up to 10 minutes (30, 30s, 2m), not '0'\n")
        let extra = await runCLI(["doctor", "now"])
        #expect(extra.code == ExitCode.usage.rawValue)
        #expect(extra.stderr.split(separator: "\n").count == 1)
    }
}
