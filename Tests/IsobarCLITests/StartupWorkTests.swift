import Foundation
import IsobarCore
import IsobarTestKit
import Testing

/// `strace`, when installed (scripts/install-deps.sh installs it).
private let strace = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// What a short command of the real binary starts: threads and directory listings, counted by `strace`. Judged by what
/// the process did, never by how long it took.
@Suite(.tags(.realTime), .enabled(if: strace != nil && isobarExecutable() != nil, "needs strace and the built isobar"))
struct StartupWorkTests {
    /// The system calls of one run of `isobar arguments` with `environment`, by name, and the run itself.
    func traced(_ arguments: [String], environment: [String: String]) async throws -> (calls: [String: Int], run: CLIRun) {
        let log = temporaryDirectory("strace") + "/calls.txt"
        let run = try await runProcess(strace!, ["-f", "-qq", "-o", log, "-e", "trace=clone,clone3,getdents64,connect",
                                                 isobarExecutable()!] + arguments, environment: environment)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        var calls: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            // "PID name(args) = result"; exits and signals are not calls.
            let fields = line.split(separator: " ", maxSplits: 1)
            guard fields.count == 2, let open = fields[1].firstIndex(of: "(") else { continue }
            calls[String(fields[1][..<open]), default: 0] += 1
        }
        return (calls, run)
    }

    @Test func versionStartsNoThread() async throws {
        let (calls, run) = try await traced(["--version"], environment: [:])
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("isobar "))
        #expect(calls["clone3", default: 0] + calls["clone", default: 0] == 0, "\(calls)")
    }

    @Test func aWarmCacheHitStartsNoThreadListsNoDirectoryAndConnectsNowhere() async throws {
        let origin = try RevalidatingProviderOrigin(.init(cacheControl: "max-age=600"))
        let cache = temporaryDirectory("startup-cache")
        let bin = temporaryDirectory("startup-path")
        // A plug-in-looking program on PATH: a short command must not even look for it.
        _ = FileManager.default.createFile(atPath: bin + "/isobar-provider-spy", contents: Data("#!/bin/sh\nexit 1\n".utf8),
                                       attributes: [.posixPermissions: 0o755])
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": cache, "PATH": "\(bin):/usr/bin:/bin"]
        let arguments = ["compare", "53.9,27.5667", "--config", try liveConfiguration(origin.server), "--format", "jsonl", "--timeout", "600"]
        let warm = try await runProcess(isobarExecutable()!, arguments, environment: environment)
        #expect(warm.code == 0, "\(warm.stderr)")
        let asked = origin.server.requests.count
        let (calls, hit) = try await traced(arguments, environment: environment)
        #expect(hit.code == 0, "\(hit.stderr)")
        #expect(try parseLines(hit).filter { try $0.string("type") == "provider_result" }.count == 2)
        #expect(origin.server.requests.count == asked, "the answers came from the cache")
        // Not even the store's writer or reader (it reads on the command's thread and writes nothing): no pool, no timer
        // thread, no HTTP thread.
        #expect(calls["clone3", default: 0] + calls["clone", default: 0] == 0, "\(calls)")
        #expect(calls["getdents64", default: 0] == 0, "\(calls)")
        #expect(calls["connect", default: 0] == 0, "\(calls)")
    }
}
