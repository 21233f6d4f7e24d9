import Foundation
import IsobarCLI
import IsobarCore
import IsobarTestKit
import Testing

/// `isobar now … | head -1`: the reader goes away after the first line, while a provider is still to answer.
@Suite(.tags(.realTime)) struct ClosedOutputTests {
    @Test func answersFetchedAfterTheReaderLeftAreStillCached() async throws {
        let weather = try cassetteText(provider: "openweathermap", place: "minsk", pathSuffix: "/data/2.5/weather")
        let meteo = try cassetteText(provider: "open-meteo", place: "minsk", pathSuffix: "/v1/forecast")
        let readerGone = DispatchSemaphore(value: 0)
        defer { readerGone.signal() }
        let owm = try LoopbackServer { _ in .init(weather) }
        // Open-Meteo answers only once the reader has closed its end of the pipe (its transfer may wait that long).
        let slow = try LoopbackServer { _ in
            readerGone.wait()
            return .init(meteo)
        }
        let config = try temporaryConfiguration("""
        {"providers": [
          {"id": "openweathermap", "type": "openweathermap", "api_key_env": "TEST_OWM_KEY", "base_url": "\(owm.baseURL)"},
          {"id": "open-meteo", "type": "open-meteo", "base_url": "\(slow.baseURL)", "timeout_s": 600}
        ]}
        """)
        let binary = try #require(isobarExecutable())
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": temporaryDirectory("closed-output")]
        let pipe = try ClosedPipe()
        let process = ChildProcess()
        // Started as a shell starts a pipeline's commands, with SIGPIPE at its default action (this test process ignores it).
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal=PIPE", binary, "now", "Minsk", "--config", config, "--format", "jsonl", "--timeout", "600"]
        process.environment = ["PATH": "/usr/bin:/bin", "ISOBAR_DATA_DIR": dataDirectory, "HOME": "/nonexistent-home",
                               "XDG_DATA_HOME": temporaryDirectory("data"), "ISOBAR_TIME_SHIFT": recordingTimeShift].merging(environment) { $1 }
        process.standardOutput = pipe.writer
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        pipe.closeWriter()
        // Read on a thread of its own: the pool's two threads are shared by every in-process test.
        let first = await withCheckedContinuation { continuation in Thread { continuation.resume(returning: pipe.readLine()) }.start() }
        #expect(first?.contains(#""provider":"openweathermap""#) == true, "\(first ?? "nothing")")
        pipe.closeReader()
        readerGone.signal()
        await withCheckedContinuation { continuation in
            Thread { process.waitUntilExit(); continuation.resume() }.start()
        }

        // Not killed by SIGPIPE: it finished its work and said that its reader had gone.
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == ExitCode.outputClosed.rawValue)
        let offline = try await runProcess(binary, ["now", "Minsk", "--config", config, "--format", "jsonl", "--offline"], environment: environment)
        #expect(offline.code == 0, "\(offline.stdout)\(offline.stderr)")
        let statuses = try parseLines(offline).compactMap { line in try line.optionalString("provider").map { ($0, try line.optionalString("status")) } }
        #expect(statuses.count == 2)
        #expect(statuses.allSatisfy { $0.1 == "cached" }, "\(statuses)")
        #expect(owm.requests.count == 1)
        #expect(slow.requests.count == 1)
    }
}

/// A pipe whose both ends are closed on exec, so that the child holds only the end it is given (as its stdout) and the
/// reader closing its end is the last reader going away.
final class ClosedPipe: @unchecked Sendable {
    let writer: FileHandle
    private let readDescriptor: Int32
    private var buffer: [UInt8] = []

    init() throws {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw CocoaError(.fileWriteUnknown) }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        readDescriptor = descriptors[0]
        writer = FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: false)
    }

    /// Closes this process's copy of the write end (the child has its own).
    func closeWriter() { close(writer.fileDescriptor) }

    /// Closes the read end: the child's next write fails with EPIPE.
    func closeReader() { close(readDescriptor) }

    /// Reads up to the first newline; nil at end of file.
    func readLine() -> String? {
        var byte: UInt8 = 0
        while read(readDescriptor, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: buffer, as: UTF8.self) }
            buffer.append(byte)
        }
        return nil
    }
}
