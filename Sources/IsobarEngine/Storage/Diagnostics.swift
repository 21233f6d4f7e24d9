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

/// Keeps every diagnostic, counted per component, and passes each on to `forward` (stderr under `--verbose`).
public final class DiagnosticLog: DiagnosticSink {
    private let recorded = Mutex<[Diagnostic]>([])
    private let forward: @Sendable (Diagnostic) -> Void

    /// A log passing each diagnostic to `forward` as it comes.
    public init(forward: @escaping @Sendable (Diagnostic) -> Void = { _ in }) {
        self.forward = forward
    }

    /// Records and forwards.
    public func report(_ diagnostic: Diagnostic) {
        recorded.withLock { $0.append(diagnostic) }
        forward(diagnostic)
    }

    /// Everything reported so far.
    public var diagnostics: [Diagnostic] { recorded.withLock { $0 } }

    /// How many were reported for each component that had any.
    public var counts: [Diagnostic.Component: Int] {
        recorded.withLock { Dictionary($0.map { ($0.component, 1) }, uniquingKeysWith: +) }
    }
}
