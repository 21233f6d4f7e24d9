/// The finer cause of a provider's failure, for programs; written out as its snake-case raw value (`reason` in JSON lines).
public enum FailureCause: String, Sendable, CaseIterable, Hashable {
    /// The body could not be decompressed.
    case badEncoding = "bad_encoding"
    /// The body was larger than allowed.
    case bodyTooLarge = "body_too_large"
    /// The connection closed before the body was complete.
    case bodyTruncated = "body_truncated"
    /// Skipped: the provider's circuit breaker is open.
    case breakerOpen = "breaker_open"
    /// The request was cancelled.
    case cancelled
    /// No connection could be made in time.
    case connectTimeout = "connect_timeout"
    /// The host refused the connection or could not be reached.
    case connectionRefused = "connection_refused"
    /// Skipped: the provider asked for a pause longer than Isobar waits.
    case cooldown
    /// The provider's pause lasts beyond the command's deadline.
    case cooldownWait = "cooldown_wait"
    /// The command's deadline came first.
    case deadline
    /// The host name could not be resolved.
    case dnsFailure = "dns_failure"
    /// A redirect to a non-https address was refused.
    case insecureRedirect = "insecure_redirect"
    /// A plain-http address that is not loopback was refused.
    case insecureURL = "insecure_url"
    /// Isobar's own rate-limit ledger has no room before the deadline.
    case localLimit = "local_limit"
    /// Replayed: no recording answers the request (the place, or the question, was not recorded).
    case notRecorded = "not_recorded"
    /// Skipped: offline, and nothing is cached.
    case offline
    /// Skipped: the place lies outside the coverage the provider declares (not a failure: it has no data there).
    case outsideCoverage = "outside_coverage"
    /// The TLS handshake or certificate check failed.
    case tlsFailure = "tls_failure"
    /// More redirects than allowed.
    case tooManyRedirects = "too_many_redirects"
    /// The whole exchange took longer than allowed.
    case totalTimeout = "total_timeout"
    /// Any other failure of the transport.
    case transportFailure = "transport_failure"

    /// True for causes where the provider was deliberately not asked (shown as `skipped`).
    public var isSkip: Bool {
        switch self {
        case .breakerOpen, .cooldown, .offline, .outsideCoverage: true
        default: false
        }
    }
}
