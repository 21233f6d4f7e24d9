import IsobarCore
import Synchronization

/// A transport that answers from a closure and records every request, for adapter tests.
public final class StubTransport: Transport {
    private let respond: @Sendable (HTTPRequest) throws(ProviderError) -> HTTPResponse
    private let seen = Mutex<[HTTPRequest]>([])

    /// Answers every request with `respond`.
    public init(_ respond: @escaping @Sendable (HTTPRequest) throws(ProviderError) -> HTTPResponse) {
        self.respond = respond
    }

    /// Answers every request with the same status and body.
    public convenience init(status: Int, body: String, headers: [HTTPHeader] = []) {
        self.init { _ in HTTPResponse(status: status, headers: headers, body: Array(body.utf8)) }
    }

    /// Records the request and answers it.
    public func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        seen.withLock { $0.append(request) }
        return try respond(request)
    }

    /// Every request sent so far, in order.
    public var requests: [HTTPRequest] { seen.withLock { $0 } }
}
