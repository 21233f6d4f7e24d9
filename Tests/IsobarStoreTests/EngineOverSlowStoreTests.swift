import Foundation
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarStore
import Synchronization
import IsobarTestKit
import Testing

/// A provider answering after a short wait, with a published rate limit so that every call goes through the ledger.
struct QuickProvider: WeatherProvider {
    let id: String
    var displayName: String { id.uppercased() }
    var capabilities: ProviderCapabilities {
        ProviderCapabilities(kinds: [.current], horizonDays: 1, stepHours: 1, quantities: [.temperature], requiresAPIKey: false,
                             geocoding: false, rateLimits: [RateLimit(limit: 1000, perSeconds: 60)])
    }

    func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        do {
            try await Task.sleep(for: .milliseconds(20))
        } catch {
            throw ProviderError(.cancelled, "cancelled", reason: .cancelled)
        }
        var sample = WeatherSample(time: context.time.now(), periodHours: 1)
        sample.temperatureC = request.place.coordinate.latitude / 10
        return WeatherReport(providerID: id, place: request.place, fetchedAt: context.time.now(), current: sample)
    }
}

/// Transport never used: the providers above answer by themselves.
private struct NoTransport: Transport {
    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        throw ProviderError(.unavailable, "no transport here")
    }
}

@Suite struct EngineOverSlowStoreTests {
    /// What `isobar cities` does for 20 cities, over the real SQLite store with every job taking 200 ms on the store's threads:
    /// the deadline (3 s on the engine's clock) ends every call still waiting for the store, and every place is answered (the
    /// breaker may hold a provider back after enough such calls: it counts calls that end at their deadline).
    @Test func twentyPlacesOverAStoreTakingTwoHundredMillisecondsAJobEndAtTheirDeadline() async throws {
        let store = try await Store.open(directory: freshDirectory(), options: Store.Options(artificialDelayPerJob: .milliseconds(200)),
                                         warn: noWarnings)
        var options = EngineOptions()
        options.timeoutSeconds = 3
        let bindings = ["a", "b"].map { id in
            let provider = QuickProvider(id: id)
            return ProviderBinding(provider: provider, transport: NoTransport(), policy: ProviderPolicy(declaredBy: provider))
        }
        let clock = ManualClock()
        let engine = Engine(consensus: Consensus(), bindings: bindings, storage: EngineStorage(store), options: options, time: clock)
        let places = (0..<20).map { index in
            Place(name: "P\(index)", coordinate: Coordinate(latitude: Double(index), longitude: Double(index))!)
        }
        let finished = Atomic<Bool>(false)
        let run = Task {
            var events: [EngineEvent<ConsensusResult>] = []
            for await event in engine.run(places.map { WeatherRequest(place: $0, kinds: [.current]) }) { events.append(event) }
            finished.store(true, ordering: .releasing)
            return events
        }
        // Whenever calls wait on the clock (their deadlines among them), time moves on by a whole deadline: any call still
        // waiting for the store then ends at its deadline. Waiting for the store instead would take over a minute.
        while !finished.load(ordering: .acquiring) {
            if clock.sleeperCount > 0 { clock.advance(by: options.timeoutSeconds) }
            try await Task.sleep(for: .milliseconds(1))
        }
        let events = await run.value
        // Every place is answered: a line per provider (an answer, or a timeout at the deadline) and a consensus.
        for index in places.indices {
            let mine = events.filter { $0.request.id.rawValue == index }
            #expect(mine.filter { $0.providerID != nil }.count == 2)
            #expect(mine.last.map { if case .consensus = $0 { true } else { false } } == true)
        }
        let failures = events.compactMap { event -> ProviderError? in
            if case .failure(_, _, let error) = event { return error }
            return nil
        }
        #expect(failures.contains { $0.reason == .deadline }, "no call waited for the store until its deadline")
        // Each failure is a call ended at its deadline, or (once enough of those were counted, however the machine's speed
        // ordered them) a call the breaker held back because of them: nothing else failed.
        #expect(failures.allSatisfy { failure in
            failure.reason == .deadline || (failure.reason == .breakerOpen && failure.message.hasSuffix("the last: stopped at the deadline"))
        }, "\(failures.map(\.message))")
    }
}
