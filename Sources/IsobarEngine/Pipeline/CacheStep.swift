import FoundationEssentials
import IsobarCore

/// Ends a call with a fresh cached answer; offline, answers from the cache whatever its age, or skips.
///
/// Offline is the user's explicit choice not to ask: even an answer the provider marked `must-revalidate` is shown then,
/// labelled stale once past its lifetime, since nothing can revalidate it.
public struct CacheStep: PipelineStep {
    /// The step asked on a miss.
    public let next: any PipelineStep
    /// The provider's cached answers.
    public let cache: ReportCache
    /// False to skip reading (`--refresh`); answers are still stored below.
    public let readCache: Bool
    /// True to use only the cache (`--offline`).
    public let offline: Bool
    /// The provider's misses in a row, when `next` reads the cache again under its lease (a single-flight step): after a
    /// run of misses the read here is skipped, until `next` finds an answer cached. Nil to read before every call.
    public let misses: CacheMissStreak?

    /// Wraps `next`.
    public init(next: any PipelineStep, cache: ReportCache, readCache: Bool, offline: Bool, misses: CacheMissStreak? = nil) {
        self.next = next
        self.cache = cache
        self.readCache = readCache
        self.offline = offline
        self.misses = misses
    }

    /// A fresh cached answer, or the next step's.
    public func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport {
        if offline { return try await offlineAnswer(call.request) }
        if readCache, misses?.worthReading ?? true {
            if let cached = await cache.usable(call.request, withinTTL: true) {
                misses?.found()
                return cached
            }
            misses?.missed()
        }
        return try await next.answer(call)
    }

    /// A fresh cached answer when the cache reads every part of it at once (see `ResponseCache.entryAtOnce`); nil offline,
    /// under `--refresh`, after a run of misses, or when a part is missing, stale or could only be read by waiting.
    public func answerAtOnce(_ call: ProviderCall) -> WeatherReport? {
        guard !offline, readCache, misses?.worthReading ?? true, let cached = cache.freshAtOnce(call.request) else { return nil }
        misses?.found()
        return cached
    }

    private func offlineAnswer(_ request: WeatherRequest) async throws(ProviderError) -> WeatherReport {
        guard let parts = await cache.parts(request) else {
            throw ProviderError(.unavailable, "\(cache.provider.displayName): offline, and nothing is cached for this place", reason: .offline)
        }
        let age = cache.age(parts)
        return cache.combine(parts, freshness: cache.isFresh(parts) ? .cached(ageSeconds: age) : .stale(ageSeconds: age, because: "offline"))
    }
}
