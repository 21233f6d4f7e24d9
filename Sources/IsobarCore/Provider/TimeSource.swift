import FoundationEssentials

/// Where time comes from: the system clock in use, a manual clock in tests.
public protocol TimeSource: Sendable {
    /// The current instant.
    func now() -> Date
    /// Suspends for `seconds` (or until cancelled, which throws).
    func sleep(seconds: Double) async throws
}

/// The system's wall clock.
public struct SystemTime: TimeSource {
    /// Creates the clock.
    public init() {}
    /// `Date()`.
    public func now() -> Date { Date() }
    /// `Task.sleep`.
    public func sleep(seconds: Double) async throws {
        guard seconds > 0 else { return }
        try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
    }
}

/// A request-rate limit: at most `limit` calls (weighted) in any `perSeconds` seconds.
public struct RateLimit: Sendable, Equatable, Hashable {
    /// Calls allowed in the window.
    public var limit: Double
    /// Window length in seconds.
    public var perSeconds: Double

    /// Creates a limit.
    public init(limit: Double, perSeconds: Double) {
        self.limit = limit
        self.perSeconds = perSeconds
    }
}

/// Another clock moved by a fixed number of seconds (`ISOBAR_TIME_SHIFT`): to look at a recorded live answer as at the
/// moment it was recorded. Every process given the same shift agrees on the time.
public struct ShiftedTime: TimeSource {
    /// The clock moved.
    public let base: any TimeSource
    /// Seconds added to `base`'s readings; negative moves into the past.
    public let shiftSeconds: Double

    /// `base`, moved by `shiftSeconds`.
    public init(base: any TimeSource, shiftSeconds: Double) {
        self.base = base
        self.shiftSeconds = shiftSeconds
    }

    /// `base`'s time plus the shift.
    public func now() -> Date { base.now().addingTimeInterval(shiftSeconds) }
    /// Sleeps on `base`: durations are not shifted.
    public func sleep(seconds: Double) async throws { try await base.sleep(seconds: seconds) }
}
