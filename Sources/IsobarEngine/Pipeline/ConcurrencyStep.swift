import FoundationEssentials
import IsobarCore

/// Bounds the calls in flight to one provider (its host), whatever the number of places asked at once.
public struct ConcurrencyStep: PipelineStep {
    /// The step bounded.
    public let next: any PipelineStep
    /// The places; shared by every call to the provider in one engine.
    public let slots: AsyncSemaphore
    /// The provider's name, for messages.
    public let providerName: String
    /// The provider's Retry-After pause, waited out once a call has its place; nil for none.
    public let pause: ProviderPause?
    /// The clock pauses are waited on.
    public let time: any TimeSource

    /// Wraps `next`.
    public init(next: any PipelineStep, slots: AsyncSemaphore, providerName: String, pause: ProviderPause? = nil,
                time: any TimeSource = SystemTime()) {
        self.next = next
        self.slots = slots
        self.providerName = providerName
        self.pause = pause
        self.time = time
    }

    /// Waits for a place (and for the end of a pause the provider asked for meanwhile), then calls.
    public func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport {
        guard await slots.acquire() else { throw ProviderError(.cancelled, "\(providerName): cancelled", reason: .cancelled) }
        defer { slots.release() }
        if let until = pause?.pausedUntil(now: time.now()) {
            guard until < call.deadline else {
                throw ProviderError(.rateLimited(retryAfterSeconds: until.timeIntervalSince(time.now())),
                                    "\(providerName) asked for a pause until \(MessageTime.clock(until)) UTC (HTTP 429), past this command's deadline",
                                    reason: .cooldownWait)
            }
            try await IsobarEngine.pause(until.timeIntervalSince(time.now()), on: time, provider: providerName)
        }
        return try await next.answer(call)
    }
}
