import Synchronization

/// One provider's cache misses in a row. After a run of them the cache step stops reading before the lease, since the
/// lease's holder reads the cache again anyway (in the same write job, where the backend allows); an answer found cached
/// there ends the streak, and reads before the lease resume.
public final class CacheMissStreak: Sendable {
    /// Misses in a row after which the read before the lease is skipped.
    public static let threshold = 8
    private let misses = Atomic<Int>(0)

    /// A streak of none.
    public init() {}

    /// True while a read before the lease is worth its cost: fewer than `threshold` misses in a row.
    public var worthReading: Bool { misses.load(ordering: .relaxed) < Self.threshold }

    /// Counts a read before the lease that found nothing usable.
    public func missed() { misses.add(1, ordering: .relaxed) }

    /// Ends the streak: a usable answer was found in the cache.
    public func found() { misses.store(0, ordering: .relaxed) }
}
