import FoundationEssentials
import IsobarEngine

extension Store: FetchLock, LeaseLookup {
    /// Takes the lease on `key` for `seconds` unless another owner holds one that has not expired; renews it when `owner` holds it.
    public func acquire(_ key: String, owner: LeaseOwner, seconds: Double, now: Date) async throws(StorageError) -> Bool {
        try await writing { connection throws(StoreError) in try Self.take(key, owner: owner, seconds: seconds, now: now, connection) }
    }

    /// `acquire`, and once the lease is taken, in the same transaction, the entries under `keys`, the cooldown and breaker of
    /// `provider`, and `permit` when the provider has neither a cooldown nor an open breaker: one write job where there were
    /// four. What queued writes will change is read as it will be.
    public func acquire(_ key: String, owner: LeaseOwner, seconds: Double, now: Date, reading keys: [CacheKey], healthOf provider: String?,
                        permit: PermitRequest?) async throws(StorageError) -> LeaseLook {
        var look = try await writing { connection throws(StoreError) -> LeaseLook in
            guard try Self.take(key, owner: owner, seconds: seconds, now: now, connection) else { return LeaseLook(acquired: false) }
            let entries = try keys.map { key throws(StoreError) in try Self.entry(for: key, connection) }
            guard let provider else { return LeaseLook(acquired: true, entries: entries) }
            let health = try Self.health(provider, now: now, connection)
            guard let permit, permit.provider == provider, health.cooldown == nil, health.breaker.openedAt == nil,
                  case .granted(let call) = try Self.decide(permit, now: now, connection) else {
                return LeaseLook(acquired: true, entries: entries, health: health)
            }
            return LeaseLook(acquired: true, entries: entries, health: health, permit: call)
        }
        guard look.acquired else { return look }
        // Writes queued after the transaction began are newer than what it read (see `entry(for:)` and `health`).
        for (index, key) in keys.enumerated() {
            if let queued = queued.answer(for: key) { look.entries[index] = queued }
        }
        if let provider, queued.hasSuccess(of: provider) { look.health?.breaker = BreakerState() }
        return look
    }

    /// Deletes a permit granted with a lease for a call that was not made, queued ahead of the next write (see
    /// `QueuedWriting`): until it is committed the call counts, which errs on the safe side.
    public func withdrawSoon(_ permit: CallID, failed: @escaping @Sendable (StorageError) -> Void) async {
        guard let call = LedgerCall(permit) else { return failed(StorageError("store \(path): unknown call \(permit.rawValue)")) }
        writeSoon({ connection throws(StoreError) in
            try connection.query("DELETE FROM rate_events WHERE rowid = ?" + call.grantTimeMatch, [.integer(call.rowid)] + call.grantTimeArgument)
        }, failed: failed, isOneStatement: true)
    }

    /// Takes the lease: a row is written, naming this process as its holder, unless another owner's lease lasts beyond
    /// `now`; that lease is taken over all the same when its holder has ended on this machine (interrupted, killed, crashed:
    /// see `LeaseHolder`), rather than waited for until it expires.
    private static func take(_ key: String, owner: LeaseOwner, seconds: Double, now: Date, _ connection: Connection) throws(StoreError) -> Bool {
        let holder: SQLValue = LeaseHolder.current.map { .text($0.mark) } ?? .null
        let expires = SQLValue.real(now.addingTimeInterval(seconds).timeIntervalSince1970)
        try connection.query("""
            INSERT INTO leases(lease_key, owner, expires_at, holder) VALUES (?1, ?2, ?3, ?5)
            ON CONFLICT(lease_key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at, holder = excluded.holder
            WHERE leases.owner = excluded.owner OR leases.expires_at <= ?4
            """, [.text(key), .text(owner.token), expires, .real(now.timeIntervalSince1970), holder])
        if connection.changes > 0 { return true }
        guard let row = try connection.query("SELECT owner, holder FROM leases WHERE lease_key = ?", [.text(key)]).first,
              let previous = row[0].text, let mark = row[1].text, let ended = LeaseHolder(mark: mark), ended.hasEnded else { return false }
        try connection.query("UPDATE leases SET owner = ?, expires_at = ?, holder = ? WHERE lease_key = ? AND owner = ?",
                             [.text(owner.token), expires, holder, .text(key), .text(previous)])
        return connection.changes > 0
    }

    /// Extends `owner`'s lease to `now + seconds` (never shortens it); false when `owner` no longer holds it.
    public func renew(_ key: String, owner: LeaseOwner, seconds: Double, now: Date) async throws(StorageError) -> Bool {
        try await writing { connection throws(StoreError) in
            guard let lease = try Self.lease(key, connection), lease.owner == owner.token else { return false }
            let expires = max(lease.expires, now.addingTimeInterval(seconds))
            try connection.query("UPDATE leases SET expires_at = ? WHERE lease_key = ?", [.real(expires.timeIntervalSince1970), .text(key)])
            return true
        }
    }

    /// Ends `owner`'s lease, if it still holds it.
    public func release(_ key: String, owner: LeaseOwner) async throws(StorageError) {
        try await writing { connection throws(StoreError) in try Self.release(key, owner: owner, connection) }
    }

    /// `release`, queued ahead of the next write without waiting (see `QueuedWriting`): until it is committed, other
    /// fetchers wait a moment longer, and this process's next `acquire` runs after it.
    public func releaseSoon(_ key: String, owner: LeaseOwner, failed: @escaping @Sendable (StorageError) -> Void) async {
        writeSoon({ connection throws(StoreError) in try Self.release(key, owner: owner, connection) }, failed: failed, isOneStatement: true)
    }

    private static func release(_ key: String, owner: LeaseOwner, _ connection: Connection) throws(StoreError) {
        try connection.query("DELETE FROM leases WHERE lease_key = ? AND owner = ?", [.text(key), .text(owner.token)])
    }

    private static func lease(_ key: String, _ connection: Connection) throws(StoreError) -> (owner: String, expires: Date)? {
        guard let row = try connection.query("SELECT owner, expires_at FROM leases WHERE lease_key = ?", [.text(key)]).first,
              let owner = row[0].text, let expires = row[1].double else { return nil }
        return (owner, Date(timeIntervalSince1970: expires))
    }
}

/// A fetch lease as the cache keeps it.
public struct HeldLease: Sendable, Equatable {
    /// What it is a lease on.
    public let key: String
    /// Who holds it.
    public let owner: LeaseOwner
    /// When it ends unless renewed.
    public let expiresAt: Date
}

extension Store {
    /// The leases that last beyond `now`, by key.
    public func leases(now: Date) async throws(StorageError) -> [HeldLease] {
        try await readingOne { connection throws(StoreError) in
            try connection.query("SELECT lease_key, owner, expires_at FROM leases WHERE expires_at > ? ORDER BY lease_key",
                                 [.real(now.timeIntervalSince1970)]).compactMap { row in
                guard let key = row[0].text, let owner = row[1].text, let expires = row[2].double else { return nil }
                return HeldLease(key: key, owner: LeaseOwner(token: owner), expiresAt: Date(timeIntervalSince1970: expires))
            }
        }
    }
}
