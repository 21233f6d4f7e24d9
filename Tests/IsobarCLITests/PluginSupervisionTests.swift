import Foundation
import IsobarCLI
import Testing

/// The real binary leaves no plug-in process behind: not at its deadline, nor when it is stopped by a signal.
@Suite(.serialized) struct PluginSupervisionTests {
    /// A plug-in that ignores SIGTERM, starts 20 children that ignore it too, writes every pid to `pids` beside it, makes
    /// `ready` there once all are started, and waits for ever; and a configuration running it.
    func hangingPlugin() throws -> (directory: String, config: String) {
        let directory = temporaryDirectory("hanging-plugin")
        let file = directory + "/hang.sh"
        let text = """
        #!/bin/sh
        trap '' TERM
        input=$(cat)
        case "$input" in
        *'"call":"describe"'*) echo '{"protocol":1,"ok":true,"describe":{"id":"hang","name":"Hang","kinds":["current"],"coverage":"global","mode":"fetch"}}' ;;
        *) echo $$ >> "\(directory)/pids"
           for i in $(seq 20); do sleep 1000 & echo $! >> "\(directory)/pids"; done
           touch "\(directory)/ready"
           wait ;;
        esac
        """
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
        let config = try temporaryConfiguration(#"{"providers": [{"id": "hang", "type": "exec", "command": ["/bin/sh", "\#(file)"]}]}"#)
        return (directory, config)
    }

    @Test func noPluginProcessOutlivesTheCommandAtItsDeadline() async throws {
        let binary = try #require(isobarExecutable())
        let (directory, config) = try hangingPlugin()
        let run = try await runProcess(binary, ["now", "Minsk", "--timeout", "2", "--format", "jsonl", "--config", config])
        #expect(run.code == ExitCode.noneAnswered.rawValue, "\(run.stderr)")
        #expect(run.stdout.contains(#""code":"timeout""#), "\(run.stdout)")
        let pids = try #require(pluginPids(in: directory + "/pids"), "the plug-in never started its children")
        #expect(await survivingPluginProcesses(pids) == [], "plug-in processes outlived the command")
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func noPluginProcessOutlivesTheCommandStoppedBySignal(_ signal: Int32) async throws {
        let binary = try #require(isobarExecutable())
        let (directory, config) = try hangingPlugin()
        let launched = try launch(binary, ["now", "Minsk", "--timeout", "120", "--format", "jsonl", "--config", config])
        let ready = await fileAppears(directory + "/ready")
        kill(launched.0.processIdentifier, ready ? signal : SIGKILL)
        let run = await finish(launched)
        #expect(ready, "the plug-in never became ready: \(run.stderr)")
        #expect(run.code == signal, "ended by the signal it was sent")
        let pids = try #require(pluginPids(in: directory + "/pids"))
        #expect(pids.count == 21)
        #expect(await survivingPluginProcesses(pids) == [], "plug-in processes outlived the command")
    }
}

/// The numbers in a file of pids, one a line; nil when there is no such file or it is empty.
func pluginPids(in file: String) -> [Int32]? {
    let numbers = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
    return numbers.isEmpty ? nil : numbers
}

/// True once the file exists; false if it has not appeared after a generous while (an outcome, not a measured time).
func fileAppears(_ file: String) async -> Bool {
    for _ in 0..<600 {
        if FileManager.default.fileExists(atPath: file) { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return false
}

/// Those of `pids` still alive as a shell or a `sleep` (a zombie, or a number reused by another program, counts as gone),
/// once they are all gone or after a generous while: processes left behind are reparented, and go away asynchronously.
func survivingPluginProcesses(_ pids: [Int32]) async -> [Int32] {
    func alive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno != ESRCH,
              let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return false }
        let name = stat[stat.index(after: open)..<close]
        let state = stat[stat.index(after: close)...].split(separator: " ").first
        return ["sh", "dash", "bash", "sleep"].contains(name) && state != "Z" && state != "X"
    }
    var left = pids.filter(alive)
    for _ in 0..<200 where !left.isEmpty {
        try? await Task.sleep(for: .milliseconds(50))
        left = left.filter(alive)
    }
    return left
}
