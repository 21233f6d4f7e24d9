import Foundation
@testable import IsobarStore

/// The calls a store's rate-limit ledger recorded, read from outside the processes that shared it.
enum LedgerRows {
    /// One call: when it was granted, when it stops counting while unsettled, when it was settled, and its cost.
    struct Call: Sendable, CustomStringConvertible {
        let grantedAt: Double
        let deadline: Double
        let settledAt: Double?
        let cost: Double

        /// When it stops counting in a window that ends after it: its settle, else its deadline.
        var countsUntil: Double { settledAt ?? deadline }

        var description: String { "granted \(grantedAt), settled \(settledAt.map { "\($0)" } ?? "never"), cost \(cost)" }
    }

    /// Every call of the store in `cacheDirectory` (the folder holding `isobar.sqlite`), in grant order.
    static func read(cacheDirectory: String) async throws -> [Call] {
        let store = try await Store.open(directory: cacheDirectory, warn: { _ in })
        let connection = try Connection(path: store.path, busyTimeoutMilliseconds: Store.busyTimeoutMilliseconds)
        return try connection.query("SELECT at, deadline, settled_at, cost FROM rate_events ORDER BY at").map { row in
            Call(grantedAt: row[0].double ?? 0, deadline: row[1].double ?? row[0].double ?? 0, settledAt: row[2].double, cost: row[3].double ?? 0)
        }
    }

    /// The largest cost counted at any call's grant: the calls granted by then that still count in the window ending at it.
    /// Whatever order the grants were committed in, the last committed of those calls saw all the others, with a window
    /// ending no later, so the ledger's rule keeps this within the limit.
    static func mostCountedAtAGrant(_ calls: [Call], windowSeconds: Double) -> Double {
        calls.map { call in
            calls.filter { $0.grantedAt <= call.grantedAt && $0.countsUntil > call.grantedAt - windowSeconds }.reduce(0) { $0 + $1.cost }
        }.max() ?? 0
    }

    /// A reading of the monotonic clock (as `LoopbackServer` stamps arrivals) on the clock the ledger's processes used: the
    /// wall clock shifted by `shift` seconds (`ISOBAR_TIME_SHIFT`).
    static func ledgerClock(monotonic: Double, shift: Double) -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let offset = Date().timeIntervalSince1970 - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
        return monotonic + offset + shift
    }
}
