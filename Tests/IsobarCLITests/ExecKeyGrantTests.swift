import Foundation
import IsobarCLI
import IsobarCore
import Testing

/// A plug-in gets a key only from the variable its configuration entry names; what it declares itself is only a request.
@Suite(.serialized) struct ExecKeyGrantTests {
    /// This machine's PATH, for sh.
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    /// The secret in the caller's environment.
    let secret = "sekrit-4f1d"

    /// A `fetch` plug-in that asks for `AWS_SECRET_ACCESS_KEY` and appends every message and its own environment to `seen` beside it.
    func greedyProgram(in directory: String, name: String = "greedy.sh") -> String {
        let file = directory + "/" + name
        let text = """
        #!/bin/sh
        input=$(cat)
        seen="$(dirname "$0")/seen"
        { printf 'message: %s\\n' "$input"; env; } >> "$seen"
        case "$input" in
        *'"call":"describe"'*) echo '{"protocol":1,"ok":true,"describe":{"id":"greedy","name":"Greedy","kinds":["current"],"coverage":"global","mode":"fetch","key":{"variable":"AWS_SECRET_ACCESS_KEY"}}}' ;;
        *) echo '{"protocol":1,"ok":true,"report":{"units":"si","current":{"time":"2026-11-28T09:00:00Z","temperature_c":3.5}}}' ;;
        esac
        """
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
        return file
    }

    /// Everything the program wrote down (empty when it never ran).
    func seen(in directory: String) -> String {
        (try? String(contentsOfFile: directory + "/seen", encoding: .utf8)) ?? ""
    }

    @Test func aDeclaredVariableIsNeverReadWithoutTheEntrysWord() async throws {
        let directory = temporaryDirectory("greedy")
        let program = greedyProgram(in: directory)
        let config = try temporaryConfiguration(#"{"providers": [{"id": "greedy", "type": "exec", "command": ["/bin/sh", "\#(program)"]}]}"#)
        let run = await runCLI(["now", "Minsk", "--format", "jsonl", "--config", config],
                               environment: ["PATH": path, "AWS_SECRET_ACCESS_KEY": secret])
        let seen = seen(in: directory)
        #expect(seen.contains(#""call":"describe""#), "the program was asked to describe itself")
        #expect(!seen.contains(secret), "\(seen)")
        #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret))
        let error = try #require(try parseLines(run).first { (try? $0.string("type")) == "provider_error" }).member("error")
        #expect(try error.string("code") == "not_configured")
        #expect(try error.string("message").contains(#"wants AWS_SECRET_ACCESS_KEY; set "api_key_env" in its entry to grant it"#))
    }

    @Test func aProgramEnabledFromPathGetsNoKey() async throws {
        let bin = temporaryDirectory("greedy-bin")
        _ = greedyProgram(in: bin, name: "isobar-provider-greedy")
        let config = try temporaryConfiguration(#"{"providers": []}"#)
        let enable = await runCLI(["providers", "enable", "greedy", "--config", config], environment: ["PATH": "\(bin):\(path)"])
        #expect(enable.code == 0, "\(enable.stderr)")
        let run = await runCLI(["now", "Minsk", "--format", "jsonl", "--config", config],
                               environment: ["PATH": "\(bin):\(path)", "AWS_SECRET_ACCESS_KEY": secret])
        let seen = seen(in: bin)
        #expect(seen.contains(#""call":"describe""#), "the program was enabled and asked to describe itself")
        #expect(!seen.contains(secret), "\(seen)")
        #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret))
    }

    @Test func theEntrysVariableGrantsTheKeyInTheMessageOnly() async throws {
        let directory = temporaryDirectory("granted")
        let program = greedyProgram(in: directory)
        let config = try temporaryConfiguration(#"""
        {"providers": [{"id": "greedy", "type": "exec", "command": ["/bin/sh", "\#(program)"], "api_key_env": "AWS_SECRET_ACCESS_KEY"}]}
        """#)
        let run = await runCLI(["now", "Minsk", "--format", "jsonl", "--config", config],
                               environment: ["PATH": path, "AWS_SECRET_ACCESS_KEY": secret])
        #expect(run.code == 0, "\(run.stderr)")
        let lines = seen(in: directory).split(separator: "\n")
        let fetch = try #require(lines.first { $0.hasPrefix("message: ") && $0.contains(#""call":"fetch""#) })
        #expect(fetch.contains(#""key":"\#(secret)""#))
        let environment = lines.filter { !$0.hasPrefix("message: ") }
        #expect(!environment.isEmpty)
        #expect(!environment.contains { $0.contains(secret) || $0.hasPrefix("AWS_SECRET_ACCESS_KEY=") }, "\(environment)")
        #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret))
    }

    @Test func providersListsTheRequestAndHowToGrantIt() async throws {
        let directory = temporaryDirectory("greedy-list")
        let program = greedyProgram(in: directory)
        let config = try temporaryConfiguration(#"{"providers": [{"id": "greedy", "type": "exec", "command": ["/bin/sh", "\#(program)"]}]}"#)
        let run = await runCLI(["providers", "--config", config], environment: ["PATH": path, "AWS_SECRET_ACCESS_KEY": secret])
        #expect(run.code == 0, "\(run.stderr)")
        let flat = run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains(#"greedy (Greedy, type exec): live, NOT CONFIGURED: wants AWS_SECRET_ACCESS_KEY; set "api_key_env" in its entry to grant it"#),
                "\(run.stdout)")
        #expect(!seen(in: directory).contains(secret))
    }
}
