import Foundation
import IsobarCore
@testable import IsobarStore
import IsobarTestKit
import Synchronization
import Testing

/// How many writes have run.
private final class RanCount: Sendable {
    let value = Atomic<Int>(0)
}

/// Writes queued for the store's thread during a held burst (see `HeldWakeups`) wait for its end, then commit together.
@Suite struct HeldWriteWakeupTests {
    /// The wake-ups the store's queue shares with whoever runs bursts (the HTTP transport's I/O thread, here the test).
    let wakeups = HeldWakeups()

    private func executor() -> Executor {
        Executor(path: ":memory:", delay: nil, recovery: nil, heldWakeups: wakeups) { () throws(StoreError) -> Connection in
            let connection = try Connection(path: ":memory:", busyTimeoutMilliseconds: 0)
            try connection.execute("CREATE TABLE written(value INTEGER)")
            return connection
        }
    }

    @Test func writesQueuedDuringABurstRunAfterItInOneTransaction() async throws {
        let executor = executor()
        // The thread has opened its connection and sleeps, waiting for work.
        _ = try await executor.submit(.bare) { _ throws(StoreError) in 0 }
        let ran = RanCount()
        let wakesBefore = executor.wakes
        var wakesDuringBurst = -1
        wakeups.holding {
            for value in 0..<3 {
                executor.post(.grouped) { connection throws(StoreError) in
                    try connection.query("INSERT INTO written(value) VALUES (?)", [.integer(Int64(value))])
                    ran.value.add(1, ordering: .relaxed)
                }
            }
            // Queued, but the sleeping thread was not woken: it cannot have run them (it sleeps until signalled).
            wakesDuringBurst = executor.wakes - wakesBefore
        }
        #expect(wakesDuringBurst == 0)
        // The wake-up held for the burst is made at its end, once for the three writes.
        #expect(executor.wakes - wakesBefore == 1)
        #expect(await eventually { ran.value.load(ordering: .relaxed) == 3 })
        let rows = try await executor.submit(.snapshot) { connection throws(StoreError) in
            try connection.query("SELECT value FROM written ORDER BY rowid")
        }
        #expect(rows == [[.integer(0)], [.integer(1)], [.integer(2)]])
        #expect(executor.transactions == 1)
    }

    @Test func outsideABurstAWriteIsTakenWithoutWaitingForAnything() async throws {
        let executor = executor()
        _ = try await executor.submit(.bare) { _ throws(StoreError) in 0 }
        let value = try await executor.submit(.grouped) { connection throws(StoreError) -> Int in
            try connection.query("INSERT INTO written(value) VALUES (7)")
            return connection.changes
        }
        #expect(value == 1)
        #expect(executor.transactions == 1)
    }
}
