import FoundationEssentials
import Synchronization

/// A provider's cooldown and breaker as read together.
public struct HealthReading: Sendable, Equatable {
    /// The cooldown, if one lasted beyond the instant it was read for.
    public var cooldown: Cooldown?
    /// The breaker.
    public var breaker: BreakerState

    /// Creates a reading.
    public init(cooldown: Cooldown?, breaker: BreakerState) {
        self.cooldown = cooldown
        self.breaker = breaker
    }
}

/// What a backend read in the step that took a fetch lease, for the holder to use instead of asking again.
public struct LeaseLook: Sendable, Equatable {
    /// True when the lease was taken (or renewed); nothing else is read otherwise.
    public var acquired: Bool
    /// The cached entries under the keys asked for, in their order, as they stood once the lease was taken.
    public var entries: [CacheEntry?]
    /// The provider's cooldown and breaker, when asked for.
    public var health: HealthReading?
    /// The permit granted with the lease, when one was asked for and the call will surely need it (see `LeaseLookup`).
    public var permit: CallID?

    /// Creates a look.
    public init(acquired: Bool, entries: [CacheEntry?] = [], health: HealthReading? = nil, permit: CallID? = nil) {
        self.acquired = acquired
        self.entries = entries
        self.health = health
        self.permit = permit
    }
}

/// A backend whose leases, cache, provider health and call ledger are one store, that does in the step taking a fetch lease
/// what its holder does next: reads the cached answers another holder may have just stored and the provider's cooldown and
/// breaker, and takes the call's first permit. One step instead of four: the single-flight step uses it when the pipeline's
/// leases, cache, health and ledger are this backend.
public protocol LeaseLookup: FetchLock {
    /// `acquire`; once the lease is taken, also the entries under `keys` and, when `healthOf` names a provider, its cooldown
    /// (if one lasts beyond `now`) and its breaker, each read as `entry(for:)` and the health reads would read them then.
    /// With `permit`, and `healthOf` naming its provider, also decides it as `CallLedger.acquire` would, but only when the
    /// provider has no cooldown and its breaker is closed (else the call may not be made: no permit is taken).
    func acquire(_ key: String, owner: LeaseOwner, seconds: Double, now: Date, reading keys: [CacheKey], healthOf provider: String?,
                 permit: PermitRequest?) async throws(StorageError) -> LeaseLook
    /// Forgets a permit granted with a lease for a call that was not made (the answer was cached meanwhile, the call was
    /// skipped or failed before asking); queued when the backend queues writes. A failure goes to `failed`.
    func withdrawSoon(_ permit: CallID, failed: @escaping @Sendable (StorageError) -> Void) async
}

/// A permit granted with a fetch lease, handed down the pipeline to the rate-limit step, which takes it once.
public final class PermitHandoff: Sendable {
    private let permit: Mutex<CallID?>

    /// Holds `permit` until taken.
    public init(_ permit: CallID) {
        self.permit = Mutex(permit)
    }

    /// The permit, the first time; nil after.
    public func take() -> CallID? {
        permit.withLock { permit in
            defer { permit = nil }
            return permit
        }
    }
}
