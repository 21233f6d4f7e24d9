import FoundationEssentials
import IsobarCore

/// A granted call, to be settled when its answer comes back.
public struct CallID: Sendable, Hashable {
    /// The backend's own identifier.
    public let rawValue: String

    /// Wraps a backend identifier.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }
}

/// One call that wants room in a provider's rate-limit windows.
public struct PermitRequest: Sendable, Equatable {
    /// The provider's id.
    public var provider: String
    /// Every window that must have room.
    public var windows: [RateLimit]
    /// How many calls of the windows this one counts as.
    public var cost: Double
    /// The command's deadline: an unsettled call (its process died) counts until then.
    public var deadline: Date

    /// Creates a request.
    public init(provider: String, windows: [RateLimit], cost: Double, deadline: Date) {
        self.provider = provider
        self.windows = windows
        self.cost = cost
        self.deadline = deadline
    }
}

/// The answer to a permit request.
public enum PermitDecision: Sendable, Equatable {
    /// The call is recorded; settle it when its answer comes back.
    case granted(CallID)
    /// No room now; the earliest instant enough of it may free up (`distantFuture` when the cost exceeds a window).
    case wait(until: Date)
}

/// Counts calls to providers in sliding windows, across every process (or machine) sharing it.
///
/// A call counts from when it is granted until a window's length after it is settled, so a provider never sees more than
/// its limit in any window however long requests take to arrive.
public protocol CallLedger: StoragePart {
    /// Decides several requests in one step, in order (a later one sees the calls granted before it); granted calls are recorded.
    func acquire(_ requests: [PermitRequest], now: Date) async throws(StorageError) -> [PermitDecision]
    /// Marks a granted call as answered at `at`; from then on it counts for a window's length.
    func settle(_ call: CallID, at: Date) async throws(StorageError)
    /// `settle`, queued when the backend queues writes (see `QueuedWriting`), else awaited; a failure goes to `failed`.
    func settleSoon(_ call: CallID, at: Date, failed: @escaping @Sendable (StorageError) -> Void) async
    /// Weighted calls counted in each window ending at `now`.
    func usage(provider: String, windows: [RateLimit], now: Date) async throws(StorageError) -> [Double]
}

extension CallLedger {
    /// Decides one request.
    public func acquire(_ request: PermitRequest, now: Date) async throws(StorageError) -> PermitDecision {
        let decisions = try await acquire([request], now: now)
        guard let decision = decisions.first else { throw StorageError("the call ledger gave no decision") }
        return decision
    }
}
