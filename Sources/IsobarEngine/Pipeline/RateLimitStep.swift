import FoundationEssentials
import IsobarCore

/// Takes a permit from the call ledger before each call and settles it when the answer comes back.
///
/// Waits (re-checking at least every quarter second, as calls elsewhere settle) while a window frees up before the deadline;
/// otherwise fails as `rate_limited` with the time a call frees up. A ledger that cannot be used does not stop the call:
/// the provider's own limit still applies, and the failure goes to the diagnostics.
public struct RateLimitStep: PipelineStep {
    /// The step asked once a permit is granted.
    public let next: any PipelineStep
    /// The provider limited.
    public let provider: any WeatherProvider
    /// Its windows; none to skip the ledger.
    public let windows: [RateLimit]
    /// The shared ledger.
    public let ledger: any CallLedger
    /// The clock.
    public let time: any TimeSource
    /// The key its state is stored under: its id and endpoint (see `ProviderBinding.storageKey`).
    public let storageKey: String
    /// Where ledger failures go.
    public let diagnostics: any DiagnosticSink

    /// Seconds a request given up on is assumed to be able to reach the provider after the client stopped waiting.
    public static let lateArrivalMargin = 1.0

    /// Wraps `next`.
    public init(next: any PipelineStep, provider: any WeatherProvider, windows: [RateLimit], ledger: any CallLedger,
                time: any TimeSource, diagnostics: any DiagnosticSink, storageKey: String? = nil) {
        self.next = next
        self.provider = provider
        self.windows = windows
        self.ledger = ledger
        self.time = time
        self.diagnostics = diagnostics
        self.storageKey = storageKey ?? provider.id
    }

    /// Permit, call, settle.
    public func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport {
        guard !windows.isEmpty else { return try await next.answer(call) }
        let callID = try await permit(call)
        do {
            let report = try await next.answer(call)
            await settle(callID, at: time.now())
            return report
        } catch {
            // A request given up on (timeout, cancel, broken connection) may still reach the provider a moment later.
            await settle(callID, at: time.now().addingTimeInterval(Self.lateArrivalMargin))
            throw error
        }
    }

    private func settle(_ callID: CallID?, at instant: Date) async {
        guard let callID else { return }
        do {
            try await ledger.settle(callID, at: instant)
        } catch {
            diagnostics.report(Diagnostic(.ledger, "cannot settle a call of \(provider.id): \(error.message)"))
        }
    }

    private func permit(_ call: ProviderCall) async throws(ProviderError) -> CallID? {
        let request = PermitRequest(provider: storageKey, windows: windows, cost: provider.callCost(of: call.request), deadline: call.deadline)
        while true {
            let decision: PermitDecision
            do {
                decision = try await ledger.acquire(request, now: time.now())
            } catch {
                diagnostics.report(Diagnostic(.ledger, "cannot count a call of \(provider.id): \(error.message)"))
                return nil
            }
            switch decision {
            case .granted(let callID): return callID
            case .wait(let until):
                guard until < call.deadline else {
                    let when = until == .distantFuture ? "a window larger than the limit" : "\(MessageTime.clock(until)) UTC"
                    throw ProviderError(.rateLimited(retryAfterSeconds: until == .distantFuture ? nil : until.timeIntervalSince(time.now())),
                                        "\(provider.displayName): rate limit reached; a call frees up at \(when)", reason: .localLimit)
                }
                try await pause(min(until.timeIntervalSince(time.now()), 0.25), on: time, provider: provider.displayName)
            }
        }
    }
}
