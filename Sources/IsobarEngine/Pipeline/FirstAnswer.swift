import Synchronization

/// Runs several operations at once and returns the first answer without waiting for the others, which are cancelled
/// and left to end in the background (an operation stuck on a slow store or a held lock cannot hold the caller up).
enum FirstAnswer {
    private final class Race<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, Never>?
            var tasks: [Task<Void, Never>] = []
            var finished = false
        }

        private let state = Mutex(State())

        init(_ continuation: CheckedContinuation<T, Never>) {
            state.withLock { $0.continuation = continuation }
        }

        /// Keeps a task to cancel when the race ends (at once, when it has ended already).
        func add(_ task: Task<Void, Never>) {
            let cancelNow = state.withLock { state -> Bool in
                if state.finished { return true }
                state.tasks.append(task)
                return false
            }
            if cancelNow { task.cancel() }
        }

        /// The first call wins: resumes the caller and cancels every task; later calls do nothing.
        func finish(_ value: T) {
            let (continuation, tasks) = state.withLock { state -> (CheckedContinuation<T, Never>?, [Task<Void, Never>]) in
                guard !state.finished else { return (nil, []) }
                state.finished = true
                defer {
                    state.continuation = nil
                    state.tasks = []
                }
                return (state.continuation, state.tasks)
            }
            for task in tasks { task.cancel() }
            continuation?.resume(returning: value)
        }
    }

    /// The first value any of `operations` returns; cancelling the caller cancels them all and returns `onCancel`. The
    /// operations' tasks prefer `executor` (nil: the runtime's pool).
    static func of<T: Sendable>(on executor: (any TaskExecutor)?, _ operations: [@Sendable () async -> T],
                                onCancel: @escaping @Sendable () -> T) async -> T {
        guard !operations.isEmpty else { return onCancel() }
        let holder = Mutex<Race<T>?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
                let race = Race(continuation)
                holder.withLock { $0 = race }
                for operation in operations {
                    race.add(Task(executorPreference: executor) { race.finish(await operation()) })
                }
                if Task.isCancelled { race.finish(onCancel()) }
            }
        } onCancel: {
            holder.withLock { $0 }?.finish(onCancel())
        }
    }
}
