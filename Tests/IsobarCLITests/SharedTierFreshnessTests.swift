import FoundationEssentials
@testable import IsobarCLI
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Testing

/// A local answer skips the shared store exactly while the cache step would serve it as fresh.
@Suite("Shared tier freshness")
struct SharedTierFreshnessTests {
    struct StillProvider: WeatherProvider {
        let id: String
        let capabilities: ProviderCapabilities
        var displayName: String { "Still" }

        func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
            throw ProviderError(.unavailable, "never asked")
        }
    }

    /// One stored answer and what both tiers should say of it.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var slot: CacheSlot
        var ageSeconds: Double
        var httpLifetimeSeconds: Double? = nil
        var mustRevalidate = false
        var maxAgeSeconds: Double? = nil
        var honoursHTTPExpiry = false
        var fresh: Bool
        var testDescription: String { name }
    }

    private static let place = Place(name: "Testville", coordinate: Coordinate(latitude: 10, longitude: 20)!)
    private static let policy = ProviderPolicy(rateLimits: [], currentTTLSeconds: 600, forecastTTLSeconds: 3_600)

    private static let cases: [Case] = [
        Case(name: "a longer HTTP lifetime does not lengthen the configured one", slot: .forecast, ageSeconds: 4_000,
             httpLifetimeSeconds: 7_200, fresh: false),
        Case(name: "a provider that honours HTTP expiry keeps its longer lifetime", slot: .forecast, ageSeconds: 4_000,
             httpLifetimeSeconds: 7_200, honoursHTTPExpiry: true, fresh: true),
        Case(name: "a shorter HTTP lifetime shortens the configured one", slot: .forecast, ageSeconds: 400,
             httpLifetimeSeconds: 300, fresh: false),
        Case(name: "--max-age shorter than the configured lifetime", slot: .current, ageSeconds: 120, maxAgeSeconds: 60, fresh: false),
        Case(name: "--max-age longer than the configured lifetime", slot: .current, ageSeconds: 900, maxAgeSeconds: 1_200, fresh: true),
        Case(name: "--max-age never lengthens a must-revalidate answer", slot: .current, ageSeconds: 500, httpLifetimeSeconds: 300,
             mustRevalidate: true, maxAgeSeconds: 1_000, fresh: false),
        Case(name: "an answer exactly as old as its lifetime", slot: .current, ageSeconds: 600, fresh: true),
        Case(name: "an answer a second older than its lifetime", slot: .current, ageSeconds: 601, fresh: false),
    ]

    @Test(arguments: cases)
    func theSharedTierAndTheCacheStepAgree(_ given: Case) {
        let clock = ManualClock()
        var capabilities = ProviderCapabilities(kinds: [.current, .hourly], horizonDays: 2, stepHours: 1, quantities: [],
                                                requiresAPIKey: false, geocoding: false)
        capabilities.honoursHTTPExpiry = given.honoursHTTPExpiry
        let provider = StillProvider(id: "still", capabilities: capabilities)
        let binding = ProviderBinding(provider: provider, transport: NoNetworkTransport(), policy: Self.policy, endpoint: "still:1")
        let fetchedAt = clock.now().addingTimeInterval(-given.ageSeconds)
        let key = CacheKey(provider: binding.storageKey, slot: given.slot, placeKey: ReportCache.placeKey(Self.place.coordinate))
        let entry = CacheEntry(fetchedAt: fetchedAt, payload: "{}", lifetimeSeconds: given.httpLifetimeSeconds,
                               mustRevalidate: given.mustRevalidate)

        let sharedTier = CommandContext.localIsFresh(bindings: [binding], maxAgeSeconds: given.maxAgeSeconds, time: clock)
        let cacheStep = ReportCache(provider: provider, cache: MemoryStorage(), policy: Self.policy, maxAgeSeconds: given.maxAgeSeconds,
                                    time: clock, diagnostics: DiagnosticLog(), storageKey: binding.storageKey)
        let part = CachedPart(slot: given.slot, report: WeatherReport(providerID: provider.id, place: Self.place, fetchedAt: fetchedAt),
                              lifetimeSeconds: given.httpLifetimeSeconds, mustRevalidate: given.mustRevalidate)

        #expect(cacheStep.isFresh(part) == given.fresh)
        #expect(sharedTier(key, entry) == given.fresh)
    }

    @Test func anAnswerOfAProviderWithoutAPolicyNeverSkipsTheSharedStore() {
        let clock = ManualClock()
        let capabilities = ProviderCapabilities(kinds: [.current], horizonDays: 1, stepHours: 1, quantities: [], requiresAPIKey: false,
                                                geocoding: false)
        let replayed = ProviderBinding(provider: StillProvider(id: "replayed", capabilities: capabilities), transport: NoNetworkTransport())
        let isFresh = CommandContext.localIsFresh(bindings: [replayed], maxAgeSeconds: nil, time: clock)
        let entry = CacheEntry(fetchedAt: clock.now(), payload: "{}")
        #expect(!isFresh(CacheKey(provider: replayed.storageKey, slot: .current, placeKey: "10,20"), entry))
        #expect(!isFresh(CacheKey(provider: "unknown", slot: .current, placeKey: "10,20"), entry))
    }
}
