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
        let gate = RateLimitGate(providerName: provider.displayName, providerID: provider.id, windows: windows, ledger: ledger, time: time,
                                 storageKey: storageKey, diagnostics: diagnostics)
        // The first attempt's permit may have been taken with the fetch lease (see `LeaseLookup`); any later one is asked for.
        let callID = if let taken = call.permitTakenWithLease?.take() {
            taken
        } else {
            try await gate.permit(cost: provider.callCost(of: call.request), deadline: call.deadline)
        }
        do {
            let report = try await next.answer(call)
            // Nobody waits for an answered call's settle: until it is committed, the call counts longer, never shorter.
            await gate.settleSoon(callID)
            return report
        } catch {
            await gate.settle(callID, failed: true)
            throw error
        }
    }
}
