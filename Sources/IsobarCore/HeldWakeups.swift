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
/// Only for bursts that never wait for the threads they queue work for: a held wake-up is made after the burst returns.
public enum HeldWakeups {
    /// The wake-ups one burst holds; touched only by the thread running it.
    private final class Held {
        var targets: [any Wakeable] = []
    }

    /// The key of each thread's current `Held`, if it runs a burst; nil when none could be made (nothing is held then).
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// Runs `body`; the wake-ups asked for on this thread meanwhile are made, each once, when it returns.
    public static func holding(_ body: () -> Void) {
        guard let key else { return body() }
        let held = Held()
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(held).toOpaque())
        body()
        pthread_setspecific(key, outer)
        withExtendedLifetime(held) {
            for target in held.targets { target.wake() }
        }
    }

    /// Wakes `target` now, or when the burst this thread runs ends.
    public static func wake(_ target: any Wakeable) {
        guard let key, let pointer = pthread_getspecific(key) else { return target.wake() }
        let held = Unmanaged<Held>.fromOpaque(pointer).takeUnretainedValue()
        if !held.targets.contains(where: { $0 === target }) { held.targets.append(target) }
    }
}
