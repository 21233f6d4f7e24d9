import IsobarEngine
import Synchronization

/// Writes started without waiting for them (the local copy of an answer taken from the shared store), which must all be
/// done before the command ends: `wait()` returns once every one started so far has finished.
final class PendingWrites: Sendable {
    private struct Running {
        var key: CacheKey
        var task: Task<Void, Never>
    }

    private struct State {
        var next = 0
        var running: [Int: Running] = [:]
        var waiting = 0
    }

    private let state = Mutex(State())

    /// Starts writing under `key` now, on a task of its own.
    func start(_ key: CacheKey, _ body: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            let number = state.next
            state.next += 1
            state.running[number] = Running(key: key, task: Task { [weak self] in
                await body()
                self?.finished(number)
            })
        }
    }

    /// Waits for the writes under `key` started so far.
    func wait(for key: CacheKey) async {
        let tasks = state.withLock { state in
            let tasks = state.running.values.filter { $0.key == key }.map(\.task)
            if !tasks.isEmpty { state.waiting += 1 }
            return tasks
        }
        guard !tasks.isEmpty else { return }
        for task in tasks { await task.value }
        state.withLock { $0.waiting -= 1 }
    }

    /// Waits for every write started so far, and for any started meanwhile.
    func wait() async {
        while let task = state.withLock({ $0.running.first?.value.task }) {
            await task.value
        }
    }

    /// Callers waiting for a write under their key to end (tests).
    var waiting: Int { state.withLock { $0.waiting } }

    /// Writes still running.
    var count: Int { state.withLock { $0.running.count } }

    private func finished(_ number: Int) {
        state.withLock { _ = $0.running.removeValue(forKey: number) }
    }
}
