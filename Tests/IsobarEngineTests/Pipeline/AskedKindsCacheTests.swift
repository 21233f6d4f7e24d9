import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Testing

@Suite("Caching only the kinds asked")
struct AskedKindsCacheTests {
    let clock = ManualClock()
    let storage = MemoryStorage()

    func step(_ next: any PipelineStep, onlyAsked: Bool) -> SingleFlightStep {
        SingleFlightStep(next: next, cache: reportCache(storage, clock: clock), locks: storage, leaseSeconds: 5, readCache: true,
                         time: clock, diagnostics: DiagnosticLog(), owner: LeaseOwner(token: "a"), cachesOnlyAskedKinds: onlyAsked)
    }

    @Test func anAnswerFillingBothSlotsKeepsOnlyTheAskedOne() async throws {
        // The sample answer has current conditions and a forecast step; only current conditions are asked.
        let report = try await step(ScriptedStep(clock: clock, script: [.success(9)]), onlyAsked: true)
            .answer(providerCall([.current], clock: clock))
        #expect(report.current?.temperatureC == 9)
        #expect(report.hourly.count == 1, "the caller still gets the whole answer")
        let current = try #require(try await storage.entry(for: cacheKey(.current)))
        #expect(ReportCodec.decode(current.payload, place: Fixture.place)?.current?.temperatureC == 9)
        #expect(try await storage.entry(for: cacheKey(.forecast)) == nil)
    }

    @Test func hoursAskedKeepOnlyTheForecast() async throws {
        _ = try await step(ScriptedStep(clock: clock, script: [.success(4)]), onlyAsked: true).answer(providerCall([.hourly], clock: clock))
        let forecast = try #require(try await storage.entry(for: cacheKey(.forecast)))
        #expect(ReportCodec.decode(forecast.payload, place: Fixture.place)?.hourly.first?.temperatureC == 5)
        #expect(try await storage.entry(for: cacheKey(.current)) == nil)
    }

    @Test func withoutTheOptionEverySlotTheAnswerFillsIsKept() async throws {
        _ = try await step(ScriptedStep(clock: clock, script: [.success(9)]), onlyAsked: false).answer(providerCall([.current], clock: clock))
        #expect(try await storage.entry(for: cacheKey(.current)) != nil)
        #expect(try await storage.entry(for: cacheKey(.forecast)) != nil)
    }

    @Test func noStoreStillForgetsTheSlotsNobodyAskedFor() async throws {
        let cache = reportCache(storage, clock: clock)
        await cache.store(sampleReport(1, at: clock.now()))
        #expect(try await storage.entry(for: cacheKey(.forecast)) != nil)
        var refused = sampleReport(2, at: clock.now())
        refused.caching = HTTPCaching(noStore: true)
        await cache.store(refused, slots: [.current])
        #expect(try await storage.entry(for: cacheKey(.current)) == nil)
        #expect(try await storage.entry(for: cacheKey(.forecast)) == nil, "an older answer must not outlive a no-store one")
    }
}
