import Foundation
@testable import IsobarConsensus
import IsobarCore
@testable import IsobarStore
import Testing

@Suite struct BatchedArchiveTests {
    func report(_ provider: String, place: Place, fetchedAt: Date, hours: Int) -> WeatherReport {
        let steps = (0...hours).map { offset -> WeatherSample in
            var step = WeatherSample(time: Sample.now.addingTimeInterval(Double(offset) * 3_600), periodHours: 1)
            step.temperatureC = Double(offset)
            return step
        }
        return WeatherReport(providerID: provider, place: place, fetchedAt: fetchedAt, hourly: steps)
    }

    @Test func manyAnswersAndObservationsInOneCallKeepWhatSeparateCallsWould() async throws {
        let batched = try await UserDataStore.open(directory: freshDirectory())
        let separate = try await UserDataStore.open(directory: freshDirectory())
        let reports = [report("open-meteo", place: Sample.minsk, fetchedAt: Sample.now, hours: 5),
                       report("met-norway", place: Sample.minsk, fetchedAt: Sample.now, hours: 3),
                       report("open-meteo", place: Sample.paris, fetchedAt: Sample.now, hours: 2)]
        var current = WeatherSample(time: Sample.now, periodHours: 1)
        current.temperatureC = -1
        let observations = [ObservationToArchive(current, source: ArchivedObservation.proxySource, station: "open-meteo", place: Sample.minsk),
                            ObservationToArchive(current, source: ArchivedObservation.proxySource, station: "open-meteo", place: Sample.paris)]
        #expect(try await batched.archive(reports, observations: observations) == 6 + 4 + 3)
        for report in reports { try await separate.archive(report) }
        for observation in observations {
            try await separate.archiveObservation(observation.sample, source: observation.source, station: observation.station, place: observation.place)
        }
        #expect(try await batched.archivedSteps() == separate.archivedSteps())
        #expect(try await batched.archivedObservations() == separate.archivedObservations())
        #expect(try await batched.archivedObservations(near: Sample.paris).map(\.station) == ["open-meteo"])
    }

    @Test func aBatchedCallMayPruneWhatIsOldInTheSameTransaction() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        try await store.archive(report("open-meteo", place: Sample.minsk, fetchedAt: Sample.now, hours: 5))
        // Nothing new, but the steps valid before 02:00 after now go.
        #expect(try await store.archive([], observations: [], pruningBefore: Sample.now.addingTimeInterval(2 * 3_600)) == 0)
        #expect(try await store.archiveStats().steps == 4)
        #expect(try await store.archive([report("open-meteo", place: Sample.paris, fetchedAt: Sample.now, hours: 1)], observations: [],
                                        pruningBefore: Sample.now.addingTimeInterval(3 * 3_600)) == 2)
        // Pruned after the insert: Paris's two steps are older than the cutoff, so only Minsk's last three stay.
        #expect(try await store.archiveStats().steps == 3)
    }

    @Test func nothingToWriteIsNoWrite() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        #expect(try await store.archive([], observations: []) == 0)
        #expect(try await store.archiveStats().steps == 0)
    }
}
