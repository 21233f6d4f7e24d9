#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for work that blocks (a child process's pipes, a socket, a lock), so that it never holds one of the
/// few threads every task of the process shares.
///
/// On Linux `DispatchQueue.global()` and Swift's global executor draw on one pool of about as many threads as cores: a
/// blocking job sent there holds a thread the tasks need for as long as it blocks.
public enum PlainThread {
    /// Runs `body` on a new detached thread; false when no thread could be started (`body` is then not run).
    @discardableResult
    public static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            if let context { Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run() }
            return nil
        }, box)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// The work, carried to the new thread.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
