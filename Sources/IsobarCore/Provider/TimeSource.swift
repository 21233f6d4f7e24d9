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
