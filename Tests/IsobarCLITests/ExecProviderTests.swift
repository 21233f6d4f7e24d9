import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

/// Exec providers inside whole commands: a bad program is its own provider's error and the others still answer.
@Suite(.serialized) struct ExecProviderTests {
    /// This machine's PATH, for sh and python3.
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    /// The Python interpreter itself when the system has one.
    let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"

    /// A shell program that describes itself, then answers `plan` with `plan`.
    func program(_ plan: String, in directory: String, name: String = "bad.sh") -> String {
        let file = directory + "/" + name
        let text = """
        #!/bin/sh
        input=$(cat)
        case "$input" in
        *'"call":"describe"'*) echo '{"protocol":1,"ok":true,"describe":{"id":"x","name":"Bad \(name)","kinds":["current","hourly","daily"],"horizon_days":2,"coverage":"global"}}' ;;
        *) \(plan) ;;
        esac
        """
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
        return file
    }

    @Test func badProgramsFailAloneWhileTheOthersAnswer() async throws {
        let directory = temporaryDirectory("exec-config")
        let hang = program("sleep 60", in: directory, name: "hang.sh")
        let crash = program("kill -SEGV $$", in: directory, name: "crash.sh")
        let flood = program("yes", in: directory, name: "flood.sh")
        let config = """
        {"providers": [
          {"id": "open-meteo", "type": "open-meteo", "replay": "\(dataDirectory)/cassettes/open-meteo"},
          {"id": "nws", "type": "exec", "command": ["\(python)", "\(packageRoot)/Providers/examples/nws/nws.py"], "replay": "\(packageRoot)/config/cassettes/nws",
           "timeout_s": 600},
          {"id": "hang", "type": "exec", "command": ["/bin/sh", "\(hang)"], "timeout_s": 2},
          {"id": "crash", "type": "exec", "command": ["/bin/sh", "\(crash)"]},
          {"id": "flood", "type": "exec", "command": ["/bin/sh", "\(flood)"]}]}
        """
        _ = FileManager.default.createFile(atPath: directory + "/config.json", contents: Data(config.utf8))
        let cache = temporaryDirectory("exec-cache")
        // The hanging program has a deadline of its own (`timeout_s`); the others run within the roomy command's deadline,
        // which alone bounds a plug-in's run, so that a loaded machine cannot make them time out.
        let run = await runCLI(["forecast", "New York", "--hourly", "--format", "jsonl", "--timeout", "600", "--config", directory + "/config.json",
                                "--cache-dir", cache], environment: ["PATH": path])
        #expect(run.code == 2, "\(run.stderr)")
        let lines = try parseLines(run)
        func line(_ type: String, _ provider: String) -> JSONValue? {
            lines.first { (try? $0.string("type")) == type && (try? $0.string("provider")) == provider }
        }
        #expect(line("provider_result", "open-meteo") != nil)
        let nws = try #require(line("provider_result", "nws"))
        #expect(try nws.member("hourly").count() > 0)
        let hung = try #require(line("provider_error", "hang")).member("error")
        #expect(try hung.string("code") == "timeout")
        let crashed = try #require(line("provider_error", "crash")).member("error")
        #expect(try crashed.string("code") == "unavailable")
        #expect(try crashed.string("message").contains("SIGSEGV"))
        let flooded = try #require(line("provider_error", "flood")).member("error")
        #expect(try flooded.string("reason") == "body_too_large")

        // Nothing of the failures was stored: offline, the bad providers have nothing cached.
        let offline = await runCLI(["forecast", "New York", "--format", "jsonl", "--offline", "--config", directory + "/config.json",
                                    "--cache-dir", cache], environment: ["PATH": path])
        let offlineLines = try parseLines(offline)
        for id in ["hang", "crash", "flood"] {
            let error = offlineLines.first { (try? $0.string("type")) == "provider_error" && (try? $0.string("provider")) == id }
            #expect(try error?.member("error").string("reason") == "offline")
        }
    }

    @Test func aPluginIsRecordedAndReplayedLikeACompiledAdapter() async throws {
        let cassette = try JSONDocument(parsing: String(contentsOfFile: packageRoot + "/config/cassettes/nws/new-york.json", encoding: .utf8))
            .rootValue.member("interactions").elements()
        let points = try cassette[0].member("response").string("body")
        let hourly = try cassette[1].member("response").string("body")
        let server = try LoopbackServer { request in
            if request.path.hasPrefix("/points/") { return .init(points, headers: [("Content-Type", "application/geo+json")]) }
            if request.path.hasPrefix("/gridpoints/OKX/") { return .init(hourly, headers: [("Content-Type", "application/geo+json")]) }
            return .init(status: 404, "{}")
        }
        defer { server.stop() }
        let config = try temporaryConfiguration(#"{"providers": [{"id": "nws", "type": "exec", "command": ["\#(python)", "\#(packageRoot)/Providers/examples/nws/nws.py"], "base_url": "\#(server.baseURL)"}]}"#)
        let directory = temporaryDirectory("exec-record")
        let live = await runCLI(["forecast", "New York", "--hourly", "--format", "jsonl", "--config", config, "--record", directory],
                                environment: ["PATH": path], transport: { CurlTransport(userAgent: "isobar/test") })
        #expect(live.code == 0, "\(live.stdout)\(live.stderr)")
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.headers["user-agent"]?.contains("isobar-nws-plugin") == true })
        let replayed = await runCLI(["forecast", "New York", "--hourly", "--format", "jsonl", "--config", config, "--replay", directory],
                                    environment: ["PATH": path])
        #expect(replayed.code == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(server.requests.count == 2)
        func hours(_ run: CLIRun) throws -> String {
            let result = try #require(try parseLines(run).first { (try? $0.string("type")) == "provider_result" })
            return try outputValue(result.member("hourly")).serialized()
        }
        #expect(try hours(live) == hours(replayed))
    }

    @Test func programsOnPathAreListedWithTheOnesTheyShadow() async throws {
        let first = temporaryDirectory("bin-first")
        let second = temporaryDirectory("bin-second")
        let data = temporaryDirectory("data")
        try FileManager.default.createDirectory(atPath: data + "/isobar/providers", withIntermediateDirectories: true)
        let example = packageRoot + "/Providers/examples/shell/isobar-provider-open-meteo-sh"
        for folder in [first, second, data + "/isobar/providers"] {
            try FileManager.default.copyItem(atPath: example, toPath: folder + "/isobar-provider-om")
        }
        let run = await runCLI(["providers", "--available"], environment: ["PATH": "\(first):\(second):\(path)", "XDG_DATA_HOME": data])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("om: \(first)/isobar-provider-om (not enabled)"))
        #expect(run.stdout.contains("shadows \(second)/isobar-provider-om, never used"))
        #expect(run.stdout.contains("shadows \(data)/isobar/providers/isobar-provider-om, never used"))
        let listed = await runCLI(["providers"], environment: ["PATH": "\(first):\(second):\(path)", "XDG_DATA_HOME": data])
        #expect(listed.code == 0, "\(listed.stderr)")
        #expect(!listed.stdout.contains("isobar-provider-om") && listed.stderr.isEmpty)
    }

    @Test func anExecEntryNeedsACommandAndOnlyExecEntriesTakeOne() async throws {
        let directory = temporaryDirectory("exec-config")
        _ = FileManager.default.createFile(atPath: directory + "/a.json", contents: Data(#"{"providers": [{"id": "p", "type": "exec"}]}"#.utf8))
        let missing = await runCLI(["providers", "--config", directory + "/a.json"])
        #expect(missing.code == 78)
        #expect(missing.stderr.contains("needs a \"command\""))
        _ = FileManager.default.createFile(atPath: directory + "/b.json",
                                           contents: Data(#"{"providers": [{"type": "open-meteo", "command": ["x"]}]}"#.utf8))
        let misplaced = await runCLI(["providers", "--config", directory + "/b.json"])
        #expect(misplaced.code == 78)
        #expect(misplaced.stderr.contains("unknown key 'command' at $.providers[0] (type open-meteo takes, besides the common keys, only models, previous_runs_url)"))
    }
}
