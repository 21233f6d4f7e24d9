import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Testing

@Suite("LedgerTransport")
struct LedgerTransportTests {
    let clock = ManualClock()
    let storage = MemoryStorage()
    let origin = StubTransport(status: 200, body: "[]")
    let request = HTTPRequest(url: RequestURL(string: "https://fake.test/geo")!, origin: "P")

    func binding(limits: [RateLimit]) -> ProviderBinding {
        ProviderBinding(provider: FakeProvider.answering("p", temperature: 0), transport: UnusedTransport(), policy: policy(limits: limits),
                        endpoint: "p|https://fake.test")
    }

    func transport(_ binding: ProviderBinding, wait: Double = 0) -> LedgerTransport {
        LedgerTransport(base: origin, binding: binding, ledger: storage, time: clock, diagnostics: DiagnosticLog(), waitSeconds: wait)
    }

    @Test func eachRequestCountsInTheProvidersWindowsUnderItsStorageKey() async throws {
        let limited = binding(limits: [RateLimit(limit: 2, perSeconds: 60)])
        let geocoding = transport(limited)
        _ = try await geocoding.send(request)
        #expect(try await storage.usage(provider: limited.storageKey, windows: [RateLimit(limit: 2, perSeconds: 60)], now: clock.now()) == [1])
        _ = try await geocoding.send(request)
        // The window is full: a third request is refused, not sent, and says when a call frees up.
        do throws(ProviderError) {
            let response = try await geocoding.send(request)
            Issue.record("expected rate_limited, got HTTP \(response.status)")
        } catch {
            guard case .rateLimited = error.code else {
                Issue.record("expected rate_limited, got \(error)")
                return
            }
            #expect(error.message.contains("rate limit reached"))
        }
        #expect(origin.requests.count == 2)
    }

    @Test func aWeatherCallAndAGeocodingRequestShareTheWindow() async throws {
        let limited = binding(limits: [RateLimit(limit: 1, perSeconds: 60)])
        let decision = try await storage.acquire(PermitRequest(provider: limited.storageKey, windows: [RateLimit(limit: 1, perSeconds: 60)],
                                                               cost: 1, deadline: clock.now().addingTimeInterval(10)), now: clock.now())
        guard case .granted = decision else {
            Issue.record("the weather call was not granted: \(decision)")
            return
        }
        await #expect(throws: ProviderError.self) { try await transport(limited).send(request) }
        #expect(origin.requests.isEmpty)
    }

    @Test func aRequestWaitsForTheWindowWithinItsWait() async throws {
        let limited = binding(limits: [RateLimit(limit: 1, perSeconds: 5)])
        let geocoding = transport(limited, wait: 30)
        _ = try await geocoding.send(request)
        let waiting = Task { try await geocoding.send(request) }
        await eventually("the second request waits") { clock.sleeperCount == 1 }
        #expect(origin.requests.count == 1)
        for _ in 0..<40 where origin.requests.count < 2 {
            clock.advance(by: 0.25)
            await eventually("it waits again or is sent") { clock.sleeperCount == 1 || origin.requests.count == 2 }
        }
        _ = try await waiting.value
        #expect(origin.requests.count == 2)
    }

    @Test func aProviderWithoutLimitsIsNotCounted() async throws {
        let free = binding(limits: [])
        for _ in 0..<3 { _ = try await transport(free).send(request) }
        #expect(origin.requests.count == 3)
    }
}
