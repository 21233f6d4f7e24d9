import FoundationEssentials
import IsobarCore

/// A backend that can queue the writes a caller need not wait for (a settle, a success, an answer to keep, a released lease):
/// each is committed in order, before any write asked of the same backend after it, and before `flushQueuedWrites()` returns.
///
/// Other readers may see such a write a moment late; each is one whose lateness errs on the safe side (a call not yet
/// settled counts against its limit longer, a lease not yet released keeps other fetchers waiting a moment longer).
public protocol QueuedWriting: Sendable {
    /// Returns once every write queued so far is committed (or has reported its failure).
    func flushQueuedWrites() async
}

extension CallLedger {
    /// `settle`, awaited: a backend that queues writes replaces this (see `QueuedWriting`).
    public func settleSoon(_ call: CallID, at: Date, failed: @escaping @Sendable (StorageError) -> Void) async {
        do { try await settle(call, at: at) } catch { failed(error) }
    }
}

extension BreakerStore {
    /// `recordOutcome`, awaited: a backend that queues writes replaces this (see `QueuedWriting`).
    public func recordOutcomeSoon(provider: String, succeeded: Bool, threshold: Int, now: Date,
                                  failed: @escaping @Sendable (StorageError) -> Void) async {
        do { _ = try await recordOutcome(provider: provider, succeeded: succeeded, threshold: threshold, now: now) } catch { failed(error) }
    }
}

extension ResponseCache {
    /// `store`, awaited: a backend that queues writes replaces this (see `QueuedWriting`).
    public func storeSoon(_ entry: CacheEntry, for key: CacheKey, failed: @escaping @Sendable (StorageError) -> Void) async {
        do { try await store(entry, for: key) } catch { failed(error) }
    }
}

extension FetchLock {
    /// `release`, awaited: a backend that queues writes replaces this (see `QueuedWriting`).
    public func releaseSoon(_ key: String, owner: LeaseOwner, failed: @escaping @Sendable (StorageError) -> Void) async {
        do { try await release(key, owner: owner) } catch { failed(error) }
    }
}

extension EngineStorage {
    /// Waits until every write any part has queued is committed (see `QueuedWriting`).
    public func flushQueuedWrites() async {
        let parts: [any StoragePart] = [cache, ledger, cooldowns, breakers, locks] + (validators.map { [$0] } ?? [])
        for part in parts { await part.asQueuedWriting?.flushQueuedWrites() }
    }
}
