import FoundationEssentials

/// One HTTP header field.
public struct HTTPHeader: Sendable, Equatable {
    /// Field name as sent.
    public var name: String
    /// Field value.
    public var value: String

    /// Creates a header field.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// Limits of one transfer; a transport applies its own defaults where a request sets none.
public struct TransferLimits: Sendable, Equatable {
    /// Seconds allowed to establish the connection.
    public var connectTimeoutSeconds: Double
    /// Seconds allowed for the whole exchange.
    public var totalTimeoutSeconds: Double
    /// Largest response body accepted, in bytes; a larger one is refused while it arrives.
    public var maxResponseBytes: Int

    /// Limits with the usual defaults: 5 s to connect, 10 s in all, 8 MiB.
    public init(connectTimeoutSeconds: Double = 5, totalTimeoutSeconds: Double = 10, maxResponseBytes: Int = 8 << 20) {
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.totalTimeoutSeconds = totalTimeoutSeconds
        self.maxResponseBytes = maxResponseBytes
    }
}

/// An HTTP request a provider wants sent.
public struct HTTPRequest: Sendable, Equatable {
    /// `GET` unless said otherwise.
    public var method: String
    /// Where to send it.
    public var url: RequestURL
    /// Extra header fields.
    public var headers: [HTTPHeader]
    /// Names of query parameters that hold secrets and must never be shown or stored.
    public var secretQueryNames: Set<String>
    /// Who is asking (a provider's display name), for error messages.
    public var origin: String
    /// Limits for this transfer, when the caller sets them.
    public var limits: TransferLimits?
    /// The instant the whole exchange must be over by (a command's deadline); a transport shortens its timeouts to meet it.
    public var notAfter: Date?

    /// Creates a request.
    public init(method: String = "GET", url: RequestURL, headers: [HTTPHeader] = [], secretQueryNames: Set<String> = [],
                origin: String = "", limits: TransferLimits? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.secretQueryNames = secretQueryNames
        self.origin = origin
        self.limits = limits
    }

    /// The values of the secret query parameters, to scrub wherever they might surface.
    public var secretValues: [String] {
        url.query.filter { secretQueryNames.contains($0.name) && !$0.value.isEmpty }.map(\.value)
    }

    /// The URL with secret parameters removed, safe to show and store.
    public var redactedURL: String { url.removing(queryNames: secretQueryNames).string }
}

/// An HTTP response.
public struct HTTPResponse: Sendable, Equatable {
    /// Status code, e.g. 200.
    public var status: Int
    /// Header fields in the order received.
    public var headers: [HTTPHeader]
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header field, matched case-insensitively.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}

/// Sends HTTP requests; providers receive one and never create their own. Errors are `ProviderError`.
public protocol Transport: Sendable {
    /// Sends a request and returns the whole response.
    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse
}

/// Applies one provider's transfer limits to every request it sends through another transport.
public struct LimitingTransport: Transport {
    /// The transport that sends.
    public let base: any Transport
    /// The limits set on requests that have none.
    public let limits: TransferLimits

    /// Wraps `base`.
    public init(base: any Transport, limits: TransferLimits) {
        self.base = base
        self.limits = limits
    }

    /// Sends through `base` with the limits set.
    public func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        var limited = request
        if limited.limits == nil { limited.limits = limits }
        return try await base.send(limited)
    }
}
