import Foundation
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import OpenMeteo
import Testing

@Suite(.serialized) struct HostileBodyTransportTests {
    let transport = CurlTransport(userAgent: "isobar/test")

    @Test func aGzipBombIsRefusedByItsDecompressedSize() async throws {
        // 16 MiB of one byte, gzipped to 16 KiB (`head -c 16M /dev/zero | tr '\0' 0 | gzip -9 -n`): the limit counts what the
        // body becomes, not what crossed the wire.
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/sixteen-mebibytes.gz")
        let bomb = [UInt8](try Data(contentsOf: file))
        #expect(bomb.count < 64 << 10)
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
}
