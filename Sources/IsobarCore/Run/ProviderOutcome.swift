/// How each provider's turn ended, as shown in tables and JSON lines.
public enum ProviderOutcome: String, Sendable, CaseIterable {
    /// Answered now.
    case ok
    /// Answered from the cache within its time to live.
    case cached
    /// Answered from the cache past its time to live, because the provider failed.
    case stale
    /// Failed.
    case error
    /// Refused for its rate limit.
    case rateLimited = "rate_limited"
    /// Not asked: breaker open, long cooldown, or offline with nothing cached.
    case skipped

    /// The outcome of an answer.
    public init(_ freshness: Freshness) {
        switch freshness {
        case .fresh: self = .ok
        case .cached: self = .cached
        case .stale: self = .stale
        }
    }

    /// The outcome of a failure.
    public init(_ error: ProviderError) {
        if case .rateLimited = error.code {
            self = .rateLimited
        } else if error.reason?.isSkip == true {
            self = .skipped
        } else {
            self = .error
        }
    }
}
