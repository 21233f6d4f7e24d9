import FoundationEssentials
import IsobarCore

/// The innermost step: the provider's own fetch over its transport, which refuses to outlive the call's deadline.
public struct FetchStep: PipelineStep {
    /// The provider asked.
    public let provider: any WeatherProvider
    /// Its transport.
    public let transport: any Transport
    /// The engine's clock; live answers are stamped with it so ages are measured on one clock.
    public let time: any TimeSource

    /// A step asking `provider` through `transport`.
    public init(provider: any WeatherProvider, transport: any Transport, time: any TimeSource) {
        self.provider = provider
        self.transport = transport
        self.time = time
    }

    /// Fetches once; values outside their physical range are dropped here, before any step above can cache or merge them.
    public func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport {
        let transport = DeadlineTransport(base: transport, deadline: call.deadline, time: time)
        var report = try await provider.fetch(call.request, context: FetchContext(transport: transport, time: time, deadline: call.deadline))
            .validated(now: time.now())
        if report.source == .live { report.fetchedAt = time.now() }
        return report
    }
}

/// Marks every request with the call's deadline (as a system-clock instant), refusing to start one when no time is left.
struct DeadlineTransport: Transport {
    let base: any Transport
    let deadline: Date
    let time: any TimeSource

    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        guard deadline.timeIntervalSince(time.now()) > 0 else {
            throw ProviderError(.timeout, "\(request.origin): no time left before the deadline", reason: .deadline)
        }
        // Transports measure on the system clock; the deadline is on the engine's, which may be shifted or manual.
        let onSystemClock = Date().addingTimeInterval(deadline.timeIntervalSince(time.now()))
        var marked = request
        marked.notAfter = min(request.notAfter ?? onSystemClock, onSystemClock)
        return try await base.send(marked)
    }
}
