import IsobarCore

/// Bounds the calls in flight to one provider (its host), whatever the number of places asked at once.
public struct ConcurrencyStep: PipelineStep {
    /// The step bounded.
    public let next: any PipelineStep
    /// The places; shared by every call to the provider in one engine.
    public let slots: AsyncSemaphore
    /// The provider's name, for messages.
    public let providerName: String

    /// Wraps `next`.
    public init(next: any PipelineStep, slots: AsyncSemaphore, providerName: String) {
        self.next = next
        self.slots = slots
        self.providerName = providerName
    }

    /// Waits for a place, then calls.
    public func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport {
        guard await slots.acquire() else { throw ProviderError(.cancelled, "\(providerName): cancelled", reason: .cancelled) }
        defer { slots.release() }
        return try await next.answer(call)
    }
}
