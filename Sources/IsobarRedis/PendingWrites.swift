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
        let tasks = state.withLock { $0.running.values.filter { $0.key == key }.map(\.task) }
        for task in tasks { await task.value }
    }

    /// Waits for every write started so far, and for any started meanwhile.
    func wait() async {
        while let task = state.withLock({ $0.running.first?.value.task }) {
            await task.value
        }
    }

    /// Writes still running.
    var count: Int { state.withLock { $0.running.count } }

    private func finished(_ number: Int) {
        state.withLock { _ = $0.running.removeValue(forKey: number) }
    }
}
