import FoundationEssentials
import IsobarCore

/// How a waiter learns that the fetch it waited for failed: the holder's failure is counted by the provider's breaker
/// before the holder lets its lease go, so a waiter that finds more failures counted than when it began waiting takes
/// that failure instead of asking again. Every process and machine sharing the breaker sees it: one request per attempt
/// however many callers wait, whether the failure said Retry-After (that sets a cooldown too) or not.
public struct FailedFlight: Sendable {
    /// The provider's breakers.
    public let breakers: any BreakerStore
    /// The key its breaker is kept under (see `ProviderBinding.storageKey`).
    public let storageKey: String
    /// The provider's name, for the message.
    public let providerName: String

    /// Watches `breakers` under `storageKey`.
    public init(breakers: any BreakerStore, storageKey: String, providerName: String) {
        self.breakers = breakers
        self.storageKey = storageKey
        self.providerName = providerName
    }

    /// The failures counted so far; nil when the breaker cannot be read (the waiter then asks again when its turn comes).
    public func failuresNow() async -> Int? {
        try? await breakers.breaker(provider: storageKey).failures
    }

    /// The failure a waiter takes when more failures were counted than `before` (`read` is the breaker when just read,
    /// nil to read it); nil when none was counted meanwhile, or it cannot be told.
    public func failure(since before: Int, read: BreakerState?) async -> ProviderError? {
        let failures: Int
        if let read {
            failures = read.failures
        } else if let now = await failuresNow() {
            failures = now
        } else {
            return nil
        }
        guard failures > before else { return nil }
        return ProviderError(.unavailable, "\(providerName) failed just now for another caller asking the same; not asked again")
    }
}
