import FoundationEssentials
import IsobarCore

/// Asks again after 5xx answers, timeouts and connection failures, with full-jitter backoff, while the deadline allows.
public struct RetryStep: PipelineStep {
    /// The step retried.
    public let next: any PipelineStep
    /// Retries after the first attempt.
    public let maxRetries: Int
    /// First backoff ceiling in seconds; doubles per retry.
    public let baseDelaySeconds: Double
    /// The clock.
    public let time: any TimeSource
    /// A random number in a range (seeded in tests).
    public let random: @Sendable (ClosedRange<Double>) -> Double
    /// The provider's name, for messages.
    public let providerName: String

    /// Wraps `next`.
    public init(next: any PipelineStep, maxRetries: Int, baseDelaySeconds: Double, time: any TimeSource,
                random: @escaping @Sendable (ClosedRange<Double>) -> Double, providerName: String) {
        self.next = next
        self.maxRetries = maxRetries
        self.baseDelaySeconds = baseDelaySeconds
        self.time = time
        self.random = random
        self.providerName = providerName
    }

    /// Attempts until an answer, a failure that retrying cannot help, or no time or retries left.
    public func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport {
        var attempt = 0
        while true {
            do {
                return try await next.answer(call)
            } catch {
                let delay = random(0...(baseDelaySeconds * Double(1 << attempt)))
                guard Self.isRetryable(error), attempt < maxRetries, time.now().addingTimeInterval(delay) < call.deadline else {
                    throw error
                }
                attempt += 1
                try await pause(delay, on: time, provider: providerName)
            }
        }
    }

    /// Unavailable and timed-out calls may succeed on a second try; nothing else will, nor one whose provider said when to
    /// come back (`Retry-After`: the cooldown step above keeps every process away until then), nor a host name that did not
    /// resolve (the resolver has tried already; offline, asking again only makes the command wait), nor one that ran into its
    /// deadline (a plug-in that hung until it was stopped would hang again, and each attempt would cost a whole deadline).
    public static func isRetryable(_ error: ProviderError) -> Bool {
        guard error.retryAfterSeconds == nil, error.reason != .dnsFailure, error.reason != .deadline else { return false }
        return switch error.code {
        case .unavailable, .timeout: true
        default: false
        }
    }
}
