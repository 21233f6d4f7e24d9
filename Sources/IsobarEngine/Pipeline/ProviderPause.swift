import FoundationEssentials
import IsobarCore
import Synchronization

/// A provider's Retry-After pause as this process knows it, shared by every call to the provider in one engine:
/// the cooldown step sets it on a 429, and the concurrency step checks it once a call has its slot, so that calls
/// already queued when the 429 came wait it out too instead of each asking (and being refused) once more.
public final class ProviderPause: Sendable {
    private let until = Mutex<Date?>(nil)

    /// No pause.
    public init() {}

    /// Pauses the provider until `instant` (a later pause already set stays).
    public func pause(until instant: Date) {
        until.withLock { until in until = max(until ?? instant, instant) }
    }

    /// The end of the pause, when one is set and not over at `now`.
    public func pausedUntil(now: Date) -> Date? {
        until.withLock { until in
            guard let end = until, end > now else { return nil }
            return end
        }
    }
}
