import FoundationEssentials
import IsobarCore

/// The innermost step: the provider's own fetch over its transport, which refuses to outlive the call's deadline and speaks
/// HTTP caching (conditional requests, caching headers) through a `RevalidatingTransport`.
public struct FetchStep: PipelineStep {
    /// The provider asked.
    public let provider: any WeatherProvider
    /// Its transport.
    public let transport: any Transport
    /// The engine's clock; live answers are stamped with it so ages are measured on one clock.
    public let time: any TimeSource
    /// Where validators and bodies are kept for conditional requests; nil to keep none.
    public let validators: (any HTTPValidatorStore)?
    /// False to send no validators (`--record`: a full fetch); full answers still leave their validators.
    public let conditional: Bool
    /// The key the provider's records are kept under (see `ProviderBinding.storageKey`).
    public let storageKey: String
    /// Where storage failures go.
    public let diagnostics: any DiagnosticSink
    /// True to let the provider leave out the kinds not asked for (see `FetchContext.onlyAskedKinds`).
    public let onlyAskedKinds: Bool

    /// A step asking `provider` through `transport`.
    public init(provider: any WeatherProvider, transport: any Transport, time: any TimeSource, validators: (any HTTPValidatorStore)? = nil,
                conditional: Bool = true, storageKey: String? = nil, diagnostics: any DiagnosticSink = DiagnosticLog(),
                onlyAskedKinds: Bool = false) {
        self.onlyAskedKinds = onlyAskedKinds
        self.provider = provider
        self.transport = transport
        self.time = time
        self.validators = validators
        self.conditional = conditional
        self.storageKey = storageKey ?? provider.id
        self.diagnostics = diagnostics
    }

    /// Fetches once; values outside their physical range are dropped here, before any step above can cache or merge them.
    /// What the answers' headers said about caching travels up with the report; validators are kept only for a valid report.
    /// A fetch the command's deadline cut off (the engine cancels it once the deadline has passed) timed out: the steps
    /// above see a `timeout` (`deadline`), so that a provider that hangs until then, a plug-in above all, is counted by
    /// its breaker like one whose own timeout fired first, and is not asked again.
    public func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport {
        let deadlined = DeadlineTransport(base: transport, deadline: call.deadline, time: time)
        let transport = RevalidatingTransport(base: deadlined, store: validators, conditional: conditional, storageKey: storageKey,
                                              time: time, diagnostics: diagnostics)
        let fetched: WeatherReport
        do throws(ProviderError) {
            fetched = try await provider.fetch(call.request, context: FetchContext(transport: transport, time: time, deadline: call.deadline,
                                                                                   onlyAskedKinds: onlyAskedKinds))
        } catch {
            guard error.reason == .cancelled, time.now() >= call.deadline else { throw error }
            throw ProviderError(.timeout, "\(provider.displayName): stopped at the deadline", reason: .deadline)
        }
        var report = fetched.validated(now: time.now())
        if report.source == .live { report.fetchedAt = time.now() }
        report.caching = transport.caching
        await transport.commit()
        return report
    }
}
