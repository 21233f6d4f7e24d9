import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A thread that sleeps until work is queued for it, and the means to wake it.
public protocol Wakeable: AnyObject, Sendable {
    /// Wakes the thread; the work is already queued.
    func wake()
}

/// Wake-ups a thread holds back while it runs a burst of jobs, each made once when the burst ends: the work those jobs
/// queue for another thread (a store's writes) is then taken there in one go rather than piece by piece, and that thread
/// is woken once instead of once per piece.
///
/// An explicit value: the program makes one and hands it to the loop that runs bursts (the HTTP transport's I/O thread)
/// and to the queues whose wake-ups it may hold (the store's), so the coupling is in plain view where they are made.
/// Only for bursts that never wait for the threads they queue work for: a held wake-up is made after the burst returns.
public final class HeldWakeups: Sendable {
    /// The burst under way: the thread running it, and the wake-ups each of its nested bursts holds (innermost last).
    private struct Burst {
        var thread: pthread_t?
        var held: [[any Wakeable]] = []
    }

    private let burst = Mutex(Burst())

    /// No burst under way.
    public init() {}

    /// Runs `body`; the wake-ups asked for on this thread meanwhile are made, each once, when it returns (a burst within
    /// a burst makes its own at its end). While another thread runs a burst, `body` runs without holding anything.
    public func holding(_ body: () -> Void) {
        let me = pthread_self()
        let entered = burst.withLock { burst -> Bool in
            if let thread = burst.thread, pthread_equal(thread, me) == 0 { return false }
            burst.thread = me
            burst.held.append([])
            return true
        }
        guard entered else { return body() }
        body()
        let held = burst.withLock { burst -> [any Wakeable] in
            let held = burst.held.removeLast()
            if burst.held.isEmpty { burst.thread = nil }
            return held
        }
        for target in held { target.wake() }
    }

    /// Wakes `target` now, or when the burst this thread runs ends.
    public func wake(_ target: any Wakeable) {
        let me = pthread_self()
        let held = burst.withLock { burst -> Bool in
            guard let thread = burst.thread, pthread_equal(thread, me) != 0, let last = burst.held.indices.last else { return false }
            if !burst.held[last].contains(where: { $0 === target }) { burst.held[last].append(target) }
            return true
        }
        if !held { target.wake() }
    }
}

extension Optional where Wrapped == HeldWakeups {
    /// Wakes `target` through the wake-ups when there are any, else at once.
    public func wake(_ target: any Wakeable) {
        switch self {
        case .some(let wakeups): wakeups.wake(target)
        case .none: target.wake()
        }
    }
}
