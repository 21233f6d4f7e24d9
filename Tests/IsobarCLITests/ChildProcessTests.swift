import Foundation
import IsobarTestKit
import Testing

@Suite("Child process: what the tests start, without Foundation's Process")
struct ChildProcessTests {
    private func run(_ script: String, in directory: String? = nil) throws -> (ChildProcess, String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.environment = ["PATH": "/usr/bin:/bin", "GIVEN": "yes"]
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process, text)
    }

    @Test func itRunsWithTheGivenEnvironmentFolderAndNoOtherOpenFile() throws {
        let held = open("/dev/null", O_RDONLY)
        defer { close(held) }
        let (process, text) = try run("echo $GIVEN; pwd; ls /proc/self/fd | wc -l; read line || echo no-input; exit 3", in: "/tmp")
        // Standard input, output and error, and the descriptor ls reads the folder through: nothing of this process's.
        #expect(text.split(separator: "\n") == ["yes", "/tmp", "4", "no-input"])
        #expect(process.terminationStatus == 3)
        #expect(process.terminationReason == .exit)
        #expect(!process.isRunning)
    }

    @Test func aSignalIsItsTerminationReason() throws {
        let (process, _) = try run("kill -TERM $$")
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGTERM)
    }

    @Test func aMissingProgramIsAnErrorOfThePOSIXDomain() {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/nonexistent/program")
        #expect(throws: NSError.self) { try process.run() }
    }
}
