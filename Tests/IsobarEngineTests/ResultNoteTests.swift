import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Testing

@Suite struct ResultNoteTests {
    /// A provider whose current conditions were observed `hoursAgo` before the clock's now, with steps up to `stepsUntil`.
    func provider(_ id: String, temperature: Double, hoursAgo: Double, clock: ManualClock, stepsUntil: Date? = nil) -> FakeProvider {
        FakeProvider(id) { request, _ in
            var sample = WeatherSample(time: clock.now().addingTimeInterval(-hoursAgo * 3600), periodHours: 1)
            sample.temperatureC = temperature
            let steps = stepsUntil.map { end in
                (0..<3).map { WeatherSample(time: end.addingTimeInterval(Double($0 - 2) * 3600), periodHours: 1) }
            } ?? []
            return WeatherReport(providerID: id, place: request.place, fetchedAt: clock.now(), current: sample, hourly: steps)
        }
    }

    @Test func aStaleObservationIsFlaggedAndLeftOutOfTheConsensus() async throws {
        let clock = ManualClock()
        let engine = Engine(consensus: Consensus(), bindings: [
            ProviderBinding(provider: provider("fresh", temperature: 2, hoursAgo: 0.5, clock: clock), transport: UnusedTransport()),
            ProviderBinding(provider: provider("old", temperature: 9, hoursAgo: 5, clock: clock), transport: UnusedTransport()),
        ], time: clock)
        let events = await engine.collect(WeatherRequest(place: Fixture.place, kinds: [.current]))
        let old = try #require(events.compactMap { event -> ProviderResult? in
            if case .result(_, let result) = event, result.report.providerID == "old" { return result }
            return nil
        }.first)
        #expect(old.notes.map(\.code) == ["stale_current"])
        if case .staleCurrent(_, let age) = old.notes.first { #expect(age == 5 * 3600) }
        let consensus = try #require(events.last?.consensus)
        #expect(consensus.current?.values[.temperature]?.value == 2)
        let fresh = events.compactMap { event -> ProviderResult? in
            if case .result(_, let result) = event, result.report.providerID == "fresh" { return result }
            return nil
        }.first
        #expect(fresh?.notes.isEmpty == true)
    }

    @Test func aForecastEndingBeforeTodayIsFlagged() async throws {
        let clock = ManualClock()
        let ended = clock.now().addingTimeInterval(-3 * 86_400)
        let engine = Engine(consensus: Consensus(), bindings: [
            ProviderBinding(provider: provider("past", temperature: 2, hoursAgo: 0, clock: clock, stepsUntil: ended), transport: UnusedTransport()),
            ProviderBinding(provider: provider("now", temperature: 2, hoursAgo: 0, clock: clock, stepsUntil: clock.now().addingTimeInterval(86_400)),
                            transport: UnusedTransport()),
        ], time: clock)
        let events = await engine.collect(WeatherRequest(place: Fixture.place, kinds: [.current, .hourly]))
        let codes = Dictionary(uniqueKeysWithValues: events.compactMap { event -> (String, [String])? in
            if case .result(_, let result) = event { return (result.report.providerID, result.notes.map(\.code)) }
            return nil
        })
        #expect(codes["past"] == ["forecast_ended"])
        #expect(codes["now"] == [])
    }
}
