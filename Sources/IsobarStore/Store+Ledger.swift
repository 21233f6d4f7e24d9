import FoundationEssentials
import IsobarCore
import IsobarEngine

extension Store: CallLedger {
    /// One row of `rate_events` as the ledger sees it.
    private struct Call {
        var settledAt: Date?
        var cost: Double
        /// When it stops counting at the earliest: its settling time, or its command's deadline while in flight.
        var countsUntil: Date
    }

    /// Decides the requests in order, in one transaction (a later one sees the calls granted before it); records the grants.
    public func acquire(_ requests: [PermitRequest], now: Date) async throws(StorageError) -> [PermitDecision] {
        try await writing { connection throws(StoreError) in
            try requests.map { request throws(StoreError) in try Self.decide(request, now: now, connection) }
        }
    }

    /// Marks a granted call as answered at `at`; from then on it counts for a window's length.
    public func settle(_ call: CallID, at: Date) async throws(StorageError) {
        guard let id = LedgerCall(call) else { throw StorageError("store \(path): unknown call \(call.rawValue)") }
        try await writing { connection throws(StoreError) in try Self.settle(id, at: at, connection) }
    }

    /// `settle`, queued ahead of the next write without waiting (see `QueuedWriting`): until it is committed the call
    /// counts as unsettled, which is longer, never shorter.
    public func settleSoon(_ call: CallID, at: Date, failed: @escaping @Sendable (StorageError) -> Void) async {
        guard let id = LedgerCall(call) else { return failed(StorageError("store \(path): unknown call \(call.rawValue)")) }
        writeSoon({ connection throws(StoreError) in try Self.settle(id, at: at, connection) }, failed: failed, isOneStatement: true)
    }

    private static func settle(_ call: LedgerCall, at: Date, _ connection: Connection) throws(StoreError) {
        try connection.query("UPDATE rate_events SET settled_at = ? WHERE rowid = ?" + call.grantTimeMatch,
                             [.real(at.timeIntervalSince1970), .integer(call.rowid)] + call.grantTimeArgument)
    }

    /// Weighted calls counted in each window ending at `now`.
    public func usage(provider: String, windows: [RateLimit], now: Date) async throws(StorageError) -> [Double] {
        // Settles queued (see `settleSoon`) are committed first, so that they count as they will.
        await flushQueuedWrites()
        return try await readingOne { connection throws(StoreError) in
            let calls = try Self.calls(of: provider, within: windows, now: now, connection)
            return windows.map { window in
                let since = now.addingTimeInterval(-window.perSeconds)
                return calls.filter { $0.countsUntil > since }.reduce(0) { $0 + $1.cost }
            }
        }
    }

    /// The longest an unsettled call counts for its windows' sake: no request is in flight that long (every transfer has a
    /// total timeout far shorter), so a call whose settle was lost (its process killed, or cut short before committing it)
    /// stops counting then, not at a batch's deadline years away.
    static let longestUnsettledSeconds = 3_600.0

    /// Decides `request` in the open transaction; a grant is recorded.
    static func decide(_ request: PermitRequest, now: Date, _ connection: Connection) throws(StoreError) -> PermitDecision {
        // Usually every window has room: summed in SQL, without reading each call. Only a full window needs the calls,
        // to say when it frees up.
        if try !fits(request, now: now, connection) {
            let calls = try calls(of: request.provider, within: request.windows, now: now, connection)
            let freesAt = LedgerWindow.freesAt(request, calls: calls.map { ($0.settledAt, $0.countsUntil, $0.cost) }, now: now)
            guard freesAt <= now else { return .wait(until: freesAt) }
        }
        let countsUntil = min(request.deadline.timeIntervalSince1970, now.timeIntervalSince1970 + longestUnsettledSeconds)
        try connection.query("INSERT INTO rate_events(provider, at, cost, deadline) VALUES (?, ?, ?, ?)",
                             [.text(request.provider), .real(now.timeIntervalSince1970), .real(request.cost), .real(countsUntil)])
        return .granted(LedgerCall(rowid: connection.lastInsertRowID, grantedAt: now.timeIntervalSince1970).id)
    }

    /// True when the request fits in every window: the costs counted in each (as `LedgerWindow` counts them) plus its own
    /// are within the limit. One range scan of the index on the instant a call stops counting, bounded by the longest window,
    /// sums every window at once.
    private static func fits(_ request: PermitRequest, now: Date, _ connection: Connection) throws(StoreError) -> Bool {
        guard let longest = request.windows.map(\.perSeconds).max(), let smallest = request.windows.map(\.limit).min() else { return true }
        // Every call that counts in a window is among the provider's calls kept: when even all of them leave room under the
        // smallest limit (with a margin for rounding in the running total), every window has room.
        let kept = try connection.query("SELECT cost FROM rate_totals WHERE provider = ?", [.text(request.provider)]).first?[0].double ?? 0
        if kept + request.cost <= smallest - 1e-6 { return true }
        let sums = request.windows.map { _ in "total(CASE WHEN coalesce(settled_at, deadline, at) > ? THEN cost END)" }
        let sql = "SELECT \(sums.joined(separator: ", ")) FROM rate_events WHERE provider = ? AND coalesce(settled_at, deadline, at) > ?"
        let since = { (seconds: Double) in SQLValue.real(now.addingTimeInterval(-seconds).timeIntervalSince1970) }
        let rows = try connection.query(sql, request.windows.map { since($0.perSeconds) } + [.text(request.provider), since(longest)])
        guard let row = rows.first else { return true }
        for (window, used) in zip(request.windows, row) where (used.double ?? 0) + request.cost > window.limit + 1e-9 { return false }
        return true
    }

    /// The provider's calls that may count in the longest window; the exact test per window is made on `Date`s, as
    /// `MemoryStorage` makes it. Rows from before deadlines were recorded count until their grant time.
    private static func calls(of provider: String, within windows: [RateLimit], now: Date, _ connection: Connection) throws(StoreError) -> [Call] {
        let longest = windows.map(\.perSeconds).max() ?? 0
        let rows = try connection.query(
            "SELECT at, cost, deadline, settled_at FROM rate_events WHERE provider = ? AND coalesce(settled_at, deadline, at) > ?",
            [.text(provider), .real(now.timeIntervalSince1970 - longest - 1)])
        return rows.map { row in
            let at = Date(timeIntervalSince1970: row[0].double ?? 0)
            let deadline = row[2].double.map(Date.init(timeIntervalSince1970:))
            let settledAt = row[3].double.map(Date.init(timeIntervalSince1970:))
            return Call(settledAt: settledAt, cost: row[1].double ?? 0, countsUntil: settledAt ?? deadline ?? at)
        }
    }
}

/// A granted call's row: its rowid and its grant time, both matched when it is settled or withdrawn, so that a queued
/// write re-run on a rebuilt file (see `Recovery`) never touches another call that took the same rowid there.
struct LedgerCall: Equatable {
    /// The row's rowid.
    let rowid: Int64
    /// The grant time, seconds since 1970, exactly as stored; nil for an id of a bare rowid (matched by rowid alone).
    let grantedAt: Double?

    /// The call's identity as the engine carries it: `rowid@grant time` (a Double's description reads back exactly).
    var id: CallID { CallID(grantedAt.map { "\(rowid)@\($0)" } ?? String(rowid)) }

    /// The SQL that matches the grant time too, when known, after `WHERE rowid = ?`.
    var grantTimeMatch: String { grantedAt == nil ? "" : " AND at = ?" }

    /// The argument of `grantTimeMatch`.
    var grantTimeArgument: [SQLValue] { grantedAt.map { [.real($0)] } ?? [] }

    /// A row and grant time.
    init(rowid: Int64, grantedAt: Double?) {
        self.rowid = rowid
        self.grantedAt = grantedAt
    }

    /// The call `id` names (`rowid@grant time`, or a bare rowid); nil when it is not one this store can have granted.
    init?(_ id: CallID) {
        let parts = id.rawValue.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let rowid = Int64(parts[0]) else { return nil }
        guard parts.count == 2 else {
            self.init(rowid: rowid, grantedAt: nil)
            return
        }
        guard let grantedAt = Double(parts[1]), grantedAt.isFinite else { return nil }
        self.init(rowid: rowid, grantedAt: grantedAt)
    }
}
