import IsobarCore
@testable import IsobarHTTP
import IsobarTestKit
import Testing

/// A finished transfer's libcurl handle is taken by the next one: these check that nothing of a request carries over.
@Suite(.serialized) struct HandleReuseTests {
    @Test func requestsOneAfterAnotherShareOneHandle() async throws {
        let transport = CurlTransport(userAgent: "isobar/test")
        let server = try LoopbackServer { _ in .init("{}") }
        for _ in 0..<5 { #expect(try await transport.send(loopbackRequest(server)).status == 200) }
        #expect(transport.easyHandlesCreated == 1)
        #expect(server.requests.count == 5)
    }

    @Test func aReusedHandleSendsNoHeaderOrMethodOfTheTransferBefore() async throws {
        let transport = CurlTransport(userAgent: "isobar/test")
        let server = try LoopbackServer { _ in .init("{}") }
        var first = loopbackRequest(server, "/first")
        first.method = "DELETE"
        first.headers = [HTTPHeader("X-Only-First", "yes"), HTTPHeader("If-None-Match", "\"v1\"")]
        #expect(try await transport.send(first).status == 200)
        #expect(try await transport.send(loopbackRequest(server, "/second")).status == 200)
        #expect(transport.easyHandlesCreated == 1)
        let seen = server.requests
        try #require(seen.count == 2)
        #expect(seen[0].method == "DELETE")
        #expect(seen[0].headers["x-only-first"] == "yes")
        #expect(seen[0].headers["if-none-match"] == "\"v1\"")
        #expect(seen[1].method == "GET")
        #expect(seen[1].path == "/second")
        #expect(seen[1].headers["x-only-first"] == nil)
        #expect(seen[1].headers["if-none-match"] == nil)
        #expect(seen[1].headers["user-agent"] == "isobar/test")
        #expect(seen[1].headers["accept-encoding"]?.contains("gzip") == true)
    }

    @Test func aReusedHandleTakesTheLimitsOfItsOwnRequest() async throws {
        let transport = CurlTransport(userAgent: "isobar/test")
        let body = [UInt8](repeating: 65, count: 5_000)
        let server = try LoopbackServer { request in .init(body: body, delaySeconds: request.path == "/slow" ? 0.6 : 0) }
        // Tight limits that this answer meets...
        let tight = TransferLimits(connectTimeoutSeconds: 5, totalTimeoutSeconds: 0.4, maxResponseBytes: 6_000)
        #expect(try await transport.send(loopbackRequest(server, "/fast", limits: tight)).body == body)
        // ...must not hold for the next request on the same handle: slower than 0.4 s and larger than 6,000 bytes allowed.
        let roomy = TransferLimits(connectTimeoutSeconds: 5, totalTimeoutSeconds: 10, maxResponseBytes: 8 << 20)
        #expect(try await transport.send(loopbackRequest(server, "/slow", limits: roomy)).body == body)
        // And a later tight request gets its limit again.
        let small = TransferLimits(connectTimeoutSeconds: 5, totalTimeoutSeconds: 10, maxResponseBytes: 1_000)
        let error = await providerError { _ = try await transport.send(loopbackRequest(server, "/fast", limits: small)) }
        #expect(error?.reason == .bodyTooLarge)
        #expect(transport.easyHandlesCreated == 1)
    }

    @Test func aFailedTransfersHandleIsNotReused() async throws {
        let transport = CurlTransport(userAgent: "isobar/test")
        let server = try LoopbackServer { request in
            request.path == "/cut" ? .init(body: [UInt8](repeating: 65, count: 1_000), fault: .truncateBody(after: 10)) : .init("{}")
        }
        #expect(try await transport.send(loopbackRequest(server)).status == 200)
        let error = await providerError { _ = try await transport.send(loopbackRequest(server, "/cut")) }
        #expect(error?.reason == .bodyTruncated)
        #expect(try await transport.send(loopbackRequest(server)).status == 200)
        #expect(transport.easyHandlesCreated == 2)
    }

    @Test func concurrentTransfersEachHaveAHandleAndKeepThemForLater() async throws {
        let transport = CurlTransport(userAgent: "isobar/test")
        let server = try LoopbackServer { _ in .init("{}", delaySeconds: 0.2) }
        for _ in 0..<2 {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 { group.addTask { try await transport.send(loopbackRequest(server)).status } }
                for try await status in group { #expect(status == 200) }
            }
        }
        #expect(transport.easyHandlesCreated == 4)
        #expect(server.requests.count == 8)
    }
}
