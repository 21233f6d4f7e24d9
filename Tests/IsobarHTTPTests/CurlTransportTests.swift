import Dispatch
import FoundationEssentials
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

/// A GET to the loopback server.
func loopbackRequest(_ server: LoopbackServer, _ path: String = "/data", query: [QueryItem] = [],
                     limits: TransferLimits? = nil) -> HTTPRequest {
    HTTPRequest(url: RequestURL(string: server.baseURL)!.appending(path: path, query: query), origin: "Test", limits: limits)
}

/// Runs `body` and returns the `ProviderError` it throws.
func providerError(_ body: () async throws -> Void) async -> ProviderError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? ProviderError
    }
}

@Suite(.serialized, .tags(.realTime)) struct CurlTransportTests {
    let transport = CurlTransport(userAgent: "isobar/test")

    @Test func getReturnsStatusHeadersAndBody() async throws {
        let server = try LoopbackServer { _ in .init(#"{"ok":true}"#, headers: [("Content-Type", "application/json"), ("X-Test", "1")]) }
        let response = try await transport.send(loopbackRequest(server, query: [QueryItem("city", "São Paulo & more")]))
        #expect(response.status == 200)
        #expect(response.header("x-test") == "1")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
        let seen = try #require(server.requests.first)
        #expect(seen.path == "/data")
        #expect(seen.query == "city=S%C3%A3o%20Paulo%20%26%20more")
        #expect(seen.parameter("city") == "São Paulo & more")
        #expect(seen.headers["user-agent"] == "isobar/test")
        #expect(seen.headers["accept-encoding"]?.contains("gzip") == true)
    }

    @Test func gzipBodiesAreDecoded() async throws {
        let text = String(repeating: "{\"temperature\": 21.5}", count: 500)
        let server = try LoopbackServer { _ in .init(body: Array(text.utf8), gzip: true) }
        let response = try await transport.send(loopbackRequest(server))
        #expect(String(decoding: response.body, as: UTF8.self) == text)
    }

    @Test func chunkedBodiesAreJoined() async throws {
        let body = [UInt8](repeating: 65, count: 30_000)
        let server = try LoopbackServer { _ in .init(body: body, chunked: true) }
        #expect(try await transport.send(loopbackRequest(server)).body == body)
    }

    @Test func bodiesOfManyReadsArriveWholeAndInOrder() async throws {
        // Many times libcurl's 16 KB reads, in bytes that never repeat in step with them.
        var generator = SeededGenerator(seed: 197_842)
        let body = (0..<(12 * 16_384 + 1_234)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for chunked in [false, true] {
            let server = try LoopbackServer { _ in .init(body: body, chunked: chunked) }
            #expect(try await transport.send(loopbackRequest(server)).body == body, "chunked \(chunked)")
        }
    }

    @Test func errorStatusesAreResponsesNotTransportErrors() async throws {
        let server = try LoopbackServer { request in .init(status: Int(request.path.dropFirst())!, "{}") }
        for status in [400, 401, 404, 429, 500, 503] {
            #expect(try await transport.send(loopbackRequest(server, "/\(status)")).status == status)
        }
    }

    @Test func connectionsAreReused() async throws {
        let server = try LoopbackServer { _ in .init("{}") }
        for _ in 0..<50 { _ = try await transport.send(loopbackRequest(server)) }
        #expect(server.requests.count == 50)
        #expect(server.connectionCount <= 2)
    }

    @Test func openConnectionsAndTheirPeakAreCounted() async throws {
        let server = try LoopbackServer { _ in .init("{}", delaySeconds: 0.5) }
        let transport = transport
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try await transport.send(loopbackRequest(server)) } }
            #expect(await eventually { server.openConnections == 4 })
            try await group.waitForAll()
        }
        #expect(server.peakOpenConnections == 4)
        server.stop()
        #expect(await eventually { server.openConnections == 0 })
        #expect(server.peakOpenConnections == 4)
    }

    @Test func concurrentRequestsAllComplete() async throws {
        let server = try LoopbackServer { request in .init(#"{"n":"\#(request.query)"}"#) }
        let transport = transport
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<20 {
                group.addTask {
                    String(decoding: try await transport.send(loopbackRequest(server, query: [QueryItem("i", String(index))])).body, as: UTF8.self)
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(bodies.count == 20)
    }

    @Test func truncatedBodyIsAnErrorNotAPartialBody() async throws {
        let server = try LoopbackServer { _ in .init(body: Array(repeating: 66, count: 10_000), fault: .truncateBody(after: 4_000)) }
        let error = await providerError { _ = try await transport.send(loopbackRequest(server)) }
        #expect(error?.code == .unavailable)
        #expect(error?.reason == .bodyTruncated)
        #expect(error?.message.contains("127.0.0.1:\(server.port)") == true)
    }

    @Test func connectionClosedMidChunkedBodyIsAnError() async throws {
        let server = try LoopbackServer { _ in .init(body: Array(repeating: 66, count: 10_000), fault: .closeMidChunkedBody(after: 3_000)) }
        let error = await providerError { _ = try await transport.send(loopbackRequest(server)) }
        #expect(error?.reason == .bodyTruncated)
    }

    @Test func oversizedBodyIsRefusedWithoutReadingItAll() async throws {
        let size = 32 << 20
        let body = [UInt8](repeating: 67, count: size)
        let limits = TransferLimits(maxResponseBytes: 1 << 20)
        let declared = try LoopbackServer { _ in .init(body: body) }
        let error = await providerError { _ = try await transport.send(loopbackRequest(declared, limits: limits)) }
        #expect(error?.reason == .bodyTooLarge)
        #expect(error?.code == .badResponse(path: "$"))
        // Without a declared length the limit is enforced while receiving.
        let chunked = try LoopbackServer { _ in .init(body: body, chunked: true) }
        let streamed = await providerError { _ = try await transport.send(loopbackRequest(chunked, limits: limits)) }
        #expect(streamed?.reason == .bodyTooLarge)
        #expect(chunked.bytesSent < size / 2)
    }

    @Test func stalledBodyEndsAtTheTotalTimeout() async throws {
        let server = try LoopbackServer { _ in .init(body: [1], fault: .stallAfterHeaders(seconds: 3)) }
        let limits = TransferLimits(connectTimeoutSeconds: 1, totalTimeoutSeconds: 0.5)
        let error = await providerError { _ = try await transport.send(loopbackRequest(server, limits: limits)) }
        #expect(error?.code == .timeout)
        #expect(error?.reason == .totalTimeout)
    }

    @Test func slowServerEndsAtTheTotalTimeoutNotAtItsLateAnswer() async throws {
        // The server's answer is held until the test ends: the transfer can only end at its own timeout.
        let answer = DispatchSemaphore(value: 0)
        defer { answer.signal() }
        let server = try LoopbackServer { _ in
            answer.wait()
            return .init("{}")
        }
        let limits = TransferLimits(connectTimeoutSeconds: 1, totalTimeoutSeconds: 1)
        let error = await providerError { _ = try await transport.send(loopbackRequest(server, limits: limits)) }
        #expect(error?.code == .timeout)
        #expect(error?.reason == .totalTimeout)
        #expect(error?.message == "Test: no complete answer from 127.0.0.1:\(server.port) within 1 s")
    }

    /// What a request to a server that never answers ends with, held to `limits` and a deadline `seconds` from now; and
    /// the server's port.
    func failureFromAServerThatNeverAnswers(_ limits: TransferLimits, deadlineIn seconds: Double) async throws -> (error: ProviderError?, port: Int) {
        // The server's answer is held until the request has ended: it can only end at a timeout or the deadline.
        let answer = DispatchSemaphore(value: 0)
        defer { answer.signal() }
        let server = try LoopbackServer { _ in
            answer.wait()
            return .init("{}")
        }
        var request = loopbackRequest(server, limits: limits)
        request.notAfter = Date.now.addingTimeInterval(seconds)
        return (await providerError { _ = try await transport.send(request) }, server.port)
    }

    @Test func aTimeoutAtTheDeadlineSaysWhatWasLeftNotTheTransfersLimit() async throws {
        let (failure, port) = try await failureFromAServerThatNeverAnswers(TransferLimits(connectTimeoutSeconds: 5, totalTimeoutSeconds: 600),
                                                                           deadlineIn: 0.3)
        let error = try #require(failure)
        #expect(error.code == .timeout)
        // What was left when the request went out: at most the 0.3 s, less on a loaded machine, or nothing at all.
        if error.reason == .deadline {
            #expect(error.message == "Test: no time left before the deadline for 127.0.0.1:\(port) to answer")
        } else {
            #expect(error.reason == .totalTimeout || error.reason == .connectTimeout, "\(error.message)")
            let left = try #require(error.message.firstMatch(of: /within the (\d+(?:\.\d+)?) s left before the deadline$/).flatMap { Double($0.1) },
                                    "\(error.message)")
            #expect(left > 0 && left <= 0.3, "\(error.message)")
        }
    }

    @Test func aDeadlinePastBeforeTheRequestIsSentIsNeverCalledAConnectTimeout() async throws {
        // As when a command spent its whole deadline before asking: the transfer gets a millisecond, not its connect timeout.
        let (error, port) = try await failureFromAServerThatNeverAnswers(TransferLimits(connectTimeoutSeconds: 60, totalTimeoutSeconds: 60),
                                                                         deadlineIn: -1)
        #expect(error?.code == .timeout)
        #expect(error?.reason == .deadline)
        #expect(error?.message == "Test: no time left before the deadline for 127.0.0.1:\(port) to answer")
    }

    @Test func aTimeoutLongBeforeTheDeadlineIsTheTransfersOwn() async throws {
        let (error, port) = try await failureFromAServerThatNeverAnswers(TransferLimits(connectTimeoutSeconds: 5, totalTimeoutSeconds: 0.5),
                                                                         deadlineIn: 600)
        #expect(error?.reason == .totalTimeout)
        #expect(error?.message == "Test: no complete answer from 127.0.0.1:\(port) within 0.5 s")
    }

    @Test func connectionRefusedIsUnavailable() async throws {
        let server = try LoopbackServer { _ in .init("{}") }
        let request = loopbackRequest(server)
        server.stop()
        let error = await providerError { _ = try await transport.send(request) }
        #expect(error?.code == .unavailable)
        #expect(error?.reason == .connectionRefused)
        #expect(error?.message.hasPrefix("Test: ") == true)
    }

    @Test func unresolvableHostIsADNSFailure() async throws {
        // `.invalid` never resolves (RFC 2606); resolution fails locally.
        let request = HTTPRequest(url: RequestURL(string: "https://isobar-test.invalid/x")!, origin: "Test",
                                  limits: TransferLimits(connectTimeoutSeconds: 2, totalTimeoutSeconds: 3))
        let error = await providerError { _ = try await transport.send(request) }
        #expect(error?.reason == .dnsFailure || error?.reason == .connectTimeout)
    }

    @Test func plainHTTPIsRefusedForNonLoopbackHosts() async {
        let request = HTTPRequest(url: RequestURL(string: "http://api.open-meteo.com/v1/forecast")!, origin: "Open-Meteo")
        let error = await providerError { _ = try await transport.send(request) }
        #expect(error?.code == .unsupported)
        #expect(error?.reason == .insecureURL)
        #expect(CurlTransport.isLoopback("127.0.0.1"))
        #expect(CurlTransport.isLoopback("127.1.2.3"))
        #expect(CurlTransport.isLoopback("::1"))
        #expect(CurlTransport.isLoopback("localhost"))
        #expect(!CurlTransport.isLoopback("127.0.0.1.example.com"))
        #expect(!CurlTransport.isLoopback("10.0.0.1"))
        #expect(CurlTransport.isLoopback("127.255.255.254"))
        for notAnAddress in ["127.0.0.256", "127.0.0", "127..0.1", "127.0.0.", "127.0.0.1.", "127.0.0.1000", "127.0.0.x", "127.0.0.-1"] {
            #expect(!CurlTransport.isLoopback(notAnAddress), "\(notAnAddress)")
        }
    }

    @Test func redirectsToPlainHTTPAreRefused() async throws {
        let server = try LoopbackServer { request in
            request.path == "/start" ? .init(status: 302, "", headers: [("Location", "http://127.0.0.1:1/next")]) : .init("{}")
        }
        let error = await providerError { _ = try await transport.send(loopbackRequest(server, "/start")) }
        #expect(error?.reason == .insecureRedirect)
    }

    @Test func cancellingATaskRemovesItsTransferAtOnce() async throws {
        let server = try LoopbackServer { _ in .init("{}", delaySeconds: 5) }
        let transport = transport
        let task = Task { () async throws(ProviderError) -> HTTPResponse in try await transport.send(loopbackRequest(server)) }
        while server.requests.isEmpty { await Task.yield() }
        // The server answers after 5 s: a transfer cancellation did not remove would then succeed.
        task.cancel()
        let result = await task.result
        guard case .failure(let error) = result else {
            Issue.record("a cancelled request must not succeed")
            return
        }
        #expect((error as? ProviderError)?.code == .cancelled)
    }

    @Test func keyNeverAppearsInErrors() async throws {
        let sentinel = "SENTINEL-KEY-7f3a"
        let server = try LoopbackServer { _ in .init(body: Array(repeating: 1, count: 100), fault: .truncateBody(after: 10)) }
        var request = loopbackRequest(server, query: [QueryItem("appid", sentinel)])
        request.secretQueryNames = ["appid"]
        let truncated = await providerError { _ = try await transport.send(request) }
        #expect(truncated?.message.contains(sentinel) == false)
        server.stop()
        let refused = await providerError { _ = try await transport.send(request) }
        #expect(refused?.message.contains(sentinel) == false)
    }
}
