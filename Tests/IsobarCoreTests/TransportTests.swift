import IsobarCore
import IsobarTestKit
import Testing

@Suite("HTTPRequest, HTTPResponse and StubTransport")
struct TransportTests {
    @Test func redactedURLDropsSecretParameters() throws {
        let url = try #require(RequestURL(string: "https://api.openweathermap.org/data/2.5/weather?lat=53.9&appid=s3cr3t&units=metric"))
        let request = HTTPRequest(url: url, secretQueryNames: ["appid"])
        #expect(request.method == "GET")
        #expect(request.redactedURL == "https://api.openweathermap.org/data/2.5/weather?lat=53.9&units=metric")
        #expect(!request.redactedURL.contains("s3cr3t"))
        // The request itself still carries the key.
        #expect(request.url.string.contains("appid=s3cr3t"))
        #expect(HTTPRequest(url: url).redactedURL == url.string)
    }

    @Test func secretValuesAreTheNonEmptySecretParameters() throws {
        let url = try #require(RequestURL(string: "https://example.com/?appid=k1&q=Minsk&token=&key=k2"))
        #expect(HTTPRequest(url: url, secretQueryNames: ["appid", "token", "key"]).secretValues == ["k1", "k2"])
        #expect(HTTPRequest(url: url).secretValues.isEmpty)
    }

    @Test func limitingTransportSetsLimitsOnlyWhereNoneAreSet() async throws {
        let stub = StubTransport(status: 200, body: "{}")
        let limits = TransferLimits(connectTimeoutSeconds: 1, totalTimeoutSeconds: 2, maxResponseBytes: 1024)
        let transport = LimitingTransport(base: stub, limits: limits)
        let url = try #require(RequestURL(string: "https://example.com/"))
        let own = TransferLimits(connectTimeoutSeconds: 3, totalTimeoutSeconds: 4, maxResponseBytes: 10)
        _ = try await transport.send(HTTPRequest(url: url))
        _ = try await transport.send(HTTPRequest(url: url, limits: own))
        #expect(stub.requests.map(\.limits) == [limits, own])
    }

    @Test func defaultTransferLimits() {
        let limits = TransferLimits()
        #expect(limits.connectTimeoutSeconds == 5)
        #expect(limits.totalTimeoutSeconds == 10)
        #expect(limits.maxResponseBytes == 8 * 1024 * 1024)
    }

    @Test func stubTransportAnswersAndRecords() async throws {
        let transport = StubTransport(status: 404, body: #"{"cod":"404"}"#, headers: [HTTPHeader("X-Test", "1")])
        let first = try #require(RequestURL(string: "https://example.com/a"))
        let second = try #require(RequestURL(string: "https://example.com/b?q=1"))
        let response = try await transport.send(HTTPRequest(url: first))
        _ = try await transport.send(HTTPRequest(url: second))
        #expect(response.status == 404)
        #expect(response.body == Array(#"{"cod":"404"}"#.utf8))
        #expect(response.header("x-test") == "1")
        #expect(transport.requests.map(\.url) == [first, second])
    }

    @Test func stubTransportCanFail() async throws {
        let transport = StubTransport { _ throws(ProviderError) in throw ProviderError(.unavailable, "offline") }
        let url = try #require(RequestURL(string: "https://example.com/"))
        do {
            _ = try await transport.send(HTTPRequest(url: url))
            Issue.record("expected a failure")
        } catch {
            #expect(error.code == .unavailable)
        }
        #expect(transport.requests.count == 1)
    }
}
