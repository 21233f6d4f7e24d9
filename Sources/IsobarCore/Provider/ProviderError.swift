/// Why a provider gave no answer; equal when the codes are equal. Messages never carry a secret.
public struct ProviderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: Sendable, Equatable {
        /// The key was refused (missing, wrong or not yet active).
        case unauthorized
        /// The provider knows no such place or resource.
        case notFound
        /// The provider rejected the request's parameters.
        case badRequest
        /// Too many requests; retry after the given seconds when the provider says.
        case rateLimited(retryAfterSeconds: Double?)
        /// The provider or the network is down or unreachable.
        case unavailable
        /// No answer in time.
        case timeout
        /// The answer could not be understood; the JSON path (or `$`) names where.
        case badResponse(path: String)
        /// The provider needs configuration (such as an API key) that is missing.
        case notConfigured
        /// The provider cannot answer this kind of request.
        case unsupported
        /// The request was cancelled.
        case cancelled
    }

    /// The kind of failure.
    public var code: Code
    /// One line for people.
    public var message: String
    /// A finer machine-readable cause, e.g. `.connectionRefused`, `.dnsFailure`, `.bodyTooLarge`.
    public var reason: FailureCause?
    /// Seconds the provider asked to be left alone (`Retry-After` on a 5xx answer); a 429 carries them in its code.
    public var retryAfterSeconds: Double?
    /// For a provider that is not set up: the environment variable that would set it up, e.g. `OPENWEATHERMAP_API_KEY`.
    public var setting: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, reason: FailureCause? = nil, retryAfterSeconds: Double? = nil, setting: String? = nil) {
        self.code = code
        self.message = MessageText.oneLine(message)
        self.reason = reason
        self.retryAfterSeconds = retryAfterSeconds
        self.setting = setting
    }

    /// Snake-case name of the code used in JSON output, e.g. `rate_limited`.
    public var codeName: String {
        switch code {
        case .unauthorized: "unauthorized"
        case .notFound: "not_found"
        case .badRequest: "bad_request"
        case .rateLimited: "rate_limited"
        case .unavailable: "unavailable"
        case .timeout: "timeout"
        case .badResponse: "bad_response"
        case .notConfigured: "not_configured"
        case .unsupported: "unsupported"
        case .cancelled: "cancelled"
        }
    }

    /// The message.
    public var description: String { message }

    /// A `badResponse` for a JSON problem, naming its path.
    public static func badResponse(_ error: JSONError, provider: String) -> ProviderError {
        ProviderError(.badResponse(path: error.path), "\(provider) sent a response Isobar cannot read: \(error)")
    }

    /// Runs a decoder's reading of a body: a JSON problem becomes a `badResponse` naming its path, a `ProviderError` passes
    /// through, and anything else is an unreadable response.
    public static func decoding<T>(provider: String, _ read: () throws -> T) throws(ProviderError) -> T {
        do {
            return try read()
        } catch let error as JSONError {
            throw ProviderError.badResponse(error, provider: provider)
        } catch let error as ProviderError {
            throw error
        } catch {
            throw ProviderError(.badResponse(path: "$"), "\(provider) sent an unreadable response")
        }
    }

    /// This error with every occurrence of the given secrets in its message replaced by `REDACTED`.
    public func redacting(_ secrets: [String]) -> ProviderError {
        var copy = self
        copy.message = secrets.reduce(message) { $0.replacingAll($1, with: "REDACTED") }
        return copy
    }

    public static func == (lhs: ProviderError, rhs: ProviderError) -> Bool { lhs.code == rhs.code }
}
