import Foundation
import IsobarCLI
import IsobarConsensus
import IsobarCore
import Testing

/// Runs the real binary end to end.
@Suite struct ExecutableTests {
    func executable() throws -> String {
        try #require(isobarExecutable(), "build the isobar executable first (swift build)")
    }

    @Test func compareDemoRunsEndToEnd() async throws {
        let run = try await runProcess(try executable(), ["compare", "Minsk", "--demo"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Consensus"))
        #expect(run.stdout.contains("Replayed data, not live"))
    }

    @Test func jsonLinesWorkWithJq() async throws {
        let binary = try executable()
        let run = try await runProcess("/bin/sh", ["-c", "'\(binary)' compare Minsk --demo --format jsonl | jq -c 'select(.type==\"consensus\")'"])
        #expect(run.code == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let consensus = try JSONDocument(parsing: String(lines[0])).rootValue
        #expect(try consensus.string("type") == "consensus")
    }

    @Test func exitCodesReachTheShell() async throws {
        let binary = try executable()
        #expect(try await runProcess(binary, ["compare", "Xqzzyvv", "--demo"]).code == ExitCode.badPlace.rawValue)
        #expect(try await runProcess(binary, ["compare", "Minsk", "--bogus"]).code == ExitCode.usage.rawValue)
        let noNetwork = try await runProcess(binary, ["compare", "Minsk", "--config", dataDirectory + "/isobar.json"])
        #expect(noNetwork.code == ExitCode.noneAnswered.rawValue)
        #expect(!noNetwork.stderr.contains("Fatal error"))
    }

    @Test func findsItsDataWithoutTheEnvironmentVariable() async throws {
        // The binary lives under .build inside the repository: it finds config/ by walking up.
        let run = try await runExactly(try executable(), ["now", "Tokyo", "--demo"], in: "/", environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Now (18:00)"))
    }
}
