import FoundationEssentials
import IsobarCore

/// When everything below fails, serves a cached answer younger than `max_stale_s`, marked stale with the reason (never one
/// the provider marked `must-revalidate` or `no-cache` once past its lifetime).
public struct StaleIfErrorStep: PipelineStep {
    /// The step protected.
    public let next: any PipelineStep
    /// The provider's cached answers.
    public let cache: ReportCache

    /// Wraps `next`.
    public init(next: any PipelineStep, cache: ReportCache) {
        self.next = next
        self.cache = cache
    }

    /// The next step's answer, or a stale one when it fails for a reason a stale answer can cover.
    public func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport {
        do {
            return try await next.answer(call)
        } catch {
            if error.code == .cancelled { throw error }
            if let stale = await staleAnswer(call.request, because: error) { return stale }
            throw error
        }
    }

    /// The next step's answer at once: nothing has failed, so there is nothing to cover.
    public func answerAtOnce(_ call: ProviderCall) -> WeatherReport? { next.answerAtOnce(call) }

    /// The cached answer within `max_stale_s`, marked stale because of `error`; nil when there is none, the error is the caller's,
    /// or the provider forbade serving it stale.
    public func staleAnswer(_ request: WeatherRequest, because error: ProviderError) async -> WeatherReport? {
        switch error.code {
        case .notConfigured, .unauthorized, .unsupported, .badRequest, .notFound: return nil
        default: break
        }
        guard let parts = await cache.parts(request), cache.age(parts) <= cache.policy.maxStaleSeconds else { return nil }
        // The provider said `must-revalidate` or `no-cache`: past its lifetime, such an answer is never served.
        if parts.contains(where: { $0.mustRevalidate && !cache.isFresh($0) }) { return nil }
        return cache.combine(parts, freshness: .stale(ageSeconds: cache.age(parts), because: error.message))
    }
}
