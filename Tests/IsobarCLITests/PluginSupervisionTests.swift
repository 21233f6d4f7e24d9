import Foundation
import IsobarCLI
import IsobarTestKit
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
        let pids = try #require(ProcessWatch.pids(in: directory + "/pids"), "the plug-in never started its children")
        #expect(await ProcessWatch.survivors(pids) == [], "plug-in processes outlived the command")
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func noPluginProcessOutlivesTheCommandStoppedBySignal(_ signal: Int32) async throws {
        let binary = try #require(isobarExecutable())
        let (directory, config) = try hangingPlugin()
        let launched = try launch(binary, ["now", "Minsk", "--timeout", "120", "--format", "jsonl", "--config", config])
        let ready = await ProcessWatch.appears(directory + "/ready")
        kill(launched.0.processIdentifier, ready ? signal : SIGKILL)
        let run = await finish(launched)
        #expect(ready, "the plug-in never became ready: \(run.stderr)")
        #expect(run.code == signal, "ended by the signal it was sent")
        let pids = try #require(ProcessWatch.pids(in: directory + "/pids"))
        #expect(pids.count == 21)
        #expect(await ProcessWatch.survivors(pids) == [], "plug-in processes outlived the command")
    }
}
