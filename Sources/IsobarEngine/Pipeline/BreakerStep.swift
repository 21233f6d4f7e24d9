import FoundationEssentials
import IsobarCore

/// Skips a provider whose breaker is open; counts each call's failure (its retries included) as one.
public struct BreakerStep: PipelineStep {
    /// The step guarded.
    public let next: any PipelineStep
    /// The provider guarded.
    public let provider: any WeatherProvider
    /// The shared breaker state.
    public let breakers: any BreakerStore
    /// Consecutive failed calls that open the breaker.
    public let threshold: Int
    /// Seconds an open breaker skips before one call is let through.
    public let openSeconds: Double
    /// The clock.
    public let time: any TimeSource
    /// The key its state is stored under: its id and endpoint (see `ProviderBinding.storageKey`).
    public let storageKey: String
    /// Where store failures go.
    public let diagnostics: any DiagnosticSink

    /// Wraps `next`.
    public init(next: any PipelineStep, provider: any WeatherProvider, breakers: any BreakerStore, threshold: Int, openSeconds: Double,
                time: any TimeSource, diagnostics: any DiagnosticSink, storageKey: String? = nil) {
        self.next = next
        self.provider = provider
        self.breakers = breakers
        self.threshold = threshold
        self.openSeconds = openSeconds
        self.time = time
        self.diagnostics = diagnostics
        self.storageKey = storageKey ?? provider.id
    }

    /// Skips while open; otherwise calls and records the outcome.
    public func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport {
        try await checkClosed()
        do {
            let report = try await next.answer(call)
            await record(succeeded: true)
            return report
        } catch {
            if Self.countsAgainst(error) { await record(succeeded: false) }
            throw error
        }
    }

    /// Failures that say the provider is unwell (not the caller's fault, not a limit).
    public static func countsAgainst(_ error: ProviderError) -> Bool {
        switch error.code {
        case .unavailable, .timeout, .badResponse: !(error.reason?.isSkip ?? false) && error.reason != .cancelled
        default: false
        }
    }

    private func checkClosed() async throws(ProviderError) {
        let state: BreakerState
        do {
            state = try await breakers.breaker(provider: storageKey)
        } catch {
            diagnostics.report(Diagnostic(.health, "cannot read the breaker of \(provider.id): \(error.message)"))
            return
        }
        guard let openedAt = state.openedAt else { return }
        let reopens = openedAt.addingTimeInterval(openSeconds)
        guard time.now() < reopens else { return }
        throw ProviderError(.unavailable,
                            "\(provider.displayName) failed \(state.failures) times in a row; skipped until \(MessageTime.clock(reopens)) UTC",
                            reason: .breakerOpen)
    }

    private func record(succeeded: Bool) async {
        do {
            _ = try await breakers.recordOutcome(provider: storageKey, succeeded: succeeded, threshold: threshold, now: time.now())
        } catch {
            diagnostics.report(Diagnostic(.health, "cannot record the breaker of \(provider.id): \(error.message)"))
        }
    }
}
