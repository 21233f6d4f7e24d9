import FoundationEssentials
import IsobarCore

/// Who holds a lease: a random token per holder, meaningful on any machine.
public struct LeaseOwner: Sendable, Hashable, CustomStringConvertible {
    /// The token.
    public let token: String

    /// A given token (tests).
    public init(token: String) {
        self.token = token
    }

    /// A new token, unique within the process and random across processes (see `LeaseTokens`).
    public static func random() -> LeaseOwner {
        LeaseOwner(token: LeaseTokens.shared.next())
    }

    /// A new owner named after this one: its token, `/`, and a new token of its own (see `random()`).
    public func child() -> LeaseOwner {
        LeaseOwner(token: LeaseTokens.shared.next(after: token))
    }

    /// The token.
    public var description: String { token }
}

/// Leases that let one holder at a time fetch a given answer; a holder that stops renewing loses its lease when it expires.
public protocol FetchLock: StoragePart {
    /// Takes the lease on `key` for `seconds` unless another owner holds one that has not expired; renews it when `owner` holds it.
    func acquire(_ key: String, owner: LeaseOwner, seconds: Double, now: Date) async throws(StorageError) -> Bool
    /// Extends `owner`'s lease to `now + seconds`; false when `owner` no longer holds it.
    func renew(_ key: String, owner: LeaseOwner, seconds: Double, now: Date) async throws(StorageError) -> Bool
    /// Ends `owner`'s lease, if it still holds it.
    func release(_ key: String, owner: LeaseOwner) async throws(StorageError)
    /// `release`, queued when the backend queues writes (see `QueuedWriting`), else awaited; a failure goes to `failed`.
    func releaseSoon(_ key: String, owner: LeaseOwner, failed: @escaping @Sendable (StorageError) -> Void) async
    /// Waits before a waiter looks at `key` again while another owner holds it; `attempt` counts the waits so far, from 0.
    func awaitTurn(_ key: String, attempt: Int, pollSeconds: Double, time: any TimeSource) async throws
}

extension FetchLock {
    /// Sleeps `pollSeconds` on `time`, whatever the attempt.
    public func awaitTurn(_ key: String, attempt: Int, pollSeconds: Double, time: any TimeSource) async throws {
        try await time.sleep(seconds: pollSeconds)
    }
}

/// Everything the engine keeps between runs, each part behind its own protocol so that backends can be mixed.
public struct EngineStorage: Sendable {
    /// Providers' answers.
    public var cache: any ResponseCache
    /// Rate-limit windows.
    public var ledger: any CallLedger
    /// Pauses providers asked for.
    public var cooldowns: any CooldownStore
    /// Circuit breakers.
    public var breakers: any BreakerStore
    /// Single-flight leases.
    public var locks: any FetchLock
    /// HTTP validators and bodies for conditional requests; nil to send none.
    public var validators: (any HTTPValidatorStore)?

    /// Storage made of separate parts.
    public init(cache: any ResponseCache, ledger: any CallLedger, cooldowns: any CooldownStore, breakers: any BreakerStore,
                locks: any FetchLock, validators: (any HTTPValidatorStore)? = nil) {
        self.cache = cache
        self.ledger = ledger
        self.cooldowns = cooldowns
        self.breakers = breakers
        self.locks = locks
        self.validators = validators
    }

    /// Storage whose every part is one backend.
    public init(_ backend: some ResponseCache & CallLedger & CooldownStore & BreakerStore & FetchLock & HTTPValidatorStore) {
        self.init(cache: backend, ledger: backend, cooldowns: backend, breakers: backend, locks: backend, validators: backend)
    }
}
