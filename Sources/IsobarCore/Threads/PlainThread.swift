#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for work that blocks (a child process's pipes, a socket, a lock, the store's SQLite calls), so that
/// it never holds one of the few threads every task of the process shares.
///
/// On Linux `DispatchQueue.global()` and Swift's global executor draw on one pool of about as many threads as cores: a
/// blocking job sent there holds a thread the tasks need for as long as it blocks.
public enum PlainThread {
    /// Why no thread could be started: `pthread_create`'s error number.
    public struct StartError: Error, Sendable {
        /// The error number (`EAGAIN` when the system has no thread to give).
        public let code: Int32
    }

    /// Runs `body` on a new detached thread and returns that thread; when none can be started, `body` is not run.
    @discardableResult
    public static func detach(_ body: @escaping @Sendable () -> Void) -> Result<pthread_t, StartError> {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            if let context { Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run() }
            return nil
        }, box)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return .failure(StartError(code: started))
        }
        pthread_detach(thread)
        return .success(thread)
    }

    /// The work, carried to the new thread.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
