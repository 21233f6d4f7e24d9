import FoundationEssentials

/// Which part of an answer a cache entry holds: current conditions, or forecast steps with days.
public enum CacheSlot: String, Sendable, CaseIterable, Hashable {
    /// Current conditions.
    case current
    /// Forecast steps and days.
    case forecast
    /// An alert source's answer for a place, its last poll, and the published files (CAP) it fetched once (see `AlertCache`).
    case alerts
    /// Whole answers of the requests a source makes outside the pipeline (`learn`'s past forecasts and archived
    /// reports), kept as received, one entry per request (see `AnswerCachingTransport`).
    case past

    /// The slots of a weather answer: current conditions, and steps with days.
    public static let weather: [CacheSlot] = [.current, .forecast]
}

/// Where one cached answer lives: a provider, a slot and a place (coordinates rounded to about a kilometre).
public struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The provider's id.
    public var provider: String
    /// The part of the answer.
    public var slot: CacheSlot
    /// The rounded coordinates, e.g. `53.9,27.57`.
    public var placeKey: String

    /// Creates a key.
    public init(provider: String, slot: CacheSlot, placeKey: String) {
        self.provider = provider
        self.slot = slot
        self.placeKey = placeKey
    }

    /// `provider|slot|place`, as used for fetch leases.
    public var description: String { "\(provider)|\(slot.rawValue)|\(placeKey)" }
}

/// One cached answer.
public struct CacheEntry: Sendable, Equatable {
    /// When the provider answered.
    public let fetchedAt: Date
    /// The normalised report, encoded by `ReportCodec`.
    public let payload: String
    /// Seconds it stays fresh by the provider's HTTP headers (`max-age`, `Expires`), when they said; nil for the configured lifetime.
    public let lifetimeSeconds: Double?
    /// True when the provider said `must-revalidate` or `no-cache`: past its lifetime it is never served stale.
    public let mustRevalidate: Bool

    /// Creates an entry.
    public init(fetchedAt: Date, payload: String, lifetimeSeconds: Double? = nil, mustRevalidate: Bool = false) {
        self.fetchedAt = fetchedAt
        self.payload = payload
        self.lifetimeSeconds = lifetimeSeconds
        self.mustRevalidate = mustRevalidate
    }
}

/// Keeps providers' answers between runs.
public protocol ResponseCache: StoragePart {
    /// The entry stored under `key`, if any.
    func entry(for key: CacheKey) async throws(StorageError) -> CacheEntry?
    /// Stores `entry` under `key`, replacing what was there.
    func store(_ entry: CacheEntry, for key: CacheKey) async throws(StorageError)
    /// `store`, queued when the backend queues writes (see `QueuedWriting`), else awaited; a failure goes to `failed`.
    func storeSoon(_ entry: CacheEntry, for key: CacheKey, failed: @escaping @Sendable (StorageError) -> Void) async
    /// Deletes the entry under `key`, if any (an answer the provider said must not be stored).
    func removeEntry(for key: CacheKey) async throws(StorageError)
    /// The entry under `key` when it can be read on the caller's thread without waiting for anything (a lock, a thread, the
    /// network); `wouldWait` otherwise, and the caller reads it with `entry(for:)`.
    func entryAtOnce(for key: CacheKey) -> AtOnce<CacheEntry?>
}

extension ResponseCache {
    /// Nothing is read at once: every read goes through `entry(for:)`.
    public func entryAtOnce(for key: CacheKey) -> AtOnce<CacheEntry?> { .wouldWait }
}

/// What a read that must not wait found: its value, or that it would have had to wait.
public enum AtOnce<Value: Sendable>: Sendable {
    /// Read without waiting.
    case answered(Value)
    /// Not read: it would have waited.
    case wouldWait
}

/// Entry counts of one provider and slot, for `isobar cache stats`.
public struct CacheGroup: Sendable, Equatable {
    /// The provider's id.
    public var provider: String
    /// The part of the answer.
    public var slot: String
    /// Entries held.
    public var count: Int
    /// When the oldest was fetched.
    public var oldest: Date
    /// When the newest was fetched.
    public var newest: Date

    /// Creates a group.
    public init(provider: String, slot: String, count: Int, oldest: Date, newest: Date) {
        self.provider = provider
        self.slot = slot
        self.count = count
        self.oldest = oldest
        self.newest = newest
    }
}

/// What a cache holds, for `isobar cache stats`.
public struct CacheStatistics: Sendable, Equatable {
    /// Entries per provider and slot, ordered by provider then slot.
    public var groups: [CacheGroup]
    /// Bytes of payload in all.
    public var payloadBytes: Int

    /// Creates statistics.
    public init(groups: [CacheGroup], payloadBytes: Int) {
        self.groups = groups
        self.payloadBytes = payloadBytes
    }
}

/// Looking after a cache by hand: `isobar cache stats|clear|prune`.
public protocol CacheMaintenance: Sendable {
    /// Where the cache lives, for messages (a path or a masked URL).
    var location: String { get }
    /// Entry counts and payload size.
    func statistics() async throws(StorageError) -> CacheStatistics
    /// Deletes every cached answer and every kept HTTP validator; returns how many answers.
    func clear() async throws(StorageError) -> Int
    /// Deletes answers and HTTP validators kept before `cutoff`, and rate-limit records no window can see; returns the answers deleted.
    func prune(fetchedBefore cutoff: Date, ledgerBefore ledgerCutoff: Date) async throws(StorageError) -> Int
}
