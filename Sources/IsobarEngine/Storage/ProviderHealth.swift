import FoundationEssentials

/// A pause a provider asked for (HTTP 429 with Retry-After), respected by every process sharing the store.
public struct Cooldown: Sendable, Equatable {
    /// When asking is allowed again.
    public var until: Date
    /// Why, for people, e.g. `HTTP 429`.
    public var reason: String

    /// Creates a cooldown.
    public init(until: Date, reason: String) {
        self.until = until
        self.reason = reason
    }
}

/// Cooldowns by provider.
public protocol CooldownStore: StoragePart {
    /// The provider's cooldown, if one lasts beyond `now`.
    func cooldown(provider: String, now: Date) async throws(StorageError) -> Cooldown?
    /// Sets a cooldown, or extends the one in place (never shortens it).
    func setCooldown(_ cooldown: Cooldown, provider: String) async throws(StorageError)
    /// Removes the provider's cooldown, if any (`isobar providers reset`).
    func clearCooldown(provider: String) async throws(StorageError)
}

/// A provider's circuit breaker as stored.
public struct BreakerState: Sendable, Equatable {
    /// Consecutive failures so far.
    public var failures: Int
    /// When it opened, if it is open.
    public var openedAt: Date?
    /// What the last failure said (the provider's message without its name), so that a skipped call can name the real cause.
    public var lastFailure: String?

    /// Creates a state.
    public init(failures: Int = 0, openedAt: Date? = nil, lastFailure: String? = nil) {
        self.failures = failures
        self.openedAt = openedAt
        self.lastFailure = lastFailure
    }

    /// The longest failure text kept: enough for a host name and a cause, never a whole body.
    public static let failureTextLimit = 200

    /// `text` as a breaker keeps it: one line, at most `failureTextLimit` characters.
    public static func keptFailure(_ text: String?) -> String? {
        guard let text else { return nil }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count <= failureTextLimit ? line : String(line.prefix(failureTextLimit - 1)) + "…"
    }
}

/// Circuit breakers by provider.
public protocol BreakerStore: StoragePart {
    /// The provider's breaker.
    func breaker(provider: String) async throws(StorageError) -> BreakerState
    /// Records a success (closing the breaker) or a failure (opening it at `threshold` consecutive failures, and keeping what
    /// `failure` says of it); returns the new state.
    func recordOutcome(provider: String, succeeded: Bool, threshold: Int, now: Date, failure: String?) async throws(StorageError) -> BreakerState
    /// `recordOutcome`, queued when the backend queues writes (see `QueuedWriting`), else awaited; a failure goes to `failed`.
    func recordOutcomeSoon(provider: String, succeeded: Bool, threshold: Int, now: Date, failed: @escaping @Sendable (StorageError) -> Void) async
    /// Closes the provider's breaker and forgets its failures (`isobar providers reset`).
    func resetBreaker(provider: String) async throws(StorageError)
}

/// A backend that reads a provider's cooldown and breaker in one step (a cooldown read is followed by a breaker read on
/// every call).
public protocol ProviderHealthStore: CooldownStore, BreakerStore {
    /// The provider's cooldown, if one lasts beyond `now`, and its breaker, read together.
    func health(provider: String, now: Date) async throws(StorageError) -> (cooldown: Cooldown?, breaker: BreakerState)
}

extension BreakerStore {
    /// `recordOutcome` with nothing said of the failure.
    @discardableResult
    public func recordOutcome(provider: String, succeeded: Bool, threshold: Int, now: Date) async throws(StorageError) -> BreakerState {
        try await recordOutcome(provider: provider, succeeded: succeeded, threshold: threshold, now: now, failure: nil)
    }
}
