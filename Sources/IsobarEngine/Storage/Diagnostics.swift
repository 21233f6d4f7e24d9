import Synchronization

/// A problem worth telling an operator about that does not stop the command, e.g. a cache write that failed.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    /// What was affected.
    public enum Component: String, Sendable, CaseIterable {
        /// The response cache.
        case cache
        /// The rate-limit ledger.
        case ledger
        /// Cooldowns and breakers.
        case health
        /// Single-flight leases.
        case lock
        /// The user's data (cities, home).
        case userData = "user_data"
    }

    /// What was affected.
    public var component: Component
    /// One line for people, naming the file or server and the cause.
    public var message: String

    /// Creates a diagnostic.
    public init(_ component: Component, _ message: String) {
        self.component = component
        self.message = message
    }

    /// `component: message`.
    public var description: String { "\(component.rawValue): \(message)" }
}

/// Where diagnostics go; never silently nowhere.
public protocol DiagnosticSink: Sendable {
    /// Takes one diagnostic.
    func report(_ diagnostic: Diagnostic)
}

/// Keeps the first diagnostics (`keepLimit` of them) and counts them all, per component, passing each on to `forward` (stderr
/// under `--verbose`): however many a long run meets, the log holds a bounded number.
public final class DiagnosticLog: DiagnosticSink {
    private struct Record {
        var kept: [Diagnostic] = []
        var counts: [Diagnostic.Component: Int] = [:]
        var total = 0
    }

    private let record = Mutex(Record())
    private let forward: @Sendable (Diagnostic) -> Void
    /// How many diagnostics are kept; later ones are only counted.
    public let keepLimit: Int

    /// A log keeping the first `keepLimit` diagnostics and passing each to `forward` as it comes.
    public init(keepLimit: Int = 100, forward: @escaping @Sendable (Diagnostic) -> Void = { _ in }) {
        self.keepLimit = max(0, keepLimit)
        self.forward = forward
    }

    /// Counts, keeps while under the limit, and forwards.
    public func report(_ diagnostic: Diagnostic) {
        record.withLock { record in
            record.total += 1
            record.counts[diagnostic.component, default: 0] += 1
            if record.kept.count < keepLimit { record.kept.append(diagnostic) }
        }
        forward(diagnostic)
    }

    /// The diagnostics kept: the first `keepLimit` reported.
    public var diagnostics: [Diagnostic] { record.withLock { $0.kept } }

    /// How many were reported, kept or not.
    public var total: Int { record.withLock { $0.total } }

    /// How many were reported for each component that had any, kept or not.
    public var counts: [Diagnostic.Component: Int] { record.withLock { $0.counts } }

    /// The kept diagnostics, one line each, then `… N more` when some were only counted.
    public var listing: [String] {
        record.withLock { record in
            let lines = record.kept.map(\.description)
            let more = record.total - record.kept.count
            return more > 0 ? lines + ["… \(more) more"] : lines
        }
    }
}
