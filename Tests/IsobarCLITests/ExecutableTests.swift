import Foundation
import IsobarCLI
import IsobarCore
import Testing

/// Runs the real binary end to end.
@Suite struct ExecutableTests {
    func executable() throws -> String {
        try #require(isobarExecutable(), "build the isobar executable first (swift build)")
    }

    @Test func compareDemoRunsEndToEnd() throws {
        let run = try runProcess(try executable(), ["compare", "Minsk", "--demo"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Consensus"))
        #expect(run.stdout.contains("Replayed data, not live"))
    }

    @Test func jsonLinesWorkWithJq() throws {
        let binary = try executable()
        let run = try runProcess("/bin/sh", ["-c", "'\(binary)' compare Minsk --demo --format jsonl | jq -c 'select(.type==\"consensus\")'"])
        #expect(run.code == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let consensus = try JSONDocument(parsing: String(lines[0])).rootValue
        #expect(try consensus.string("type") == "consensus")
    }

    @Test func exitCodesReachTheShell() throws {
        let binary = try executable()
        #expect(try runProcess(binary, ["compare", "Xqzzyvv", "--demo"]).code == ExitCode.badPlace.rawValue)
        #expect(try runProcess(binary, ["compare", "Minsk", "--bogus"]).code == ExitCode.usage.rawValue)
        let noNetwork = try runProcess(binary, ["compare", "Minsk", "--config", dataDirectory + "/isobar.json"])
        #expect(noNetwork.code == ExitCode.noneAnswered.rawValue)
        #expect(!noNetwork.stderr.contains("Fatal error"))
    }

    @Test func findsItsDataWithoutTheEnvironmentVariable() throws {
        // The binary lives under .build inside the repository: it finds config/ by walking up.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable())
        process.arguments = ["now", "Tokyo", "--demo"]
        process.environment = ["PATH": "/usr/bin:/bin"]
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: data, as: UTF8.self).contains("Now (18:00)"))
    }
}
