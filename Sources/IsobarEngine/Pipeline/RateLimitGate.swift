import FoundationEssentials
import IsobarCore

/// One provider's permits from the call ledger: taken before a request, settled when its answer comes back.
///
/// Waits (re-checking at least every quarter second, as calls elsewhere settle) while a window frees up before the deadline;
/// otherwise fails as `rate_limited` with the time a call frees up. A ledger that cannot be used does not stop the request:
/// the provider's own limit still applies, and the failure goes to the diagnostics.
struct RateLimitGate: Sendable {
    /// The provider's display name, for messages.
    let providerName: String
    /// The provider's id, for diagnostics.
    let providerID: String
    /// Its windows.
    let windows: [RateLimit]
    /// The shared ledger.
    let ledger: any CallLedger
    /// The clock.
    let time: any TimeSource
    /// The key its state is stored under: its id and endpoint (see `ProviderBinding.storageKey`).
    let storageKey: String
    /// Where ledger failures go.
    let diagnostics: any DiagnosticSink

    /// A permit for a request of `cost` that must start before `deadline`; nil when the ledger cannot be used.
    func permit(cost: Double, deadline: Date) async throws(ProviderError) -> CallID? {
        let request = PermitRequest(provider: storageKey, windows: windows, cost: cost, deadline: deadline)
        while true {
            let decision: PermitDecision
            do {
                decision = try await ledger.acquire(request, now: time.now())
            } catch {
                diagnostics.report(Diagnostic(.ledger, "cannot count a call of \(providerID): \(error.message)"))
                return nil
            }
            switch decision {
            case .granted(let callID): return callID
            case .wait(let until):
                guard until < deadline else {
                    let when = until == .distantFuture ? "a window larger than the limit" : "\(MessageTime.clock(until)) UTC"
                    throw ProviderError(.rateLimited(retryAfterSeconds: until == .distantFuture ? nil : until.timeIntervalSince(time.now())),
                                        "\(providerName): rate limit reached; a call frees up at \(when)", reason: .localLimit)
                }
                try await pause(min(until.timeIntervalSince(time.now()), 0.25), on: time, provider: providerName)
            }
        }
    }

    /// Settles a granted request answered now, queued when the ledger queues writes (see `QueuedWriting`).
    func settleSoon(_ callID: CallID?) async {
        guard let callID else { return }
        let (diagnostics, providerID) = (diagnostics, providerID)
        await ledger.settleSoon(callID, at: time.now()) { error in
            diagnostics.report(Diagnostic(.ledger, "cannot settle a call of \(providerID): \(error.message)"))
        }
    }

    /// Settles a granted request: answered now, or, when it failed, a moment later (a request given up on, timed out,
    /// cancelled or broken, may still reach the provider after the client stopped waiting).
    func settle(_ callID: CallID?, failed: Bool) async {
        guard let callID else { return }
        let instant = time.now().addingTimeInterval(failed ? RateLimitStep.lateArrivalMargin : 0)
        do {
            try await ledger.settle(callID, at: instant)
        } catch {
            diagnostics.report(Diagnostic(.ledger, "cannot settle a call of \(providerID): \(error.message)"))
        }
    }
}
