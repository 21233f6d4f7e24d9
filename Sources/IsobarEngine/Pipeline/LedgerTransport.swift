import FoundationEssentials
import IsobarCore

/// A provider's transport for the requests it makes outside the pipeline (geocoding): each request takes a permit from the
/// provider's call ledger first and settles it when the answer comes back, so that those requests count in the same
/// rate-limit windows as its weather calls and the provider never sees more than its limit.
public struct LedgerTransport: Transport {
    /// The transport that sends.
    public let base: any Transport
    /// Seconds a request may wait for a permit, unless its own `notAfter` comes sooner.
    public let waitSeconds: Double
    private let gate: RateLimitGate

    /// `base`, limited as `binding`'s calls are (its windows, under its storage key); a binding without limits is not limited.
    public init(base: any Transport, binding: ProviderBinding, ledger: any CallLedger, time: any TimeSource,
                diagnostics: any DiagnosticSink, waitSeconds: Double) {
        self.base = base
        self.waitSeconds = waitSeconds
        gate = RateLimitGate(providerName: binding.provider.displayName, providerID: binding.provider.id,
                             windows: binding.policy?.rateLimits ?? [], ledger: ledger, time: time, storageKey: binding.storageKey,
                             diagnostics: diagnostics)
    }

    /// Permit, send, settle; `rate_limited` when no window frees up in time.
    public func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        guard !gate.windows.isEmpty else { return try await base.send(request) }
        // `notAfter` is on the system clock; the ledger's instants are on the engine's, which may be shifted.
        let seconds = min(waitSeconds, request.notAfter.map { $0.timeIntervalSinceNow } ?? .infinity)
        let callID = try await gate.permit(cost: 1, deadline: gate.time.now().addingTimeInterval(max(0, seconds)))
        do {
            let response = try await base.send(request)
            await gate.settle(callID, failed: false)
            return response
        } catch {
            await gate.settle(callID, failed: true)
            throw error
        }
    }
}
