import FoundationEssentials
import IsobarCore

/// One provider call on its way through the pipeline: what is asked, and by when.
public struct ProviderCall: Sendable {
    /// The request, narrowed to what the provider can answer.
    public var request: WeatherRequest
    /// The instant by which the call must be over.
    public var deadline: Date
    /// The engine request it serves.
    public var requestID: RequestID
    /// The provider's breaker as read together with its cooldown just before this step, when it was; the breaker step then
    /// need not read it again.
    public var breakerReadWithCooldown: BreakerState?
    /// The provider's cooldown and breaker as read with the fetch lease just before the cooldown step, when they were;
    /// the cooldown step then need not read them again.
    public var healthReadWithLease: HealthReading?
    /// The call's first permit, taken with the fetch lease, when it was: the rate-limit step takes it instead of asking.
    public var permitTakenWithLease: PermitHandoff?

    /// Creates a call.
    public init(request: WeatherRequest, deadline: Date, requestID: RequestID = RequestID(0)) {
        self.request = request
        self.deadline = deadline
        self.requestID = requestID
    }
}

/// One step of the pipeline: answers a call, usually by wrapping the next step.
public protocol PipelineStep: Sendable {
    /// The provider's report for the call, or why there is none.
    func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport
    /// The answer `answer(_:)` would give, when the step has it at once without waiting for anything (a fresh answer the
    /// cache reads on the caller's thread); nil otherwise, and the call goes through `answer(_:)`. Being immediate, it needs
    /// no deadline.
    func answerAtOnce(_ call: ProviderCall) -> WeatherReport?
}

extension PipelineStep {
    /// No answer at once.
    public func answerAtOnce(_ call: ProviderCall) -> WeatherReport? { nil }
}

/// Sleeps on `time`, turning cancellation into the provider's `cancelled` error.
func pause(_ seconds: Double, on time: any TimeSource, provider name: String) async throws(ProviderError) {
    do {
        try await time.sleep(seconds: max(0, seconds))
    } catch {
        throw ProviderError(.cancelled, "\(name): cancelled", reason: .cancelled)
    }
}

/// Instants and durations as shown in messages.
enum MessageTime {
    /// `2026-11-28 09:00` in UTC.
    static func clock(_ date: Date) -> String {
        "\(LocalDate(date, utcOffsetSeconds: 0)) \(CivilTime.clock(date, utcOffsetSeconds: 0))"
    }

    /// `3 d`, `2 h` or `45 s`.
    static func duration(_ seconds: Double) -> String {
        seconds >= 86_400 ? "\(Int(seconds / 86_400)) d" : seconds >= 3600 ? "\(Int(seconds / 3600)) h" : "\(Int(seconds)) s"
    }
}
