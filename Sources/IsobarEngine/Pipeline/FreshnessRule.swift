import FoundationEssentials
import IsobarCore

/// How long one provider's cached answers stay fresh: the one rule of the cache step and of a tiered cache deciding whether
/// its local copy is fresh enough to serve without asking the shared one.
public struct FreshnessRule: Sendable {
    /// The configured lifetimes.
    public var policy: ProviderPolicy
    /// True when the provider's terms require its HTTP lifetime to be used as given (longer than the configured one too).
    public var honoursHTTPExpiry: Bool
    /// Seconds an entry stays fresh whatever the policy says (`--max-age`).
    public var maxAgeSeconds: Double?

    /// The rule for a provider with `policy`.
    public init(policy: ProviderPolicy, honoursHTTPExpiry: Bool, maxAgeSeconds: Double?) {
        self.policy = policy
        self.honoursHTTPExpiry = honoursHTTPExpiry
        self.maxAgeSeconds = maxAgeSeconds
    }

    /// Seconds an answer in `slot` stays fresh: the configured lifetime, shortened by the HTTP lifetime (or replaced by it
    /// when the provider honours HTTP expiry); `--max-age` replaces both, but never lengthens a `must-revalidate` answer's.
    public func lifetime(_ slot: CacheSlot, httpLifetimeSeconds: Double?, mustRevalidate: Bool) -> Double {
        let configured = slot == .current ? policy.currentTTLSeconds : policy.forecastTTLSeconds
        var natural = configured
        if let http = httpLifetimeSeconds { natural = honoursHTTPExpiry ? http : min(configured, http) }
        guard let maxAgeSeconds else { return natural }
        return mustRevalidate ? min(maxAgeSeconds, natural) : maxAgeSeconds
    }

    /// True when an answer in `slot` fetched at `fetchedAt` is, at `now`, no older than its lifetime.
    public func isFresh(fetchedAt: Date, now: Date, slot: CacheSlot, httpLifetimeSeconds: Double?, mustRevalidate: Bool) -> Bool {
        now.timeIntervalSince(fetchedAt) <= lifetime(slot, httpLifetimeSeconds: httpLifetimeSeconds, mustRevalidate: mustRevalidate)
    }

    /// True when a stored entry for `slot` is fresh at `now`.
    public func isFresh(_ entry: CacheEntry, slot: CacheSlot, now: Date) -> Bool {
        isFresh(fetchedAt: entry.fetchedAt, now: now, slot: slot, httpLifetimeSeconds: entry.lifetimeSeconds,
                mustRevalidate: entry.mustRevalidate)
    }
}
