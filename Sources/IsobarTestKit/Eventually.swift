import Synchronization

/// Waits, without blocking a thread, until `condition` holds; true when it did, false after `turns` turns.
///
/// Bounded by turns, not by time: each turn lets every other runnable task run at least once (and every 64th sleeps a
/// millisecond, so that threads outside the pool get a chance too), so a condition that needs only other tasks or other
/// threads comes true however loaded the machine is; a condition that never comes true ends the wait instead of hanging it.
public func eventually(turns: Int = 1_000_000, _ condition: () -> Bool) async -> Bool {
    for turn in 0..<turns {
        if condition() { return true }
        if turn.isMultiple(of: 64) { try? await Task.sleep(for: .milliseconds(1)) } else { await Task.yield() }
    }
    return condition()
}

/// A gate tasks wait at until it is opened; counts its waiters, so a test can see that something has started waiting.
public final class TestGate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var arrivals = 0
    }

    private let state = Mutex(State())

    /// A closed gate.
    public init() {}

    /// Waits until the gate is open (returns at once when it is).
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                state.arrivals += 1
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Opens the gate: every waiter goes on, and later ones do not wait.
    public func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// How many callers have reached the gate so far, open or not.
    public var arrivals: Int { state.withLock { $0.arrivals } }

    /// How many callers wait at it now.
    public var waiting: Int { state.withLock { $0.waiters.count } }
}
