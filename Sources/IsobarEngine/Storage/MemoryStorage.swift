import FoundationEssentials
import IsobarCore
import Synchronization

/// Every storage protocol in memory, for tests and for a process with no usable file; nothing outlives the process.
public final class MemoryStorage: ResponseCache, CallLedger, CooldownStore, BreakerStore, FetchLock, CacheMaintenance, HTTPValidatorStore {
    private struct Call {
        var provider: String
        var at: Date
        var cost: Double
        var deadline: Date
        var settledAt: Date?

        /// The instant it stops counting at the earliest: its settling time, or its command's deadline while in flight.
        var countsUntil: Date { settledAt ?? deadline }
    }

    private struct Lease {
        var owner: LeaseOwner
        var expires: Date
    }

    private struct State {
        var entries: [CacheKey: CacheEntry] = [:]
        var validations: [String: HTTPValidation] = [:]
        var calls: [Int: Call] = [:]
        var nextCall = 1
        var cooldowns: [String: Cooldown] = [:]
        var breakers: [String: BreakerState] = [:]
        var leases: [String: Lease] = [:]
    }

    private let state = Mutex(State())

    /// An empty store.
    public init() {}

    /// `memory`.
    public var location: String { "memory" }

    // MARK: ResponseCache

    /// The entry under `key`.
    public func entry(for key: CacheKey) async throws(StorageError) -> CacheEntry? { state.withLock { $0.entries[key] } }

    /// Stores an entry.
    public func store(_ entry: CacheEntry, for key: CacheKey) async throws(StorageError) { state.withLock { $0.entries[key] = entry } }

    /// Deletes an entry.
    public func removeEntry(for key: CacheKey) async throws(StorageError) { state.withLock { $0.entries[key] = nil } }

    // MARK: HTTPValidatorStore

    /// The validation record under `key`.
    public func validation(for key: String) async throws(StorageError) -> HTTPValidation? { state.withLock { $0.validations[key] } }

    /// Keeps a validation record.
    public func storeValidation(_ validation: HTTPValidation, for key: String) async throws(StorageError) {
        state.withLock { $0.validations[key] = validation }
    }

    /// Forgets a validation record.
    public func removeValidation(for key: String) async throws(StorageError) { state.withLock { $0.validations[key] = nil } }

    // MARK: CacheMaintenance

    /// Counts per provider and slot.
    public func statistics() async throws(StorageError) -> CacheStatistics {
        state.withLock { state in
            let grouped = Dictionary(grouping: state.entries) { "\($0.key.provider)|\($0.key.slot.rawValue)" }
            let groups = grouped.values.map { members in
                let key = members[0].key
                let times = members.map(\.value.fetchedAt)
                return CacheGroup(provider: key.provider, slot: key.slot.rawValue, count: members.count,
                                  oldest: times.min() ?? .distantPast, newest: times.max() ?? .distantPast)
            }.sorted { ($0.provider, $0.slot) < ($1.provider, $1.slot) }
            return CacheStatistics(groups: groups, payloadBytes: state.entries.values.reduce(0) { $0 + $1.payload.utf8.count })
        }
    }

    /// Empties the cache.
    public func clear() async throws(StorageError) -> Int {
        state.withLock { state in
            defer {
                state.entries = [:]
                state.validations = [:]
            }
            return state.entries.count
        }
    }

    /// Drops old entries, calls and cooldowns.
    public func prune(fetchedBefore cutoff: Date, ledgerBefore ledgerCutoff: Date) async throws(StorageError) -> Int {
        state.withLock { state in
            let before = state.entries.count
            state.entries = state.entries.filter { $0.value.fetchedAt >= cutoff }
            state.validations = state.validations.filter { $0.value.storedAt >= cutoff }
            state.calls = state.calls.filter { $0.value.at >= ledgerCutoff }
            state.cooldowns = state.cooldowns.filter { $0.value.until >= ledgerCutoff }
            return before - state.entries.count
        }
    }

    // MARK: CallLedger

    /// Grants each request whose windows have room, in order.
    public func acquire(_ requests: [PermitRequest], now: Date) async throws(StorageError) -> [PermitDecision] {
        state.withLock { state in
            requests.map { request in
                let counted = state.calls.values.filter { $0.provider == request.provider }
                let freesAt = LedgerWindow.freesAt(request, calls: counted.map { ($0.settledAt, $0.countsUntil, $0.cost) }, now: now)
                guard freesAt <= now else { return .wait(until: freesAt) }
                let id = state.nextCall
                state.nextCall += 1
                state.calls[id] = Call(provider: request.provider, at: now, cost: request.cost, deadline: request.deadline)
                return .granted(CallID(String(id)))
            }
        }
    }

    /// Settles a call.
    public func settle(_ call: CallID, at: Date) async throws(StorageError) {
        guard let id = Int(call.rawValue) else { throw StorageError("unknown call \(call.rawValue)") }
        state.withLock { $0.calls[id]?.settledAt = at }
    }

    /// Weighted calls in each window.
    public func usage(provider: String, windows: [RateLimit], now: Date) async throws(StorageError) -> [Double] {
        state.withLock { state in
            windows.map { window in
                let since = now.addingTimeInterval(-window.perSeconds)
                return state.calls.values.filter { $0.provider == provider && $0.countsUntil > since }.reduce(0) { $0 + $1.cost }
            }
        }
    }

    // MARK: CooldownStore

    /// The cooldown, if it lasts beyond `now`.
    public func cooldown(provider: String, now: Date) async throws(StorageError) -> Cooldown? {
        state.withLock { state in state.cooldowns[provider].flatMap { $0.until > now ? $0 : nil } }
    }

    /// Sets or extends a cooldown.
    public func setCooldown(_ cooldown: Cooldown, provider: String) async throws(StorageError) {
        state.withLock { state in
            var merged = cooldown
            if let existing = state.cooldowns[provider] { merged.until = max(existing.until, cooldown.until) }
            state.cooldowns[provider] = merged
        }
    }

    /// Removes a cooldown.
    public func clearCooldown(provider: String) async throws(StorageError) {
        state.withLock { _ = $0.cooldowns.removeValue(forKey: provider) }
    }

    // MARK: BreakerStore

    /// Closes a breaker.
    public func resetBreaker(provider: String) async throws(StorageError) {
        state.withLock { _ = $0.breakers.removeValue(forKey: provider) }
    }

    /// The breaker.
    public func breaker(provider: String) async throws(StorageError) -> BreakerState {
        state.withLock { $0.breakers[provider] ?? BreakerState() }
    }

    /// Records an outcome.
    public func recordOutcome(provider: String, succeeded: Bool, threshold: Int, now: Date, failure: String?) async throws(StorageError) -> BreakerState {
        state.withLock { state in
            guard !succeeded else {
                state.breakers[provider] = nil
                return BreakerState()
            }
            var breaker = state.breakers[provider] ?? BreakerState()
            breaker.failures += 1
            if breaker.failures >= threshold { breaker.openedAt = now }
            breaker.lastFailure = BreakerState.keptFailure(failure) ?? breaker.lastFailure
            state.breakers[provider] = breaker
            return breaker
        }
    }

    // MARK: FetchLock

    /// Takes or renews a lease.
    public func acquire(_ key: String, owner: LeaseOwner, seconds: Double, now: Date) async throws(StorageError) -> Bool {
        state.withLock { state in
            if let lease = state.leases[key], lease.owner != owner, lease.expires > now { return false }
            state.leases[key] = Lease(owner: owner, expires: now.addingTimeInterval(seconds))
            return true
        }
    }

    /// Extends a lease the owner still holds.
    public func renew(_ key: String, owner: LeaseOwner, seconds: Double, now: Date) async throws(StorageError) -> Bool {
        state.withLock { state in
            guard let lease = state.leases[key], lease.owner == owner else { return false }
            state.leases[key] = Lease(owner: owner, expires: max(lease.expires, now.addingTimeInterval(seconds)))
            return true
        }
    }

    /// Ends a lease the owner holds.
    public func release(_ key: String, owner: LeaseOwner) async throws(StorageError) {
        state.withLock { state in
            if state.leases[key]?.owner == owner { state.leases[key] = nil }
        }
    }
}

/// The arithmetic of one sliding window, shared by every ledger backend.
public enum LedgerWindow {
    /// When `request` fits in all its windows, given the provider's counted calls (when each was settled, if it was; the
    /// instant it stops counting at the earliest; its cost): `now` or earlier when it fits, `distantFuture` when it never can.
    ///
    /// Each call frees its share a window's length after it settles; one in flight settles now at the earliest, and one never
    /// settled stops counting at its deadline.
    public static func freesAt(_ request: PermitRequest, calls: [(settledAt: Date?, countsUntil: Date, cost: Double)], now: Date) -> Date {
        var freesAt = now
        for window in request.windows {
            let since = now.addingTimeInterval(-window.perSeconds)
            let events = calls.filter { $0.countsUntil > since }.map { (freed: $0.settledAt ?? min(now, $0.countsUntil), cost: $0.cost) }
                .sorted { $0.freed < $1.freed }
            freesAt = max(freesAt, Self.freesAt(events, cost: request.cost, window: window))
        }
        return freesAt
    }

    /// When a call of `cost` fits in `window`, given the counted calls (their freeing instants, in order, and costs):
    /// `now`-or-earlier when it fits already, `distantFuture` when it never can.
    public static func freesAt(_ events: [(freed: Date, cost: Double)], cost: Double, window: RateLimit) -> Date {
        var used = events.reduce(0) { $0 + $1.cost }
        guard used + cost > window.limit + 1e-9 else { return .distantPast }
        for event in events {
            used -= event.cost
            if used + cost <= window.limit + 1e-9 { return event.freed.addingTimeInterval(window.perSeconds) }
        }
        return .distantFuture
    }
}
