import Foundation
import IsobarCLI
import IsobarCore
@testable import IsobarRender
import IsobarTestKit

/// The package root, found from this file's path.
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// Seconds from now back to three hours after the bundled recordings' moment (2026-11-28 12:00 UTC; they were made at 09:00
/// UTC), rounded so that it is never a moment before, so that every run in a test sees the same times (`ISOBAR_TIME_SHIFT`);
/// the same for every process of the test run.
let recordingTimeShift: String = {
    let recordedAt = Date(timeIntervalSince1970: 1_795_856_400 + 3_600 * 3)
    return String(Int(recordedAt.timeIntervalSinceNow.rounded(.up)))
}()

/// The bundled data directory.
let dataDirectory = packageRoot + "/config"

/// What one run of the command printed and returned.
struct CLIRun {
    let code: Int32
    let stdout: String
    let stderr: String

    /// Stdout split into lines, without the final empty one.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
}

/// Runs the command in-process with captured output and a clean environment; live requests go to `transport`
/// (by default none: every live request fails at once, so no test can reach past this machine).
/// `beforeCityChange` is awaited by `cities remove` and `cities move` between reading the list and changing it.
func runCLI(_ arguments: [String], environment extra: [String: String] = [:], registry: ProviderRegistry = .standard(),
            transport: @escaping @Sendable () -> any Transport = { NoNetworkTransport() },
            beforeCityChange: @escaping @Sendable () async -> Void = {}) async -> CLIRun {
    let output = BufferedSink()
    let errors = BufferedSink()
    // A fresh cache and fresh cities per run unless the test shares them through XDG_CACHE_HOME (or --cache-dir) and XDG_DATA_HOME;
    // a UTF-8 locale unless the test sets another.
    var environment = ["LANG": "C.UTF-8", "ISOBAR_DATA_DIR": dataDirectory, "HOME": "/nonexistent-home", "XDG_CONFIG_HOME": "/nonexistent-config",
                       "XDG_CACHE_HOME": temporaryDirectory("cache"), "XDG_DATA_HOME": temporaryDirectory("data"),
                       "ISOBAR_TIME_SHIFT": recordingTimeShift]
    environment.merge(extra) { $1 }
    let code = await IsobarCommandLine(environment: environment, output: output, errors: errors, registry: registry, liveTransport: transport,
                                     beforeCityChange: beforeCityChange)
        .run(withRoomyDeadline(arguments))
    return CLIRun(code: code, stdout: output.text, stderr: errors.text)
}

/// The arguments with the longest `--timeout` (10 min) added to the commands that take one, when the test gives none: a
/// test that is not about deadlines must not depend on how fast a loaded machine runs the command's tasks (the whole suite
/// runs in one process on two cores). Tests of deadlines give their own `--timeout`.
func withRoomyDeadline(_ arguments: [String]) -> [String] {
    guard !arguments.contains(where: ["--timeout", "--help", "-h", "--version", "-V"].contains) else { return arguments }
    let home = arguments.first.map { $0.hasPrefix("-") } ?? true
    if home { return ["--timeout", "600"] + arguments }
    guard let command = arguments.first else { return arguments }
    // Any other first word is a place: `isobar Minsk` shows its home view, a weather command.
    let commands = ["compare", "now", "forecast", "alerts", "air", "batch", "search", "cities", "home", "cache", "archive", "verify",
                    "learn", "providers", "doctor", "setup", "config", "completions", "help"]
    let weather = ["compare", "now", "forecast", "alerts", "air", "learn"].contains(command) || !commands.contains(command)
    let citiesList = command == "cities" && !["add", "remove", "rm", "move"].contains(where: arguments.contains)
    let searchAdding = command == "search" && arguments.contains("--add")
    // `doctor` asks every provider over the network too; `providers check` fetches from the one it checks.
    let providersCheck = command == "providers" && arguments.dropFirst().first == "check"
    guard weather || citiesList || searchAdding || providersCheck || command == "doctor" else { return arguments }
    return [command, "--timeout", "600"] + arguments.dropFirst()
}

/// A new empty directory under the system's temporary directory.
func temporaryDirectory(_ label: String) -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-\(label)-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The built `isobar` executable beside the test bundle.
func isobarExecutable() -> String? {
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = runner.deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("isobar").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        directory.deleteLastPathComponent()
    }
    for configuration in ["debug", "release"] {
        let candidate = packageRoot + "/.build/\(configuration)/isobar"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// Starts a program with a clean environment (a UTF-8 locale, plus `environment`) and no standard input, without waiting for it.
func launch(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (ChildProcess, Pipe, Pipe) {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "ISOBAR_DATA_DIR": dataDirectory, "HOME": "/nonexistent-home",
                           "XDG_CACHE_HOME": temporaryDirectory("cache"), "XDG_DATA_HOME": temporaryDirectory("data"),
                           "ISOBAR_TIME_SHIFT": recordingTimeShift].merging(environment) { $1 }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return (process, out, err)
}

/// Waits for a launched program and collects what it printed, on a thread of its own: a test waiting on a pool thread
/// would hold one of the two threads every in-process test shares, and starve the others' timing probes.
func finish(_ launched: (ChildProcess, Pipe, Pipe)) async -> CLIRun {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: finishBlocking(launched)) }.start()
    }
}

/// Waits for a launched program and collects what it printed, blocking the calling thread.
func finishBlocking(_ launched: (ChildProcess, Pipe, Pipe)) -> CLIRun {
    let (process, out, err) = launched
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CLIRun(code: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                  stderr: String(decoding: stderr, as: UTF8.self))
}

/// Runs a program to completion with a clean environment (plus `environment`).
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> CLIRun {
    await finish(try launch(executable, arguments, environment: environment))
}

/// The response body of the cassette interaction whose URL path ends with `pathSuffix`.
func cassetteBody(provider: String, place: String, pathSuffix: String) throws -> JSONValue {
    let text = try String(contentsOfFile: "\(dataDirectory)/cassettes/\(provider)/\(place).json", encoding: .utf8)
    let cassette = try JSONDocument(parsing: text).rootValue
    for interaction in try cassette.member("interactions").elements() {
        let url = try interaction.member("request").string("url")
        if url.contains(pathSuffix + "?") {
            return try JSONDocument(parsing: try interaction.member("response").string("body")).rootValue
        }
    }
    throw CocoaError(.fileReadNoSuchFile)
}

/// Parses every line as JSON, failing on the first that does not parse.
/// (An object naming a key twice fails the parse: no line type may write a key twice.)
func parseLines(_ run: CLIRun) throws -> [JSONValue] {
    try run.lines.map { try JSONDocument(parsing: Array($0.utf8), rejectingDuplicateKeys: true).rootValue }
}

/// The demo's providers with Open-Meteo's best match (`open-meteo`, one source) instead of its three models: the bundled
/// cassettes hold both answers. For tests about one Open-Meteo answer rather than about the models.
let bestMatchDemoConfig: String = {
    let cassettes = dataDirectory + "/cassettes"
    let text = """
    {"units": "metric", "providers": [
      {"id": "openweathermap", "type": "openweathermap", "replay": "\(cassettes)/openweathermap"},
      {"id": "open-meteo", "type": "open-meteo", "replay": "\(cassettes)/open-meteo"},
      {"id": "met-norway", "type": "met-norway", "replay": "\(cassettes)/met-norway"},
      {"id": "nws", "type": "exec", "command": ["\(dataDirectory)/plugins/nws.py"], "replay": "\(cassettes)/nws"}
    ]}
    """
    let path = temporaryDirectory("best-match") + "/config.json"
    precondition(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]),
                 "cannot write \(path)")
    return path
}()
