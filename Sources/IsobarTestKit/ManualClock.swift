import FoundationEssentials
import Synchronization

/// A clock that moves only when told, for tests of anything that depends on time.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    /// A clock reading `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_795_856_400)) { current = Mutex(start) }

    /// The current reading.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward.
    public func advance(by seconds: Double) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
