import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Testing

/// A provider that cannot be asked as configured (its key is missing) is failed before its pipeline: nothing is sent, nothing
/// counts against its rate limit, and its breaker never counts it as a failed attempt.
@Suite struct UnusableProviderTests {
    /// `HTTPFakeProvider` that, when `keyMissing`, says it is not set up; its fetch still fails the same way when asked.
    struct KeyedProvider: WeatherProvider {
        let base = HTTPFakeProvider(id: "a")
        let keyMissing: Bool
        var id: String { base.id }
        var displayName: String { base.displayName }
        var capabilities: ProviderCapabilities { base.capabilities }

        func unusableReason(for request: WeatherRequest?) -> ProviderError? {
            keyMissing ? ProviderError(.notConfigured, "A needs an API key: set A_KEY", setting: "A_KEY") : nil
        }

        func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
            try await base.fetch(request, context: context)
        }
    }

    let window = RateLimit(limit: 10, perSeconds: 3600)

    /// Runs the engine `times` over `provider` sharing `harness`'s storage; the errors each run ended with.
    func run(_ provider: KeyedProvider, _ harness: Harness, times: Int) async -> [ProviderError] {
        let engine = Engine(consensus: Consensus(), bindings: [ProviderBinding(provider: provider, transport: harness.server, policy: policy(limits: [window]))],
                            storage: EngineStorage(harness.storage), options: harness.options, time: harness.clock,
                            diagnostics: harness.diagnostics, random: { $0.lowerBound })
        var errors: [ProviderError] = []
        for _ in 0..<times {
            for event in await engine.collect(WeatherRequest(place: Fixture.place, kinds: [.current])) {
                if case .failure(_, _, let error) = event { errors.append(error) }
            }
        }
        return errors
    }

    @Test func aProviderWithoutItsKeyIsNeitherAskedNorCountedNorTripped() async throws {
        let harness = Harness()
        harness.server.script("/a", Array(repeating: status(503), count: 20))
        let errors = await run(KeyedProvider(keyMissing: true), harness, times: 6)
        #expect(errors.count == 6)
        #expect(errors.allSatisfy { $0.code == .notConfigured && $0.setting == "A_KEY" && $0.message == "A needs an API key: set A_KEY" })
        #expect(harness.server.count("/a") == 0)
        #expect(try await harness.storage.usage(provider: "a", windows: [window], now: harness.clock.now()) == [0])
        #expect(try await harness.storage.breaker(provider: "a") == BreakerState())
    }

    /// The contrast: the same provider with its key is asked, and each attempt counts (so the counters above can move).
    @Test func aProviderWithItsKeyIsAskedAndCounted() async throws {
        var harness = Harness()
        harness.options.maxRetries = 0
        harness.server.script("/a", [status(503)])
        let errors = await run(KeyedProvider(keyMissing: false), harness, times: 1)
        #expect(errors.map(\.code) == [.unavailable])
        #expect(harness.server.count("/a") == 1)
        #expect(try await harness.storage.usage(provider: "a", windows: [window], now: harness.clock.now()) == [1])
        #expect(try await harness.storage.breaker(provider: "a").failures == 1)
    }
}
