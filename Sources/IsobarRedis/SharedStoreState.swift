import IsobarEngine
import Synchronization

/// Whether the shared store is worth asking, for one command: after a failure it is left alone for `retrySeconds`
/// (so a server that is away costs one timeout, not one per call), and the first failure is told once, by `warn`.
public final class SharedStoreState: Sendable {
    private struct State {
        var resumeAt: Double?
        var warned = false
        var locals: [EngineStorage] = []
    }

    private let state = Mutex(State())
    private let warn: @Sendable (String) -> Void
    private let retrySeconds: Double
    private let fallback: String
    private let seconds: @Sendable () -> Double
    /// Local copies of shared answers still being written.
    let writes = PendingWrites()

    /// A state that tells the first failure to `warn`, with `fallback` saying what happens instead; `seconds` is a monotonic
    /// clock (tests pass their own).
    public init(retrySeconds: Double = 5, fallback: String, seconds: @escaping @Sendable () -> Double = SharedStoreState.monotonicSeconds,
                warn: @escaping @Sendable (String) -> Void) {
        self.retrySeconds = retrySeconds
        self.fallback = fallback
        self.seconds = seconds
        self.warn = warn
    }

    /// Seconds of the monotonic clock since an arbitrary moment.
    public static func monotonicSeconds() -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    private static let start = ContinuousClock.now

    /// True when no failure was seen, or the last was more than `retrySeconds` ago.
    public var isAvailable: Bool {
        let now = seconds()
        return state.withLock { state in state.resumeAt.map { now >= $0 } ?? true }
    }

    /// Runs `body` on the shared store; nil (and the store left alone for a while) when it fails or was failing.
    public func attempt<T: Sendable>(_ body: () async throws(StorageError) -> T) async -> T? {
        guard isAvailable else { return nil }
        do {
            return try await body()
        } catch {
            failed(error.message)
            return nil
        }
    }

    /// Waits until every local copy of a shared answer started so far is written, and every write queued in the local
    /// stores composed with this state is committed; a command calls it before it ends.
    public func finish() async {
        await writes.wait()
        for local in state.withLock({ $0.locals }) { await local.flushQueuedWrites() }
    }

    /// Has `finish()` commit the writes `local` queues.
    func flushesAtFinish(_ local: EngineStorage) {
        state.withLock { $0.locals.append(local) }
    }

    /// Notes a failure: warns the first time, and leaves the store alone for `retrySeconds`.
    public func failed(_ message: String) {
        let now = seconds()
        let first = state.withLock { state -> Bool in
            state.resumeAt = now + retrySeconds
            defer { state.warned = true }
            return !state.warned
        }
        if first { warn("the shared store is unavailable (\(message)); \(fallback)") }
    }
}
