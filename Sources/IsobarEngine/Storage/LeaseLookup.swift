import FoundationEssentials

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

    /// Creates a look.
    public init(acquired: Bool, entries: [CacheEntry?] = [], health: HealthReading? = nil) {
        self.acquired = acquired
        self.entries = entries
        self.health = health
    }
}

/// A backend whose leases, cache and provider health are one store, that reads in the step taking a fetch lease what its
/// holder looks at next: the cached answers another holder may have just stored, and the provider's cooldown and breaker.
/// One step instead of three: the single-flight step uses it when the pipeline's leases, cache and health are this backend.
public protocol LeaseLookup: FetchLock {
    /// `acquire`; once the lease is taken, also the entries under `keys` and, when `healthOf` names a provider, its cooldown
    /// (if one lasts beyond `now`) and its breaker, each read as `entry(for:)` and the health reads would read them then.
    func acquire(_ key: String, owner: LeaseOwner, seconds: Double, now: Date, reading keys: [CacheKey],
                 healthOf provider: String?) async throws(StorageError) -> LeaseLook
}
