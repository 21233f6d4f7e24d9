import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarStore
import IsobarTestKit
import Synchronization
import Testing

/// A step that counts calls and holds each one until `release` is set, answering with an outage.
private final class HeldOutage: PipelineStep {
    let calls = Mutex(0)
    let released = Atomic(false)
    let skipped = Mutex(0)

    func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport {
        calls.withLock { $0 += 1 }
        while !released.load(ordering: .relaxed) { await Task.yield() }
        throw ProviderError(.unavailable, "P answered HTTP 503")
    }
}

@Suite("Half-open and reset over SQLite")
struct HalfOpenProbeTests {
    @Test func twoStoresOnOneFileAdmitOneProbe() async throws {
        let directory = freshDirectory()
        let stores = [try await Store.open(directory: directory, warn: noWarnings), try await Store.open(directory: directory, warn: noWarnings)]
        let clock = ManualClock()
        let place = Place(name: "Minsk", coordinate: try #require(Coordinate(latitude: 53.9, longitude: 27.57)))
        for _ in 1...3 { _ = try await stores[0].recordOutcome(provider: "p", succeeded: false, threshold: 3, now: clock.now()) }
        clock.advance(by: 61)
        let next = HeldOutage()
        let steps = (0..<4).map { index in
            BreakerStep(next: next, provider: QuickProvider(id: "p"), breakers: stores[index % 2], threshold: 3,
                        openSeconds: 60, time: clock, diagnostics: DiagnosticLog(), probes: stores[index % 2])
        }
        await withTaskGroup(of: Void.self) { group in
            for step in steps {
                group.addTask {
                    let call = ProviderCall(request: WeatherRequest(place: place, kinds: [.current]),
                                            deadline: clock.now().addingTimeInterval(10))
                    do throws(ProviderError) {
                        _ = try await step.answer(call)
                    } catch {
                        if error.reason == .breakerOpen {
                            let count = next.skipped.withLock { count in
                                count += 1
                                return count
                            }
                            if count == 3 { next.released.store(true, ordering: .relaxed) }
                        }
                    }
                }
            }
        }
        #expect(next.skipped.withLock { $0 } == 3)
        #expect(next.calls.withLock { $0 } == 1)
    }

    @Test func resetClearsTheCooldownAndTheBreakerForEveryStoreOnTheFile() async throws {
        let directory = freshDirectory()
        let one = try await Store.open(directory: directory, warn: noWarnings)
        let two = try await Store.open(directory: directory, warn: noWarnings)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try await one.setCooldown(Cooldown(until: now.addingTimeInterval(600), reason: "HTTP 429"), provider: "p")
        for _ in 1...3 { _ = try await one.recordOutcome(provider: "p", succeeded: false, threshold: 3, now: now) }
        try await two.clearCooldown(provider: "p")
        try await two.resetBreaker(provider: "p")
        #expect(try await one.cooldown(provider: "p", now: now) == nil)
        #expect(try await one.breaker(provider: "p") == BreakerState())
    }
}
