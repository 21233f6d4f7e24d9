import Foundation
@testable import IsobarConsensus
import IsobarCore
import IsobarEngine
@testable import IsobarStore
import IsobarTestKit
import Testing

@Suite struct SkillRecordStoreTests {
    /// `days` days from `first`: two providers issuing at midnight for the next 30 hours (one 2 °C warm), and the truth
    /// observed every hour at `place`.
    static func history(days: Range<Int>, place: Place = Sample.minsk, first: Date = Sample.now.addingTimeInterval(-20 * 86_400))
        -> (reports: [WeatherReport], observations: [WeatherSample]) {
        var random = SeededGenerator(seed: UInt64(days.lowerBound + 5))
        var reports: [WeatherReport] = []
        var observations: [WeatherSample] = []
        for day in days {
            let issued = first.addingTimeInterval(Double(day) * 86_400)
            for (provider, offset) in [("good", 0.0), ("warm", 2.0)] {
                let steps = (0..<30).map { lead -> WeatherSample in
                    var step = WeatherSample(time: issued.addingTimeInterval(Double(lead) * 3_600), periodHours: 1)
                    step.temperatureC = sin(Double(day * 24 + lead) / 5) * 6 + offset + random.normal(sigma: 0.6)
                    return step
                }
                reports.append(WeatherReport(providerID: provider, place: place, fetchedAt: issued, hourly: steps))
            }
            for hour in 0..<24 {
                var observed = WeatherSample(time: issued.addingTimeInterval(Double(hour) * 3_600), periodHours: 1)
                observed.temperatureC = sin(Double(day * 24 + hour) / 5) * 6
                observations.append(observed)
            }
        }
        return (reports, observations)
    }

    static func fill(_ store: UserDataStore, days: Range<Int>, place: Place = Sample.minsk) async throws {
        let (reports, observations) = history(days: days, place: place)
        for report in reports { try await store.archive(report) }
        for observed in observations { try await store.archiveObservation(observed, source: "metar", station: "UMMS", place: place) }
    }

    static func temperatureCounts(_ ledger: SkillLedger) -> [String: Int] {
        var counts: [String: Int] = [:]
        for (key, group) in ledger.groups where key.field == "temperature" {
            for (provider, sums) in group.sources { counts[provider, default: 0] += sums.count }
        }
        return counts
    }

    @Test func eachStepIsFoldedOnceAndOnlyNewOnesCostAFold() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        try await Self.fill(store, days: 0..<10)
        let first = try await store.foldSkill()
        #expect(first > 0)
        let ledger = try await store.skillLedger()
        // Nothing new: nothing folded, nothing changed.
        #expect(try await store.foldSkill() == 0)
        #expect(try await store.skillLedger() == ledger)
        // Two more days: only their steps (and the last day's that waited for observations) are folded.
        try await Self.fill(store, days: 10..<12)
        let second = try await store.foldSkill()
        #expect(second > 0 && second < first / 3)
        // The same archive folded in one go gives the same counts.
        let whole = try await UserDataStore.open(directory: freshDirectory())
        try await Self.fill(whole, days: 0..<12)
        try await whole.foldSkill()
        #expect(Self.temperatureCounts(try await store.skillLedger()) == Self.temperatureCounts(try await whole.skillLedger()))
        let record = try await store.skillRecord(near: Sample.minsk, now: Sample.now, settings: ConsensusLearning(biasCorrection: true))
        let skill = try #require(record.fields[SkillKey(.temperature, .hours6to24)])
        #expect(skill.isLearned && abs(skill.corrections["warm"]! - 2) < 0.3 && skill.quantiles != nil)
    }

    @Test func pruningKeepsWhatWasLearnedAndClearingForgetsIt() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        try await Self.fill(store, days: 0..<10)
        try await store.foldSkill()
        let learned = try await store.skillLedger()
        try await store.pruneArchive(before: Sample.now)
        #expect(try await store.archiveStats().steps == 0)
        #expect(try await store.foldSkill() == 0)
        #expect(try await store.skillLedger() == learned)
        try await store.clearArchive()
        #expect(try await store.skillLedger().groups.isEmpty)
    }

    @Test func aStepWithoutAnObservationWaitsForOne() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        let (reports, observations) = Self.history(days: 0..<1)
        for report in reports { try await store.archive(report) }
        // Every report but the one at 05:00.
        for (hour, observed) in observations.enumerated() where hour != 5 {
            try await store.archiveObservation(observed, source: "metar", station: "UMMS", place: Sample.minsk)
        }
        try await store.foldSkill()
        #expect(Self.temperatureCounts(try await store.skillLedger()) == ["good": 23, "warm": 23])
        try await store.archiveObservation(observations[5], source: "metar", station: "UMMS", place: Sample.minsk)
        #expect(try await store.foldSkill() == 2)
        #expect(Self.temperatureCounts(try await store.skillLedger()) == ["good": 24, "warm": 24])
    }

    @Test func aStepFoldedBesideAWaitingOneIsNeverFoldedAgain() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        let (reports, observations) = Self.history(days: 0..<1)
        let good = try #require(reports.first { $0.providerID == "good" })
        // A provider whose steps hold only what no station reports here: at every valid time its step waits beside good's.
        let hazy = WeatherReport(providerID: "hazy", place: Sample.minsk, fetchedAt: good.fetchedAt, hourly: good.hourly.map { step in
            var hazy = WeatherSample(time: step.time, periodHours: 1)
            hazy.visibilityM = 8_000
            return hazy
        })
        try await store.archive(good)
        try await store.archive(hazy)
        for observed in observations { try await store.archiveObservation(observed, source: "metar", station: "UMMS", place: Sample.minsk) }
        try await store.foldSkill()
        #expect(Self.temperatureCounts(try await store.skillLedger()) == ["good": 24])
        // A later report near 05:00 reopens the waiting step there; good's step beside it was folded and stays so.
        var late = observations[5]
        late.time = late.time.addingTimeInterval(600)
        try await store.archiveObservation(late, source: "metar", station: "UMMS", place: Sample.minsk)
        try await store.foldSkill()
        #expect(Self.temperatureCounts(try await store.skillLedger()) == ["good": 24])
    }

    @Test func importingAnotherArchiveGivesTheRecordOfOneHoldingBoth() async throws {
        let paris = Sample.paris
        let a = try await UserDataStore.open(directory: freshDirectory())
        try await Self.fill(a, days: 0..<8, place: paris)
        let b = try await UserDataStore.open(directory: freshDirectory())
        try await Self.fill(b, days: 0..<8)
        try await b.foldSkill()
        let both = try await UserDataStore.open(directory: freshDirectory())
        try await Self.fill(both, days: 0..<8, place: paris)
        try await Self.fill(both, days: 0..<8)
        try await both.foldSkill()
        let count = try await b.importArchive(steps: try await a.archivedSteps(), observations: try await a.archivedObservations())
        #expect(count.steps > 0 && count.observations == 8 * 24)
        try await b.foldSkill()
        #expect(try await b.skillLedger() == (try await both.skillLedger()))
        // Importing again adds nothing and folds nothing.
        #expect(try await b.importArchive(steps: try await a.archivedSteps(), observations: try await a.archivedObservations()) == ArchiveImportCount())
        #expect(try await b.foldSkill() == 0)
    }

    @Test func anOlderStoreIsUpgradedInPlaceAndItsArchiveFolded() async throws {
        let directory = freshDirectory()
        let connection = try Connection(path: directory + "/places.sqlite", busyTimeoutMilliseconds: 1000)
        try connection.execute(UserDataStore.migrations[0] + UserDataStore.migrations[1] + "PRAGMA user_version = 2;")
        let valid = Int64(Sample.now.timeIntervalSince1970)
        for (provider, value) in [("good", 1.0), ("warm", 3.0)] {
            try connection.query("""
                INSERT INTO archive_steps(provider, latitude, longitude, issued_at, valid_at, period_hours, condition, fields)
                VALUES (?, 53.9, 27.57, ?, ?, 1, NULL, ?)
                """, [.text(provider), .integer(valid - 7_200), .integer(valid), .text("{\"temperature\":\(value)}")])
        }
        try connection.query("""
            INSERT INTO archive_observations(source, station, latitude, longitude, observed_at, condition, fields)
            VALUES ('metar', 'UMMS', 53.9, 27.57, ?, NULL, '{"temperature":1}')
            """, [.integer(valid)])
        let store = try await UserDataStore.open(directory: directory)
        #expect(try await store.archiveStats().steps == 2)
        #expect(try await store.foldSkill() == 2)
        let scores = try await store.skillLedger(near: Sample.minsk).errorScores(field: "temperature", near: nil, now: Sample.now)
        #expect(scores[ScoreKey(provider: "warm", field: "temperature", bucket: .hours0to6)]?.bias == 2)
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test func sumsSurviveTheirTextForm() {
        let values = [0, 1.5, 0, -2.25e-7, 0, 1e300]
        #expect(UserDataStore.decodeSums(UserDataStore.encodeSums(values)) == values)
        #expect(UserDataStore.decodeSums("3 7=1") == nil && UserDataStore.decodeSums("x") == nil && UserDataStore.decodeSums("2 0=y") == nil)
    }
}
