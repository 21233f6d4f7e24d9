import Foundation
import IsobarCLI
import IsobarCore
import Testing

/// The command's `--timeout` bounds every call to a plug-in, `describe` included.
@Suite(.tags(.realTime)) struct PluginDeadlineTests {
    @Test func aPluginThatNeverDescribesItselfIsGivenUpOnAtTheCommandsDeadline() async throws {
        let directory = temporaryDirectory("plugin-deadline")
        let program = directory + "/hang.sh"
        _ = FileManager.default.createFile(atPath: program, contents: Data("exec sleep 60\n".utf8), attributes: [.posixPermissions: 0o755])
        let config = try temporaryConfiguration("""
        {"providers": [{"id": "hang", "type": "exec", "command": ["/bin/sh", "\(program)"]}]}
        """)
        let run = await runCLI(["compare", "Minsk", "--config", config, "--timeout", "3", "--format", "jsonl"])
        #expect(run.code == ExitCode.noneAnswered.rawValue, "\(run.stderr)")
        let lines = try parseLines(run)
        let failure = try #require(lines.first { (try? $0.string("type")) == "provider_error" && (try? $0.string("provider")) == "hang" })
        let message = try failure.member("error").string("message")
        // The command's 3 s ended the call, not a description's own 10 s: either the description was stopped with what was left
        // of them, or (on a loaded machine, where setting up used them all) the command's deadline came first.
        if !message.contains("no answer within the 3 s deadline") {
            let seconds = try #require(message.firstMatch(of: /before the deadline \((\d+(?:\.\d+)?) s\)/).flatMap { Double($0.1) }, "\(message)")
            #expect(seconds > 0 && seconds <= 3, "\(message)")
        }
    }

    /// A plug-in that describes itself and never answers a fetch, or (`describes` false) never answers at all.
    @Test(arguments: [true, false])
    func theTimeoutOfAProviderCheckBoundsAPluginThatNeverAnswers(describes: Bool) async throws {
        let directory = temporaryDirectory("check-deadline")
        let program = directory + "/silent.sh"
        let text = describes ? """
            input=$(head -n 1)
            case "$input" in
            *'"call":"describe"'*) echo '{"protocol":1,"ok":true,"describe":{"id":"silent","name":"Silent","kinds":["hourly"],"horizon_days":2,"coverage":"global","mode":"fetch","quantities":["temperature"]}}' ;;
            *) exec sleep 60 ;;
            esac
            """ : "exec sleep 60\n"
        _ = FileManager.default.createFile(atPath: program, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
        let config = try temporaryConfiguration("""
        {"providers": [{"id": "silent", "type": "exec", "command": ["/bin/sh", "\(program)"]}]}
        """)
        let run = await runCLI(["providers", "check", "silent", "Minsk", "--config", config, "--timeout", "3", "--json"])
        // The call was stopped within the 3 s (without --timeout, a fetch's own 30 s, a description's 10 s): the fetch, or the
        // description (of a program that never describes itself, or on a loaded machine where setting up used them all),
        // which the fetch rule reports too. Either way it says the time the call had.
        #expect(run.code == ExitCode.checkFailed.rawValue, "\(run.stdout)\(run.stderr)")
        let said = try #require(try parseLines(run).first { (try? $0.string("rule")) == "fetch succeeds on a recorded answer" }?.string("detail"))
        let seconds = try #require(said.firstMatch(of: /before the deadline \((\d+(?:\.\d+)?) s\)/).flatMap { Double($0.1) }, "\(said)")
        #expect(seconds <= 3, "\(said)")
        #expect(said.contains("silent: the program did not answer"), "\(said)")
    }
}
