import FoundationEssentials
import IsobarCore

/// The answer to a permit request.
public enum PermitDecision: Sendable, Equatable {
    /// The call is recorded under this id; settle it when its answer comes back.
    case granted(callID: Int64)
    /// No capacity now; the earliest instant enough of it may free up (calls still in flight are assumed to end now).
    case wait(until: Date)
}

/// A provider's breaker as stored.
public struct BreakerState: Sendable, Equatable {
    /// Consecutive failures so far.
    public var failures: Int
    /// When it opened, if it is open.
    public var openedAt: Date?
}

extension Store {
    /// The instant a call stops counting: its settling time, or its command's deadline while it is in flight.
    private static let countsUntil = "coalesce(settled_at, deadline, at)"

    /// Records a call of weight `cost` if every window has room at `now`, else says when it may.
    ///
    /// A call counts from when it is granted until a window's length after it is settled, so the provider never sees more
    /// than the limit in any window, however long requests take to arrive; an unsettled call (its process died) counts
    /// until its `deadline`.
    public func acquirePermit(provider: String, windows: [RateLimit], cost: Double, now: Date, deadline: Date) throws(StoreError) -> PermitDecision {
        try write { connection throws(StoreError) in
            var freesAt = now
            for window in windows {
                let since = now.timeIntervalSince1970 - window.perSeconds
                // Each call frees its share a window's length after it settles; one still in flight settles now at the earliest.
                let events = try connection.query(
                    "SELECT coalesce(settled_at, ?), cost FROM rate_events WHERE provider = ? AND \(Self.countsUntil) > ? ORDER BY 1",
                    [.real(now.timeIntervalSince1970), .text(provider), .real(since)])
                var used = events.reduce(0) { $0 + ($1[1].double ?? 0) }
                guard used + cost > window.limit + 1e-9 else { continue }
                for event in events {
                    used -= event[1].double ?? 0
                    if used + cost <= window.limit + 1e-9 {
                        freesAt = max(freesAt, Date(timeIntervalSince1970: (event[0].double ?? 0) + window.perSeconds))
                        break
                    }
                }
                if used + cost > window.limit + 1e-9 { freesAt = .distantFuture }
            }
            guard freesAt <= now else { return .wait(until: freesAt) }
            try connection.query("INSERT INTO rate_events(provider, at, cost, deadline) VALUES (?, ?, ?, ?)",
                                 [.text(provider), .real(now.timeIntervalSince1970), .real(cost), .real(deadline.timeIntervalSince1970)])
            let id = try connection.query("SELECT last_insert_rowid()").first?.first?.int ?? 0
            return .granted(callID: Int64(id))
        }
    }

    /// Marks a granted call as answered at `at`; from then on it counts for a window's length.
    public func settle(callID: Int64, at: Date) throws(StoreError) {
        try write { connection throws(StoreError) in
            try connection.query("UPDATE rate_events SET settled_at = ? WHERE rowid = ?", [.real(at.timeIntervalSince1970), .integer(callID)])
        }
    }

    /// Weighted calls recorded in each window ending at `now`.
    public func usage(provider: String, windows: [RateLimit], now: Date) throws(StoreError) -> [Double] {
        try read { connection throws(StoreError) in
            try windows.map { window throws(StoreError) in
                try connection.query(
                    "SELECT coalesce(sum(cost), 0) FROM rate_events WHERE provider = ? AND \(Self.countsUntil) > ?",
                    [.text(provider), .real(now.timeIntervalSince1970 - window.perSeconds)]).first?.first?.double ?? 0
            }
        }
    }

    /// The provider's cooldown, if one lasts beyond `now`.
    public func cooldown(provider: String, now: Date) throws(StoreError) -> (until: Date, reason: String)? {
        try read { connection throws(StoreError) in
            let rows = try connection.query("SELECT until, reason FROM cooldowns WHERE provider = ? AND until > ?",
                                            [.text(provider), .real(now.timeIntervalSince1970)])
            guard let row = rows.first, let until = row[0].double else { return nil }
            return (Date(timeIntervalSince1970: until), row[1].text ?? "")
        }
    }

    /// Sets (or extends) a cooldown every process respects.
    public func setCooldown(provider: String, until: Date, reason: String) throws(StoreError) {
        try write { connection throws(StoreError) in
            try connection.query("""
                INSERT INTO cooldowns(provider, until, reason) VALUES (?, ?, ?)
                ON CONFLICT(provider) DO UPDATE SET until = max(until, excluded.until), reason = excluded.reason
                """, [.text(provider), .real(until.timeIntervalSince1970), .text(reason)])
        }
    }

    /// The provider's breaker.
    public func breaker(provider: String) throws(StoreError) -> BreakerState {
        try read { connection throws(StoreError) in
            let row = try connection.query("SELECT failures, opened_at FROM breakers WHERE provider = ?", [.text(provider)]).first
            return BreakerState(failures: row?[0].int ?? 0, openedAt: row?[1].double.map(Date.init(timeIntervalSince1970:)))
        }
    }

    /// Records a success (closing the breaker) or a failure (opening it at `threshold` consecutive failures); returns the new state.
    @discardableResult
    public func recordOutcome(provider: String, succeeded: Bool, threshold: Int, now: Date) throws(StoreError) -> BreakerState {
        try write { connection throws(StoreError) in
            if succeeded {
                try connection.query("DELETE FROM breakers WHERE provider = ?", [.text(provider)])
                return BreakerState(failures: 0, openedAt: nil)
            }
            let row = try connection.query("SELECT failures, opened_at FROM breakers WHERE provider = ?", [.text(provider)]).first
            let failures = (row?[0].int ?? 0) + 1
            var openedAt = row?[1].double
            if failures >= threshold { openedAt = now.timeIntervalSince1970 }
            try connection.query("INSERT OR REPLACE INTO breakers(provider, failures, opened_at) VALUES (?, ?, ?)",
                                 [.text(provider), .integer(Int64(failures)), openedAt.map(SQLValue.real) ?? .null])
            return BreakerState(failures: failures, openedAt: openedAt.map(Date.init(timeIntervalSince1970:)))
        }
    }

    /// Takes the lock `key` for process `pid` unless a live holder has it; a holder older than `staleAfter` seconds,
    /// or whose process is gone, loses it.
    public func tryLock(_ key: String, pid: Int32, now: Date, staleAfter: Double, isAlive: (Int32) -> Bool) throws(StoreError) -> Bool {
        try write { connection throws(StoreError) in
            if let row = try connection.query("SELECT holder_pid, acquired_at FROM fetch_locks WHERE lock_key = ?", [.text(key)]).first {
                let holder = Int32(row[0].int ?? 0)
                let acquired = row[1].double ?? 0
                let stale = now.timeIntervalSince1970 - acquired > staleAfter || (holder != pid && !isAlive(holder))
                guard holder == pid || stale else { return false }
            }
            try connection.query("INSERT OR REPLACE INTO fetch_locks(lock_key, holder_pid, acquired_at) VALUES (?, ?, ?)",
                                 [.text(key), .integer(Int64(pid)), .real(now.timeIntervalSince1970)])
            return true
        }
    }

    /// Releases the lock `key` if `pid` holds it.
    public func unlock(_ key: String, pid: Int32) throws(StoreError) {
        try write { connection throws(StoreError) in
            try connection.query("DELETE FROM fetch_locks WHERE lock_key = ? AND holder_pid = ?", [.text(key), .integer(Int64(pid))])
        }
    }
}
