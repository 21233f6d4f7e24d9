import FixtureReplay
import FoundationEssentials
import IsobarCore
import IsobarTestKit
import Testing

@Suite struct RecordingTransportTests {
    /// A recording must hold the full answer: validators are taken off, so the server can never answer 304 with no body.
    @Test func conditionalHeadersAreNeverSentSoTheRealBodyIsRecorded() async throws {
        let base = StubTransport { request in
            let conditional = request.headers.contains { $0.name.lowercased().hasPrefix("if-") }
            return HTTPResponse(status: conditional ? 304 : 200, body: conditional ? [] : Array("{\"t\":1}".utf8))
        }
        let recorder = RecordingTransport(base: base)
        let request = HTTPRequest(url: RequestURL(string: "https://api.test/v1/forecast?lat=1")!,
                                  headers: [HTTPHeader("If-None-Match", "\"v1\""), HTTPHeader("If-Modified-Since", "Fri, 27 Nov 2026 12:00:00 GMT"),
                                            HTTPHeader("Accept", "application/json")])
        let response = try await recorder.send(request)
        #expect(response.status == 200)
        #expect(base.requests.first?.headers == [HTTPHeader("Accept", "application/json")])
        #expect(recorder.interactions.map(\.response.status) == [200])
        #expect(recorder.interactions.first?.response.body == Array("{\"t\":1}".utf8))
    }
}
