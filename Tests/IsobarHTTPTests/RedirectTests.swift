import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Synchronization
import Testing

/// Redirects are followed only to the same host; a redirect to another host is refused before anything reaches it.
@Suite(.serialized) struct RedirectTests {
    let transport = CurlTransport(userAgent: "isobar/test")

    @Test func aRedirectToAnotherHostIsRefusedAndNothingReachesIt() async throws {
        let other = try LoopbackServer { _ in .init("{}") }
        let server = try LoopbackServer { _ in .init(status: 302, "", headers: [("Location", "http://localhost:\(other.port)/next?appid=secret")]) }
        let error = await providerError { _ = try await transport.send(loopbackRequest(server, "/start")) }
        #expect(error?.code == .unsupported)
        #expect(error?.reason == .insecureRedirect)
        #expect(error?.message == "Test: 127.0.0.1:\(server.port) redirected to another host, localhost:\(other.port); refused")
        #expect(error?.message.contains("secret") == false)
        #expect(other.requests.isEmpty)
    }

    @Test func aRedirectToTheSameHostAndPortIsFollowed() async throws {
        let server = try LoopbackServer { request in
            request.path == "/start" ? .init(status: 302, "", headers: [("Location", "/next?n=1")]) : .init(#"{"at":"\#(request.path)"}"#)
        }
        let response = try await transport.send(loopbackRequest(server, "/start"))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"at":"/next"}"#)
        #expect(server.requests.map(\.path) == ["/start", "/next"])
    }

    @Test func anAbsoluteRedirectToTheSameOriginIsFollowed() async throws {
        let port = Mutex(0)
        let server = try LoopbackServer { request in
            request.path == "/start" ? .init(status: 301, "", headers: [("Location", "http://127.0.0.1:\(port.withLock { $0 })/next")]) : .init("{}")
        }
        port.withLock { $0 = server.port }
        #expect(try await transport.send(loopbackRequest(server, "/start")).status == 200)
        #expect(server.requests.map(\.path) == ["/start", "/next"])
    }

    @Test func moreThanThreeRedirectsAreAnError() async throws {
        let server = try LoopbackServer { _ in .init(status: 302, "", headers: [("Location", "/again")]) }
        let error = await providerError { _ = try await transport.send(loopbackRequest(server, "/start")) }
        #expect(error?.reason == .tooManyRedirects)
        #expect(server.requests.count == 4)
    }
}
