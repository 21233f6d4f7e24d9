import Synchronization

/// Bounds how many tasks run a section at once; waiting is suspension (never a blocked thread) and ends on cancellation.
public final class AsyncSemaphore: Sendable {
    private struct State {
        var available: Int
        var waiters: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextID = 0
    }

    private let state: Mutex<State>

    /// A semaphore admitting `count` holders at once (at least one).
    public init(_ count: Int) {
        state = Mutex(State(available: max(1, count)))
    }

    /// Waits for a place; false when the task was cancelled first (no place is then held).
    public func acquire() async -> Bool {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let granted = state.withLock { state -> Bool? in
                    if Task.isCancelled { return false }
                    if state.available > 0 {
                        state.available -= 1
                        return true
                    }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let granted { continuation.resume(returning: granted) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
    }

    /// Gives a place back, to the longest waiter if there is one.
    public func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.waiters.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        waiter?.resume(returning: true)
    }
}
