import FoundationEssentials
import IsobarEngine

extension Store: ProviderHealthStore {
    /// The provider's cooldown, if one lasts beyond `now`.
    public func cooldown(provider: String, now: Date) async throws(StorageError) -> Cooldown? {
        try await readingOne { connection throws(StoreError) in
            let rows = try connection.query("SELECT until, reason FROM cooldowns WHERE provider = ?", [.text(provider)])
            guard let row = rows.first, let until = row[0].double.map(Date.init(timeIntervalSince1970:)), until > now else { return nil }
            return Cooldown(until: until, reason: row[1].text ?? "")
        }
    }

    /// The provider's cooldown, if one lasts beyond `now`, and its breaker, in one statement on the reader.
    public func health(provider: String, now: Date) async throws(StorageError) -> (cooldown: Cooldown?, breaker: BreakerState) {
        let closing = queued.hasSuccess(of: provider)
        let reading = try await readingOne { connection throws(StoreError) in try Self.health(provider, now: now, connection) }
        // A success queued to be recorded (see `recordOutcomeSoon`) closes the breaker as if it were.
        return (reading.cooldown, closing ? BreakerState() : reading.breaker)
    }

    /// The provider's cooldown, if one lasts beyond `now`, and its breaker, as `connection` sees them, in one statement.
    static func health(_ provider: String, now: Date, _ connection: Connection) throws(StoreError) -> HealthReading {
        let row = try connection.query("""
            SELECT (SELECT until FROM cooldowns WHERE provider = ?1), (SELECT reason FROM cooldowns WHERE provider = ?1),
                   (SELECT failures FROM breakers WHERE provider = ?1), (SELECT opened_at FROM breakers WHERE provider = ?1),
                   (SELECT last_failure FROM breakers WHERE provider = ?1)
            """, [.text(provider)]).first ?? []
        let value = { (column: Int) in column < row.count ? row[column] : SQLValue.null }
        let until = value(0).double.map(Date.init(timeIntervalSince1970:))
        let cooldown = until.flatMap { $0 > now ? Cooldown(until: $0, reason: value(1).text ?? "") : nil }
        return HealthReading(cooldown: cooldown,
                             breaker: BreakerState(failures: value(2).int ?? 0, openedAt: value(3).double.map(Date.init(timeIntervalSince1970:)),
                                                   lastFailure: value(4).text))
    }

    /// Sets a cooldown every process respects, or extends the one in place (never shortens it); the reason is the new one.
    public func setCooldown(_ cooldown: Cooldown, provider: String) async throws(StorageError) {
        try await writing { connection throws(StoreError) in
            try connection.query("""
                INSERT INTO cooldowns(provider, until, reason) VALUES (?, ?, ?)
                ON CONFLICT(provider) DO UPDATE SET until = max(until, excluded.until), reason = excluded.reason
                """, [.text(provider), .real(cooldown.until.timeIntervalSince1970), .text(cooldown.reason)])
        }
    }

    /// Removes the provider's cooldown, if any.
    public func clearCooldown(provider: String) async throws(StorageError) {
        try await writing { connection throws(StoreError) in
            try connection.query("DELETE FROM cooldowns WHERE provider = ?", [.text(provider)])
        }
    }

    /// Closes the provider's breaker and forgets its failures.
    public func resetBreaker(provider: String) async throws(StorageError) {
        try await writing { connection throws(StoreError) in
            try connection.query("DELETE FROM breakers WHERE provider = ?", [.text(provider)])
        }
    }

    /// The provider's breaker.
    public func breaker(provider: String) async throws(StorageError) -> BreakerState {
        if queued.hasSuccess(of: provider) { return BreakerState() }
        return try await readingOne { connection throws(StoreError) in try Self.breaker(provider, connection) }
    }

    /// Records a success (closing the breaker) or a failure (opening it at `threshold` consecutive failures); returns the new state.
    @discardableResult
    public func recordOutcome(provider: String, succeeded: Bool, threshold: Int, now: Date, failure: String?) async throws(StorageError) -> BreakerState {
        try await writing { connection throws(StoreError) in
            try Self.recordOutcome(provider, succeeded: succeeded, threshold: threshold, now: now, failure: failure, connection)
        }
    }

    /// `recordOutcome`, queued ahead of the next write without waiting (see `QueuedWriting`) when it is a success (reads
    /// then see the breaker closed); a failure is awaited, so that the breaker opens before the caller goes on.
    public func recordOutcomeSoon(provider: String, succeeded: Bool, threshold: Int, now: Date,
                                  failed: @escaping @Sendable (StorageError) -> Void) async {
        guard succeeded else {
            do { _ = try await recordOutcome(provider: provider, succeeded: false, threshold: threshold, now: now) } catch { failed(error) }
            return
        }
        writeSoon({ connection throws(StoreError) in
            _ = try Self.recordOutcome(provider, succeeded: succeeded, threshold: threshold, now: now, failure: nil, connection)
        }, failed: failed, overlay: .success(provider: provider), isOneStatement: true)
    }

    private static func recordOutcome(_ provider: String, succeeded: Bool, threshold: Int, now: Date, failure: String?,
                                      _ connection: Connection) throws(StoreError) -> BreakerState {
        guard !succeeded else {
            try connection.query("DELETE FROM breakers WHERE provider = ?", [.text(provider)])
            return BreakerState()
        }
        var breaker = try Self.breaker(provider, connection)
        breaker.failures += 1
        if breaker.failures >= threshold { breaker.openedAt = now }
        breaker.lastFailure = BreakerState.keptFailure(failure) ?? breaker.lastFailure
        try connection.query("INSERT OR REPLACE INTO breakers(provider, failures, opened_at, last_failure) VALUES (?, ?, ?, ?)",
                             [.text(provider), .integer(Int64(breaker.failures)),
                              breaker.openedAt.map { .real($0.timeIntervalSince1970) } ?? .null,
                              breaker.lastFailure.map { .text($0) } ?? .null])
        return breaker
    }

    private static func breaker(_ provider: String, _ connection: Connection) throws(StoreError) -> BreakerState {
        let row = try connection.query("SELECT failures, opened_at, last_failure FROM breakers WHERE provider = ?", [.text(provider)]).first
        return BreakerState(failures: row?[0].int ?? 0, openedAt: row?[1].double.map(Date.init(timeIntervalSince1970:)), lastFailure: row?[2].text)
    }
}
