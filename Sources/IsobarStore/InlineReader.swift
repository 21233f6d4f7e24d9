import Synchronization

/// Reading connections a caller may use on its own thread, when one is free and SQLite answers without waiting.
///
/// A read sent to the reader's thread costs two thread wake-ups (the store's thread, then a pool thread to resume the
/// caller) for a query of a few microseconds. Here the caller takes a free connection (never waiting for one in use) whose
/// busy timeout is zero, so a lock held elsewhere makes SQLite say `SQLITE_BUSY` at once instead of waiting for it: no lock
/// is waited for on the caller's thread (pages are still read from the file there, and SQLite's own brief retries while
/// another connection rewrites the WAL index may sleep a moment). Any failure, busy or not, declines the attempt and the read goes to the reader's
/// thread as before, which waits, reports errors and repairs damage.
///
/// The connections are opened on the reader's thread (opening may wait), and dropped when the file is rebuilt after damage;
/// the first may be the one the caller opened the store with, when that answered at once (see `Database.open`).
final class InlineReader: Sendable {
    /// Connections opened and not dropped, each taken by one caller at a time.
    private let slots: [Slot]
    /// The recovery generation the connections were opened in (see `Recovery`); -1 before they are.
    private let generation = Atomic<Int>(-1)
    /// True from when a refill is asked for until it has run.
    private let refilling = Atomic<Bool>(false)
    /// True while only the connection the store was opened with is there: the others open as the connections would.
    private let partlyOpen = Atomic<Bool>(false)
    /// Reads sent to the reader's thread before the connections were first opened.
    private let threadReads = Atomic<Int>(0)
    private let recovery: Recovery?

    /// How many callers may read at once on their own threads: one per core of a small machine.
    static let connections = 2

    /// Reads a process makes on the reader's thread before the connections are opened: a short command (a cache hit reads
    /// twice) never pays for opening them; a long run opens them early.
    static let readsBeforeOpening = 16

    /// Empty slots for the file `recovery` repairs (nil: damage is only reported).
    init(recovery: Recovery?) {
        self.recovery = recovery
        slots = (0..<Self.connections).map { _ in Slot() }
    }

    /// True when the connections are missing, or were opened before the file was rebuilt.
    private var isStale: Bool { generation.load(ordering: .acquiring) != recovery?.generation ?? 0 }

    /// Runs `body` on a free connection, in a deferred transaction when `snapshot`; nil when it cannot answer at once.
    func attempt<T: Sendable>(snapshot: Bool, _ body: (Connection) throws(StoreError) -> T) -> T? {
        guard !isStale else { return nil }
        for slot in slots {
            let outcome: InlineOutcome<T>? = slot.connection.withLockIfAvailable { connection -> InlineOutcome<T> in
                guard let held = connection else { return .noConnection }
                do throws(StoreError) {
                    if snapshot { try held.query("BEGIN") }
                    let value = try body(held)
                    if snapshot { try held.query("COMMIT") }
                    return .answered(value)
                } catch {
                    held.rollback()
                    return .declined
                }
            }
            switch outcome {
            case nil, .noConnection?: continue  // in use, or not opened: the next slot may answer
            case .declined?: return nil         // SQLite could not answer at once: the reader thread will
            case .answered(let value)?: return value
            }
        }
        return nil
    }

    /// Takes `connection`, opened on the caller's thread as the store opened, as the first slot's; the others stay empty
    /// until reads go to the thread often enough to open them (see `needsRefill`).
    func adopt(_ connection: Connection) {
        connection.setBusyTimeout(milliseconds: 0)
        slots[0].connection.withLock { $0 = connection }
        partlyOpen.store(true, ordering: .relaxed)
        generation.store(recovery?.generation ?? 0, ordering: .releasing)
    }

    /// True, once until `refill` runs, when the connections are stale, or missing (some or all) after `readsBeforeOpening`
    /// reads went to the thread: the caller then schedules `refill`.
    func needsRefill() -> Bool {
        let stale = isStale
        guard stale || partlyOpen.load(ordering: .acquiring) else { return false }
        if generation.load(ordering: .acquiring) < 0 || !stale,
           threadReads.wrappingAdd(1, ordering: .relaxed).newValue < Self.readsBeforeOpening { return false }
        return refilling.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    /// Opens a connection for every empty slot with `connect`, and for every slot after a rebuild (replacing those opened
    /// before it); run on the reader's thread, since opening may wait. A slot whose connection cannot be opened stays empty:
    /// its reads go to the thread.
    func refill(_ connect: () throws(StoreError) -> Connection) {
        let current = recovery?.generation ?? 0
        let rebuilt = generation.load(ordering: .acquiring) != current
        for slot in slots {
            // A caller reading on the slot's connection holds it for microseconds.
            slot.connection.withLock { connection in
                guard rebuilt || connection == nil else { return }
                connection = nil
                do throws(StoreError) {
                    let opened = try connect()
                    opened.setBusyTimeout(milliseconds: 0)
                    connection = opened
                } catch {}
            }
        }
        partlyOpen.store(false, ordering: .relaxed)
        generation.store(current, ordering: .releasing)
        refilling.store(false, ordering: .releasing)
    }

    /// One connection and the lock a caller holds while it reads on it.
    private final class Slot: Sendable {
        let connection = Mutex<Connection?>(nil)
    }
}

/// What one slot made of an inline read.
private enum InlineOutcome<T> {
    /// The slot holds no connection.
    case noConnection
    /// SQLite could not answer without waiting, or failed.
    case declined
    /// The read's result.
    case answered(T)
}
