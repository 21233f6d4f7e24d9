import CCurl
import Dispatch
import FoundationEssentials
import IsobarCore
@testable import IsobarHTTP
import IsobarTestKit
import Testing

/// Sends `count` GETs to `server` at once through `transport`; the distinct bodies that came back.
func burst(_ count: Int, through transport: CurlTransport, to server: LoopbackServer) async throws -> Set<String> {
    try await withThrowingTaskGroup(of: String.self) { group in
        for index in 0..<count {
            group.addTask {
                String(decoding: try await transport.send(loopbackRequest(server, query: [QueryItem("i", String(index))])).body, as: UTF8.self)
            }
        }
        return try await group.reduce(into: Set<String>()) { $0.insert($1) }
    }
}

@Suite(.serialized, .tags(.realTime)) struct ConnectionLimitTests {
    @Test func capOfTwoOpensTwoConnectionsAndAnswersEveryRequest() async throws {
        let server = try LoopbackServer { request in .init(#"{"n":"\#(request.query)"}"#, delaySeconds: 0.2) }
        let transport = CurlTransport(userAgent: "isobar/test", maxConnectionsPerHost: 2)
        let bodies = try await burst(10, through: transport, to: server)
        #expect(bodies.count == 10)
        #expect(server.requests.count == 10)
        // The server answers one request at a time per connection, so connections are the transfers in flight at once.
        #expect(server.connectionCount == 2)
        #expect(Set(server.requests.map(\.connection)).count == 2)
    }

    @Test func aBurstOpensNoMoreThanTheDefaultCap() async throws {
        let server = try LoopbackServer { request in .init(#"{"n":"\#(request.query)"}"#, delaySeconds: 0.1) }
        let transport = CurlTransport(userAgent: "isobar/test")
        #expect(transport.maxConnectionsPerHost == 8)
        let bodies = try await burst(20, through: transport, to: server)
        #expect(bodies.count == 20)
        #expect(server.requests.count == 20)
        #expect(server.connectionCount <= transport.maxConnectionsPerHost)
    }

    @Test func aQueuedTransferStillEndsAtItsTimeoutAndDeadline() async throws {
        // The slow answer is held until the end of the test: anything that ends before then ended by its own limit.
        let slowAnswer = DispatchSemaphore(value: 0)
        defer { slowAnswer.signal() }
        let server = try LoopbackServer { request in
            if request.path == "/slow" { slowAnswer.wait() }
            return .init("{}")
        }
        let transport = CurlTransport(userAgent: "isobar/test", maxConnectionsPerHost: 1)
        // Its own limits outlast any test run, so the connection stays busy however slowly the test itself is scheduled.
        let holding = TransferLimits(connectTimeoutSeconds: 600, totalTimeoutSeconds: 600)
        let slow = Task { () async throws(ProviderError) -> HTTPResponse in try await transport.send(loopbackRequest(server, "/slow", limits: holding)) }
        defer { slow.cancel() }
        // The only connection allowed is busy from here on; the next two requests queue behind it.
        while server.requests.isEmpty { await Task.yield() }
        let limited = loopbackRequest(server, "/queued", limits: TransferLimits(connectTimeoutSeconds: 5, totalTimeoutSeconds: 0.3))
        var bounded = loopbackRequest(server, "/bounded")
        bounded.notAfter = Date.now.addingTimeInterval(0.3)
        async let timedOut = providerError { _ = try await transport.send(limited) }
        async let pastDeadline = providerError { _ = try await transport.send(bounded) }
        let (timeout, deadline) = await (timedOut, pastDeadline)
        #expect(timeout?.code == .timeout)
        #expect(timeout?.reason == .totalTimeout)
        #expect(timeout?.message == "Test: no complete answer from 127.0.0.1:\(server.port) within 0.3 s")
        #expect(deadline?.code == .timeout)
        // Queued, it never connected: its connect timeout was the 0.3 s left before the deadline, and is said so.
        #expect(deadline?.reason == .connectTimeout || deadline?.reason == .deadline)
        #expect(deadline?.message.contains("before the deadline") == true, "\(deadline?.message ?? "")")
        // Both ended while the slow request still held the only connection: at their own timeout and deadline.
        #expect(server.requests.map(\.path) == ["/slow"])
    }

    /// HTTP/2 is exercised only against real TLS servers: the loopback server speaks HTTP/1.1 over plain TCP. What can
    /// be checked here is that libcurl accepts every setting, and that only https transfers wait to multiplex.
    @Test func http2SettingsAreAccepted() async throws {
        #expect(CurlLibrary.failure == nil)
        let secure = Transfer(id: 1, request: HTTPRequest(url: RequestURL(string: "https://127.0.0.1:9/x")!, origin: "Test"),
                              limits: TransferLimits(), userAgent: "isobar/test")
        let handle = try #require(Transfer.makeHandle(userAgent: "isobar/test"))
        defer { isobar_curl_easy_cleanup(handle) }
        #expect(secure.prepare(on: handle))
        #expect(secure.release() == handle)
        #expect(secure.waitsToMultiplex == CurlLibrary.supportsHTTP2)
        let plain = Transfer(id: 2, request: HTTPRequest(url: RequestURL(string: "http://127.0.0.1:9/x")!, origin: "Test"),
                             limits: TransferLimits(), userAgent: "isobar/test")
        #expect(plain.prepare(on: handle))
        #expect(plain.release() == handle)
        #expect(!plain.waitsToMultiplex)
        // The multi handle's settings (cap, multiplexing): a transport whose settings libcurl refused fails every request.
        let server = try LoopbackServer { _ in .init("{}") }
        #expect(try await CurlTransport(userAgent: "isobar/test", maxConnectionsPerHost: 1).send(loopbackRequest(server)).status == 200)
    }
}
