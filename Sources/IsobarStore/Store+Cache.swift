import FoundationEssentials

/// One cached answer.
public struct CacheEntry: Sendable, Equatable {
    /// When the provider answered.
    public let fetchedAt: Date
    /// The normalised report, encoded by `ReportCodec`.
    public let payload: String

    /// Creates an entry.
    public init(fetchedAt: Date, payload: String) {
        self.fetchedAt = fetchedAt
        self.payload = payload
    }
}

/// Counts for `isobar cache stats`.
public struct CacheStatistics: Sendable, Equatable {
    /// Entries per provider and kind.
    public var entries: [(provider: String, kind: String, count: Int, oldest: Date, newest: Date)]
    /// Bytes of payload in all.
    public var payloadBytes: Int

    public static func == (lhs: CacheStatistics, rhs: CacheStatistics) -> Bool {
        lhs.payloadBytes == rhs.payloadBytes && lhs.entries.map(\.count) == rhs.entries.map(\.count)
            && lhs.entries.map(\.provider) == rhs.entries.map(\.provider) && lhs.entries.map(\.kind) == rhs.entries.map(\.kind)
    }
}

extension Store {
    /// The cached entry for a provider, kind and place key, if any.
    public func cached(provider: String, kind: String, placeKey: String) throws(StoreError) -> CacheEntry? {
        try read { connection throws(StoreError) in
            let rows = try connection.query(
                "SELECT fetched_at, payload FROM cache WHERE provider = ? AND kind = ? AND place_key = ?",
                [.text(provider), .text(kind), .text(placeKey)])
            guard let row = rows.first, let time = row[0].double, let payload = row[1].text else { return nil }
            return CacheEntry(fetchedAt: Date(timeIntervalSince1970: time), payload: payload)
        }
    }

    /// Stores (or replaces) an entry.
    public func storeCached(provider: String, kind: String, placeKey: String, entry: CacheEntry) throws(StoreError) {
        try write { connection throws(StoreError) in
            try connection.query(
                "INSERT OR REPLACE INTO cache(provider, kind, place_key, fetched_at, payload) VALUES (?, ?, ?, ?, ?)",
                [.text(provider), .text(kind), .text(placeKey), .real(entry.fetchedAt.timeIntervalSince1970), .text(entry.payload)])
        }
    }

    /// Entry counts per provider and kind, and payload size.
    public func cacheStatistics() throws(StoreError) -> CacheStatistics {
        try read { connection throws(StoreError) in
            let rows = try connection.query("""
                SELECT provider, kind, count(*), min(fetched_at), max(fetched_at) FROM cache GROUP BY provider, kind ORDER BY provider, kind
                """)
            let bytes = try connection.query("SELECT coalesce(sum(length(payload)), 0) FROM cache").first?.first?.int ?? 0
            return CacheStatistics(entries: rows.map { row in
                (row[0].text ?? "", row[1].text ?? "", row[2].int ?? 0,
                 Date(timeIntervalSince1970: row[3].double ?? 0), Date(timeIntervalSince1970: row[4].double ?? 0))
            }, payloadBytes: bytes)
        }
    }

    /// Deletes every cached answer; returns how many.
    @discardableResult
    public func clearCache() throws(StoreError) -> Int {
        try write { connection throws(StoreError) in
            try connection.query("DELETE FROM cache")
            return connection.changes
        }
    }

    /// Deletes cached answers fetched before `cutoff`, and ledger rows no window can see; returns the entries deleted.
    @discardableResult
    public func pruneCache(fetchedBefore cutoff: Date, ledgerBefore ledgerCutoff: Date) throws(StoreError) -> Int {
        try write { connection throws(StoreError) in
            try connection.query("DELETE FROM cache WHERE fetched_at < ?", [.real(cutoff.timeIntervalSince1970)])
            let removed = connection.changes
            try connection.query("DELETE FROM rate_events WHERE at < ?", [.real(ledgerCutoff.timeIntervalSince1970)])
            try connection.query("DELETE FROM cooldowns WHERE until < ?", [.real(ledgerCutoff.timeIntervalSince1970)])
            return removed
        }
    }
}
