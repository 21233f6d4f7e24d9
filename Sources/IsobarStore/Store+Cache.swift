import FoundationEssentials
import IsobarEngine

extension Store: ResponseCache, CacheMaintenance {
    /// The entry stored under `key`, if any.
    public func entry(for key: CacheKey) async throws(StorageError) -> CacheEntry? {
        // An answer queued to be kept (see `storeSoon`) is read as if it were.
        if let queued = queued.answer(for: key) { return queued }
        return try await readingOne { connection throws(StoreError) in try Self.entry(for: key, connection) }
    }

    /// The entry under `key` when a connection on the caller's thread reads it without waiting (see `InlineReader`); a
    /// queued answer is read as if it were kept, as by `entry(for:)`.
    public func entryAtOnce(for key: CacheKey) -> AtOnce<CacheEntry?> {
        if let queued = queued.answer(for: key) { return .answered(queued) }
        guard let read = readingOneAtOnce({ connection throws(StoreError) in try Self.entry(for: key, connection) }) else {
            return .wouldWait
        }
        return .answered(read)
    }

    /// The entry stored under `key` as `connection` sees it.
    static func entry(for key: CacheKey, _ connection: Connection) throws(StoreError) -> CacheEntry? {
        let rows = try connection.query(
            "SELECT fetched_at, payload, lifetime_s, must_revalidate FROM cache WHERE provider = ? AND kind = ? AND place_key = ?",
            [.text(key.provider), .text(key.slot.rawValue), .text(key.placeKey)])
        guard let row = rows.first, let time = row[0].double, let payload = row[1].text else { return nil }
        return CacheEntry(fetchedAt: Date(timeIntervalSince1970: time), payload: payload, lifetimeSeconds: row[2].double,
                          mustRevalidate: (row[3].int ?? 0) != 0)
    }

    /// Stores `entry` under `key`, replacing what was there.
    public func store(_ entry: CacheEntry, for key: CacheKey) async throws(StorageError) {
        try await writing { connection throws(StoreError) in try Self.store(entry, for: key, connection) }
    }

    /// `store`, queued ahead of the next write without waiting (see `QueuedWriting`).
    public func storeSoon(_ entry: CacheEntry, for key: CacheKey, failed: @escaping @Sendable (StorageError) -> Void) async {
        writeSoon({ connection throws(StoreError) in try Self.store(entry, for: key, connection) }, failed: failed,
                  overlay: .answer(key, entry), isOneStatement: true)
    }

    private static func store(_ entry: CacheEntry, for key: CacheKey, _ connection: Connection) throws(StoreError) {
        try connection.query(
            """
            INSERT OR REPLACE INTO cache(provider, kind, place_key, fetched_at, payload, lifetime_s, must_revalidate)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(key.provider), .text(key.slot.rawValue), .text(key.placeKey), .real(entry.fetchedAt.timeIntervalSince1970),
             .text(entry.payload), entry.lifetimeSeconds.map(SQLValue.real) ?? .null, .integer(entry.mustRevalidate ? 1 : 0)])
    }

    /// Deletes the entry under `key`, if any.
    public func removeEntry(for key: CacheKey) async throws(StorageError) {
        try await writing { connection throws(StoreError) in
            try connection.query("DELETE FROM cache WHERE provider = ? AND kind = ? AND place_key = ?",
                                 [.text(key.provider), .text(key.slot.rawValue), .text(key.placeKey)])
        }
    }

    /// Entry counts per provider and slot, and payload size in bytes.
    public func statistics() async throws(StorageError) -> CacheStatistics {
        try await scanning { connection throws(StoreError) in
            let rows = try connection.query(
                "SELECT provider, kind, count(*), min(fetched_at), max(fetched_at) FROM cache GROUP BY provider, kind")
            let bytes = try connection.query("SELECT coalesce(sum(length(CAST(payload AS BLOB))), 0) FROM cache").first?.first?.int ?? 0
            let groups = rows.map { row in
                CacheGroup(provider: row[0].text ?? "", slot: row[1].text ?? "", count: row[2].int ?? 0,
                           oldest: Date(timeIntervalSince1970: row[3].double ?? 0), newest: Date(timeIntervalSince1970: row[4].double ?? 0))
            }.sorted { ($0.provider, $0.slot) < ($1.provider, $1.slot) }
            return CacheStatistics(groups: groups, payloadBytes: bytes)
        }
    }

    /// Deletes every cached answer; returns how many.
    @discardableResult
    public func clear() async throws(StorageError) -> Int {
        try await writing { connection throws(StoreError) in
            try connection.query("DELETE FROM cache")
            let removed = connection.changes
            try connection.query("DELETE FROM http_validations")
            return removed
        }
    }

    /// Deletes answers fetched before `cutoff`, and calls and cooldowns no window can see; returns the answers deleted.
    @discardableResult
    public func prune(fetchedBefore cutoff: Date, ledgerBefore ledgerCutoff: Date) async throws(StorageError) -> Int {
        try await writing { connection throws(StoreError) in
            try connection.query("DELETE FROM cache WHERE fetched_at < ?", [.real(cutoff.timeIntervalSince1970)])
            let removed = connection.changes
            try connection.query("DELETE FROM http_validations WHERE stored_at < ?", [.real(cutoff.timeIntervalSince1970)])
            try connection.query("DELETE FROM rate_events WHERE at < ?", [.real(ledgerCutoff.timeIntervalSince1970)])
            try connection.query("DELETE FROM cooldowns WHERE until < ?", [.real(ledgerCutoff.timeIntervalSince1970)])
            return removed
        }
    }
}
