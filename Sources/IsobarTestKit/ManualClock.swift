import FoundationEssentials
import IsobarCore
import Synchronization

/// A clock that moves only when told, for tests of anything that depends on time; sleepers wake when it passes their time.
public final class ManualClock: TimeSource {
    private struct Sleeper {
        let id: Int
        let wakeAt: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [Sleeper] = []
        var nextID = 0
    }

    private let state: Mutex<State>

    /// A clock reading `start` (by default 2026-11-28T09:00:00Z, the bundled recordings' time).
    public init(start: Date = Date(timeIntervalSince1970: 1_795_856_400)) { state = Mutex(State(now: start)) }

    /// The current reading.
    public func now() -> Date { state.withLock { $0.now } }

    /// How many tasks are asleep on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Moves the clock forward, waking every sleeper whose time has come.
    public func advance(by seconds: Double) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.addingTimeInterval(seconds)
            let due = state.sleepers.filter { $0.wakeAt <= state.now }
            state.sleepers.removeAll { $0.wakeAt <= state.now }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Suspends until the clock has advanced by `seconds`, or throws when the task is cancelled.
    public func sleep(seconds: Double) async throws {
        guard seconds > 0 else { return }
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> Bool in
                    let wakeAt = state.now.addingTimeInterval(seconds)
                    guard wakeAt > state.now, !Task.isCancelled else { return true }
                    state.sleepers.append(Sleeper(id: id, wakeAt: wakeAt, continuation: continuation))
                    return false
                }
                if resumeNow {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }
}
