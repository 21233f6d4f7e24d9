import Foundation
@testable import IsobarConsensus
import IsobarCore
@testable import IsobarStore
import Testing

@Suite struct ForecastArchiveTests {
    /// A report fetched at `fetchedAt` with a step every hour from three hours before it to `hours` after it.
    func report(_ provider: String, fetchedAt: Date, hours: Int, temperature: Double = -1.04) -> WeatherReport {
        let steps = (-3...hours).map { offset -> WeatherSample in
            var step = WeatherSample(time: Sample.now.addingTimeInterval(Double(offset) * 3_600), periodHours: 1)
            step.temperatureC = temperature + Double(offset) / 10
            step.windSpeedMS = offset.isMultiple(of: 2) ? 3.26 : nil
            step.condition = .snow
            return step
        }
        return WeatherReport(providerID: provider, place: Sample.minsk, fetchedAt: fetchedAt, hourly: steps)
    }

    @Test func liveStepsAreKeptFromTheIssueHourOnwardWithTheirLeadTimes() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        // Fetched at 09:20: issued at 09:00, so the 09:00 step is kept and the three before it are not.
        #expect(try await store.archive(report("open-meteo", fetchedAt: Sample.now.addingTimeInterval(1_200), hours: 48)) == 49)
        let steps = try await store.archivedSteps(near: Sample.minsk)
        #expect(steps.count == 49)
        let first = try #require(steps.first)
        #expect(first.provider == "open-meteo" && first.latitude == 53.9 && first.longitude == 27.57)
        #expect(first.issuedAt == Sample.now && first.validAt == Sample.now && first.leadHours == 0)
        #expect(first.values == ["temperature": -1, "wind_speed": 3.3] && first.condition == "snow")
        #expect(steps[1].values == ["temperature": -0.9] && steps.last?.leadHours == 48)
    }

    @Test func aSecondFetchInTheSameHourReplacesTheFirstAndALaterHourAddsAnIssue() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        try await store.archive(report("open-meteo", fetchedAt: Sample.now, hours: 2, temperature: 1))
        try await store.archive(report("open-meteo", fetchedAt: Sample.now.addingTimeInterval(1_800), hours: 2, temperature: 2))
        try await store.archive(report("open-meteo", fetchedAt: Sample.now.addingTimeInterval(3_600), hours: 2, temperature: 3))
        let steps = try await store.archivedSteps()
        #expect(steps.count == 3 + 2)
        #expect(steps.filter { $0.issuedAt == Sample.now }.map { $0.values["temperature"] } == [2, 2.1, 2.2])
        let stats = try await store.archiveStats()
        #expect(stats.steps == 5 && stats.places == 1 && stats.providers == ["open-meteo"] && stats.observations == 0)
        #expect(stats.issued == Sample.now...Sample.now.addingTimeInterval(3_600))
    }

    @Test func observationsAreKeptAndPruningRemovesWhatIsOld() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        try await store.archive(report("met-norway", fetchedAt: Sample.now, hours: 24))
        try await store.archive(report("open-meteo", fetchedAt: Sample.now, hours: 24))
        var observed = WeatherSample(time: Sample.now, periodHours: 1)
        observed.temperatureC = -1
        observed.humidityPercent = 86.14
        observed.condition = .snow
        try await store.archiveObservation(observed, source: "metar", station: "UMMS", place: Sample.minsk)
        let observations = try await store.archivedObservations(near: Sample.minsk)
        #expect(observations == [ArchivedObservation(source: "metar", station: "UMMS", latitude: 53.9, longitude: 27.57, observedAt: Sample.now,
                                                     condition: "snow", values: ["temperature": -1, "humidity": 86.1])])
        #expect(try await store.archivedSteps(near: Sample.paris).isEmpty)
        // Everything valid before 21:00 goes: 12 steps of each provider and the observation.
        #expect(try await store.pruneArchive(before: Sample.now.addingTimeInterval(12 * 3_600)) == 2 * 12 + 1)
        let stats = try await store.archiveStats()
        #expect(stats.steps == 2 * 13 && stats.observations == 0 && stats.providers == ["met-norway", "open-meteo"])
        #expect(try await store.pruneArchive(before: Sample.now) == 0)
    }

    @Test func anEmptyArchiveSaysSo() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        #expect(try await store.archive(report("open-meteo", fetchedAt: Sample.now.addingTimeInterval(86_400), hours: 2)) == 0)
        #expect(try await store.archiveStats() == ArchiveStats(steps: 0, observations: 0, providers: [], places: 0, issued: nil))
    }

    @Test func aFileOfTheFirstVersionKeepsItsCitiesAndGainsTheArchive() async throws {
        let directory = freshDirectory()
        let first = Schema(label: "your cities and home", migrations: Array(UserDataStore.migrations.prefix(1)))
        let old = try first.connect(directory + "/" + UserDataStore.fileName, busyTimeoutMilliseconds: 1_000)
        try old.query("INSERT INTO cities(position, name, latitude, longitude, added_at) VALUES (1, 'Minsk', 53.9, 27.5667, 0)")
        try old.query("INSERT INTO facts(key, value) VALUES ('cities_seeded', '0')")
        let store = try await UserDataStore.open(directory: directory)
        #expect(try await store.cities(seed: [Sample.paris], now: Sample.now).map(\.name) == ["Minsk"])
        #expect(try await store.archive(report("open-meteo", fetchedAt: Sample.now, hours: 1)) == 2)
        #expect(try await store.integrityCheck() == "ok")
    }
}
