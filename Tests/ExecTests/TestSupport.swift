import Exec
import Foundation
import IsobarCore

/// The package root, found from this file's path.
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// A new empty directory under the system's temporary directory.
func temporaryDirectory(_ label: String) -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-\(label)-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The environment a test program gets: this machine's PATH (for sh, jq, python3) and a fresh cache for descriptions.
func programEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
    ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "XDG_CACHE_HOME": temporaryDirectory("exec-cache")]
        .merging(extra) { $1 }
}

/// The Python interpreter itself when the system has one (a version manager's shell shim in front of it is slow to start).
let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"

/// A description any test program can give.
let plainDescription = #"{"protocol":1,"ok":true,"describe":{"id":"test","name":"Test Program","kinds":["current","hourly"],"horizon_days":2,"coverage":"global"}}"#

/// A good report for one current sample.
let plainReport = #"{"protocol":1,"ok":true,"report":{"units":"si","current":{"time":"2026-11-28T09:00:00Z","temperature_c":3.5}}}"#

/// Writes a shell script (run as `sh FILE`) that reads its message and answers `describe`, `plan` and `decode` with the given shell code.
func script(describe: String = "echo '\(plainDescription)'",
            plan: String = #"echo '{"protocol":1,"ok":true,"requests":[{"url":"https://weather.example/now"}]}'"#,
            decode: String = "echo '\(plainReport)'", fetch: String = "exit 3") -> String {
    let path = temporaryDirectory("program") + "/program.sh"
    let text = """
    #!/bin/sh
    input=$(cat)
    case "$input" in
    *'"call":"describe"'*) \(describe) ;;
    *'"call":"plan"'*) \(plan) ;;
    *'"call":"decode"'*) \(decode) ;;
    *'"call":"fetch"'*) \(fetch) ;;
    esac
    """
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
    return path
}

/// The command running a script written by `script`.
func shell(_ path: String) -> [String] { ["/bin/sh", path] }

/// Builds an exec provider the way the configuration does; its `describe` is held to the roomy deadline (below).
func makeProvider(_ command: [String], id: String = "test", apiKey: String? = nil, environment: [String: String] = programEnvironment(),
                  log: @escaping @Sendable (String) -> Void = { _ in }) async throws -> any WeatherProvider {
    let settings = ProviderSettings(id: id, type: "exec", apiKey: apiKey, options: ExecOptions(command: command).providerOptions)
    return try await ExecProvider.factory.make(ProviderContext(settings: settings, environment: environment, transport: StubTransport(), log: log,
                                                               deadline: Date().addingTimeInterval(roomyDeadlineSeconds)))
}

/// A place anywhere.
let minsk = Place(name: "Minsk", countryCode: "BY", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!, utcOffsetSeconds: 10_800)

/// A transport that answers every request with one body, remembering what it was asked.
final class StubTransport: Transport, @unchecked Sendable {
    let status: Int
    let body: [UInt8]
    private let lock = NSLock()
    private var asked: [HTTPRequest] = []

    init(status: Int = 200, body: [UInt8] = Array(#"{"ok":true}"#.utf8)) {
        self.status = status
        self.body = body
    }

    var requests: [HTTPRequest] { lock.withLock { asked } }

    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        lock.withLock { asked.append(request) }
        return HTTPResponse(status: status, body: body)
    }
}

/// Collects log lines.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []
    var lines: [String] { lock.withLock { collected } }
    func append(_ line: String) { lock.withLock { collected.append(line) } }
}

/// The deadline of a fetch in a test that is not about deadlines: the longest a command allows (`--timeout` 10 min). The
/// whole suite's tasks share two threads, and on a loaded machine a plug-in's calls can wait there long before they run.
let roomyDeadlineSeconds = 600.0

/// The report `provider` gives for `request` through `transport`, within the roomy deadline.
func fetch(_ provider: any WeatherProvider, _ request: WeatherRequest, transport: any Transport) async throws(ProviderError) -> WeatherReport {
    try await provider.fetch(request, context: FetchContext(transport: transport, deadline: Date().addingTimeInterval(roomyDeadlineSeconds)))
}

/// The error a fetch throws, or nil when it answered.
func failure(of provider: any WeatherProvider, place: Place = minsk, deadlineSeconds: Double = roomyDeadlineSeconds,
             transport: any Transport = StubTransport()) async -> ProviderError? {
    do {
        _ = try await provider.fetch(WeatherRequest(place: place), context: FetchContext(transport: transport, deadline: Date().addingTimeInterval(deadlineSeconds)))
        return nil
    } catch {
        return error
    }
}

/// True while a process with this id is alive (a zombie waiting to be reaped counts as gone); waits up to 2 s for it to go.
func isRunning(_ pid: Int32) async -> Bool {
    for _ in 0..<100 {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        let state = stat.split(separator: ")").last?.split(separator: " ").first
        if state == "Z" || state == "X" { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
}

/// The number in a file (a pid a program wrote), once it is there.
func pid(in file: String) -> Int32? {
    (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
}
