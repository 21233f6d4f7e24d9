import CCurl
import IsobarCore
@testable import IsobarHTTP
import IsobarTestKit
import Testing

/// Sockets the epoll set refuses (no memory, the per-user watch limit) are driven by hand, never end the multi handle.
@Suite(.serialized) struct EpollFallbackTests {
    @Test func transfersWhoseSocketsTheEpollSetRefusesStillComplete() async throws {
        let transport = CurlTransport(userAgent: "isobar/test")
        let server = try LoopbackServer { request in .init(#"{"path": "\#(request.path)"}"#, delaySeconds: 0.05) }
        isobar_curl_loop_refuse_watches_for_tests(1_000)
        defer { isobar_curl_loop_refuse_watches_for_tests(0) }
        let limits = TransferLimits(connectTimeoutSeconds: 5, totalTimeoutSeconds: 5)
        try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
            for index in 0..<4 { group.addTask { try await transport.send(loopbackRequest(server, "/\(index)", limits: limits)) } }
            for try await response in group { #expect(response.status == 200) }
        }
        // Each answered before its 5 s timeout (libcurl's own timer, on the I/O thread): the refused sockets were read and
        // written by hand, where left alone they would never have been.
        #expect(Set(server.requests.map(\.path)) == ["/0", "/1", "/2", "/3"])
        let after = try await transport.send(loopbackRequest(server, "/after", limits: limits))
        #expect(after.status == 200)
    }
}
