import Foundation
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import OpenMeteo
import Testing

@Suite(.serialized) struct HostileBodyTransportTests {
    let transport = CurlTransport(userAgent: "isobar/test")

    @Test func aGzipBombIsRefusedByItsDecompressedSize() async throws {
        // 64 MiB of one byte compress to about 64 KiB: the limit counts what the body becomes, not what crossed the wire.
        let bomb = try gzipped([UInt8](repeating: 48, count: 64 << 20))
        #expect(bomb.count < 1 << 20)
        let headers = [("Content-Type", "application/json"), ("Content-Encoding", "gzip")]
        let server = try LoopbackServer { _ in .init(headers: headers, body: bomb) }
        let limits = TransferLimits(maxResponseBytes: 1 << 20)
        let error = await providerError { _ = try await transport.send(loopbackRequest(server, limits: limits)) }
        #expect(error?.reason == .bodyTooLarge)
        #expect(server.bytesSent < 1 << 20, "the compressed body is small; only decompression could exceed the limit")
    }

    @Test func tenThousandLevelsOfNestingAreABadResponseNotACrash() async throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let body = #"{"utc_offset_seconds":0,"hourly":"# + deep + "}"
        let server = try LoopbackServer { _ in .init(body: Array(body.utf8)) }
        let response = try await transport.send(loopbackRequest(server))
        let error = await providerError { _ = try OpenMeteoDecoder().decode(response, now: .now) }
        guard case .badResponse = error?.code else {
            Issue.record("expected a bad response, got \(String(describing: error))")
            return
        }
    }

    /// `bytes` compressed by the system's gzip.
    private func gzipped(_ bytes: [UInt8]) throws -> [UInt8] {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-bomb-\(UUID().uuidString)")
        try Data(bytes).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c", "-9", input.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](output)
    }
}
