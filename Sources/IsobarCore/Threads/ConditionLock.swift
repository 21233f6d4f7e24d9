#if canImport(Glibc)
import Glibc
#endif

/// A state guarded by a pthread mutex, with a condition variable that a thread of its own (see `PlainThread`) sleeps on until
/// another thread changes the state and signals: for threads that must block rather than suspend.
///
/// Nothing blocks while holding the mutex but a waiter, which releases it while asleep.
public final class ConditionLock<State: Sendable>: @unchecked Sendable {
    // Safety of `@unchecked Sendable`: `state` is read and written only with `mutex` locked.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state: State

    /// A lock over `state`.
    public init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
        // Timed waits (`wakingAt`) count on the monotonic clock, which a change of the wall clock does not move.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Runs `body` on the state with the mutex held.
    public func withLock<T>(_ body: (inout State) -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&state)
    }

    /// Sleeps until `ready` holds of the state (checked with the mutex held, again at each wake-up), then runs `body` on it
    /// with the mutex still held.
    public func withLock<T>(when ready: (State) -> Bool, _ body: (inout State) -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(state) { pthread_cond_wait(condition, mutex) }
        return body(&state)
    }

    /// `withLock(when:_:)` that also wakes, to check again, at the instant `wakingAt` gives for the state (seconds of
    /// `monotonicSeconds()`; nil to sleep until signalled).
    public func withLock<T>(when ready: (State) -> Bool, wakingAt: (State) -> Double?, _ body: (inout State) -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(state) {
            if let instant = wakingAt(state) {
                let whole = instant.rounded(.down)
                var until = timespec(tv_sec: Int(whole), tv_nsec: Int((instant - whole) * 1e9))
                pthread_cond_timedwait(condition, mutex, &until)
            } else {
                pthread_cond_wait(condition, mutex)
            }
        }
        return body(&state)
    }

    /// Seconds of the monotonic clock, the clock of `wakingAt`.
    public static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Wakes one thread sleeping in `withLock(when:_:)`, if any; it checks the state again before going on. Call it after
    /// changing the state under the mutex: a waiter either saw the change or is asleep and gets this signal.
    public func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every thread sleeping in `withLock(when:_:)`; each checks the state again before going on.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
