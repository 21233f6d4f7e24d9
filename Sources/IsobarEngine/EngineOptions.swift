import IsobarCore

/// How a command asks: its deadline, how it uses the cache, and how hard it tries.
public struct EngineOptions: Sendable {
    /// Seconds the whole command may take; no provider is waited for beyond it.
    public var timeoutSeconds: Double = 10
    /// False to skip reading the cache (`--refresh`); answers are still stored.
    public var readCache = true
    /// False to send no HTTP validators (`--record`, whose cassettes need whole answers); with it, even a command that
    /// skips the cache revalidates the answers it kept (`If-None-Match`, `If-Modified-Since`), as some providers' terms ask.
    public var sendsValidators = true
    /// True to use only the cache, never the network (`--offline`).
    public var offline = false
    /// Seconds an entry stays usable, overriding every provider's time to live (`--max-age`).
    public var maxAgeSeconds: Double?
    /// Retries after the first attempt on 5xx, timeouts and connection errors.
    public var maxRetries = 2
    /// First backoff ceiling in seconds; doubles per retry (full jitter).
    public var retryBaseDelaySeconds = 0.25
    /// Consecutive failures that open a provider's breaker.
    public var breakerThreshold = 5
    /// Seconds an open breaker skips its provider before one attempt is let through.
    public var breakerOpenSeconds: Double = 60
    /// A Retry-After longer than this skips the provider instead of waiting.
    public var longestWaitSeconds: Double = 3600
    /// Seconds a fetch lease lasts unless its holder renews it; a holder that stopped is taken over after this.
    public var leaseSeconds: Double = 5
    /// Requests (places) in flight at once.
    public var maxConcurrentRequests = 16
    /// Calls in flight at once to any one provider (its host).
    public var maxConcurrentCallsPerProvider = 8
    /// True to wait for rate limits and Retry-After pauses until the deadline instead of failing as `rate_limited` (batch).
    public var waitsForRateLimits = false
    /// True to cache only the kinds asked for (batch): a provider that answers more (Open-Meteo's days of hours when only
    /// current conditions are asked) leaves the rest uncached instead of encoding it for nobody.
    public var cachesOnlyAskedKinds = false

    /// A deadline far enough away to mean none (ten years), for runs that are meant to finish whatever they take.
    public static let noDeadlineSeconds = 10 * 365 * 86_400.0

    /// Options with the defaults.
    public init() {}
}

/// What the engine may do for one provider besides asking it: its limits and cache lifetimes.
public struct ProviderPolicy: Sendable, Equatable {
    /// Rate limits enforced across processes.
    public var rateLimits: [RateLimit]
    /// Seconds current conditions stay fresh.
    public var currentTTLSeconds: Double
    /// Seconds forecasts stay fresh.
    public var forecastTTLSeconds: Double
    /// Seconds a cached answer may still be served, marked stale, when the provider fails.
    public var maxStaleSeconds: Double
    /// The longest pause a provider's Retry-After may impose; a longer request is stored capped (`max_cooldown_s`).
    public var maxCooldownSeconds: Double = 3600
    /// Seconds the provider may take within a command, every attempt included (`timeout_s`); nil for the command's deadline.
    public var budgetSeconds: Double?
    /// The most calls in flight to it at once (`max_concurrent_calls`); nil for the engine's bound alone.
    public var maxConcurrentCalls: Int?

    /// A policy; defaults come from the provider's declaration.
    public init(rateLimits: [RateLimit], currentTTLSeconds: Double, forecastTTLSeconds: Double, maxStaleSeconds: Double = 86_400) {
        self.rateLimits = rateLimits
        self.currentTTLSeconds = currentTTLSeconds
        self.forecastTTLSeconds = forecastTTLSeconds
        self.maxStaleSeconds = maxStaleSeconds
    }

    /// The provider's declared limits and lifetimes.
    public init(declaredBy provider: any WeatherProvider) {
        let capabilities = provider.capabilities
        self.init(rateLimits: capabilities.rateLimits, currentTTLSeconds: capabilities.freshFor.current,
                  forecastTTLSeconds: capabilities.freshFor.forecast)
        maxConcurrentCalls = capabilities.maxConcurrentCalls
    }
}
