import Foundation
@testable import IsobarConsensus
import IsobarCore
@testable import IsobarEngine
import IsobarTestKit
import Testing

/// Archived pairs for the learner: hourly truths and each source's forecasts issued at midnight for 48 hours.
enum LearnerFixture {
    static let start = V1Fixture.utc(2026, 10, 1)

    /// `days` days of forecasts from sources with (bias, σ), and an optional shared error for the sources marked shared.
    static func pairs(days: Int, sources: [(id: String, bias: Double, sigma: Double, shared: Bool)], sharedSigma: Double = 0,
                      seed: UInt64 = 3) -> ([Verification.Forecast], [Verification.Observation]) {
        var random = SeededGenerator(seed: seed)
        var forecasts: [Verification.Forecast] = []
        var observations: [Verification.Observation] = []
        let truth = (0..<(days * 24 + 48)).map { 5 + 5 * sin(Double($0) / 4) }
        for hour in truth.indices {
            observations.append(.init(place: "p", time: start.addingTimeInterval(Double(hour) * 3600), value: truth[hour]))
        }
        for day in 0..<days {
            let issued = start.addingTimeInterval(Double(day) * 86_400)
            for lead in 0..<48 {
                let shared = random.normal(sigma: sharedSigma)
                for source in sources {
                    let value = truth[day * 24 + lead] + source.bias + random.normal(sigma: source.sigma) + (source.shared ? shared : 0)
                    forecasts.append(.init(provider: source.id, place: "p", issuedAt: issued,
                                           validAt: issued.addingTimeInterval(Double(lead) * 3600), value: value))
                }
            }
        }
        return (forecasts, observations)
    }

    static func learn(days: Int, sources: [(id: String, bias: Double, sigma: Double, shared: Bool)], sharedSigma: Double = 0,
                      biasCorrection: Bool = true, families: [String: String] = [:]) -> SkillRecord {
        let (forecasts, observations) = pairs(days: days, sources: sources, sharedSigma: sharedSigma)
        var record = SkillRecord()
        record.learn(.temperature, forecasts: forecasts, observations: observations, families: families,
                     now: start.addingTimeInterval(Double(days) * 86_400), settings: ConsensusLearning(biasCorrection: biasCorrection))
        return record
    }
}

@Suite("Skill learner")
struct SkillLearnerTests {
    @Test func learnsBiasAndWeightsByInverseMeanSquareError() throws {
        let record = LearnerFixture.learn(days: 20, sources: [("good", 0, 0.5, false), ("warm", 3, 1.0, false)])
        let skill = try #require(record.fields[SkillKey(.temperature, .days1to3)])
        #expect(skill.isLearned)
        #expect(abs(skill.sources["warm"]!.bias - 3) < 0.2)
        #expect(abs(skill.corrections["warm"]! - 3) < 0.2)
        #expect(skill.weights["good"]! > skill.weights["warm"]!)
        #expect(abs(skill.weights.values.reduce(0, +) - 1) < 1e-9)
        #expect(skill.shrinkage > 0.9 && skill.shrinkage < 1)
        let quantiles = try #require(skill.quantiles)
        #expect(quantiles.low < 0 && quantiles.high > 0)
    }

    @Test func withoutBiasCorrectionABiasedSourceWeighsLessAndIsNotCorrected() throws {
        let record = LearnerFixture.learn(days: 20, sources: [("a", 0, 1, false), ("warm", 3, 1, false)], biasCorrection: false)
        let skill = try #require(record.fields[SkillKey(.temperature, .hours6to24)])
        #expect(skill.corrections["warm"] == 0)
        #expect(skill.weights["a"]! > 2 * skill.weights["warm"]!)
    }

    /// One day of the first 24 hours: no lead bucket has 24 (decayed) pairs, so none is learned and none has one to
    /// borrow from.
    @Test func tooLittleHistoryIsNotLearned() throws {
        let (forecasts, observations) = LearnerFixture.pairs(days: 1, sources: [("a", 0, 1, false), ("b", 0, 2, false)])
        var record = SkillRecord()
        record.learn(.temperature, forecasts: forecasts.filter { $0.validAt.timeIntervalSince($0.issuedAt) < 86_400 }, observations: observations,
                     now: LearnerFixture.start.addingTimeInterval(86_400), settings: ConsensusLearning(biasCorrection: true))
        let skill = try #require(record.fields[SkillKey(.temperature, .hours0to6)])
        #expect(!skill.isLearned)
        #expect(skill.quantiles == nil)
        #expect(record.fields.values.allSatisfy { !$0.isLearned && $0.borrowedFrom == nil })
    }

    /// Two days: 0–6 h has 12 pairs a source, 6–24 h 36: the short bucket borrows the nearest longer learned one
    /// (weights, corrections, interval) and says so; with twenty days it has its own.
    @Test func aShortLeadWithTooLittleHistoryBorrowsTheNearestLongerOne() throws {
        let record = LearnerFixture.learn(days: 2, sources: [("a", 0, 1, false), ("b", 0, 2, false)])
        let borrowed = try #require(record.fields[SkillKey(.temperature, .hours0to6)])
        let donor = try #require(record.fields[SkillKey(.temperature, .hours6to24)])
        #expect(donor.isLearned && donor.borrowedFrom == nil)
        #expect(borrowed.isLearned)
        #expect(borrowed.borrowedFrom == .hours6to24)
        #expect(borrowed.weights == donor.weights && borrowed.corrections == donor.corrections && borrowed.quantiles == donor.quantiles)
        #expect(borrowed.weights["a"]! > borrowed.weights["b"]!)
        let own = try #require(LearnerFixture.learn(days: 20, sources: [("a", 0, 1, false), ("b", 0, 2, false)]).fields[SkillKey(.temperature, .hours0to6)])
        #expect(own.isLearned && own.borrowedFrom == nil)
    }

    @Test func correlatedErrorsMakeAFamilyThatWeighsAsOne() throws {
        let record = LearnerFixture.learn(days: 20, sources: [("copy-1", 0, 0.3, true), ("copy-2", 0, 0.3, true), ("other", 0, 1.5, false)],
                                          sharedSigma: 1.5)
        let skill = try #require(record.fields[SkillKey(.temperature, .days1to3)])
        #expect(skill.families["copy-1"] == skill.families["copy-2"])
        #expect(skill.families["other"] != skill.families["copy-1"])
        #expect(skill.weights["other"]! > skill.weights["copy-1"]! + skill.weights["copy-2"]! - 0.1)
    }

    @Test func declaredFamiliesAreJoinedWhateverTheirErrors() throws {
        let record = LearnerFixture.learn(days: 20, sources: [("m/a", 0, 1, false), ("m/b", 0, 1, false), ("x", 0, 1, false)],
                                          families: ["m/a": "m", "m/b": "m"])
        let skill = try #require(record.fields[SkillKey(.temperature, .days1to3)])
        #expect(skill.families["m/a"] == skill.families["m/b"])
        #expect(abs(skill.weights["x"]! - 0.5) < 0.1)
    }

    @Test func forecastsWithoutObservationsLearnNothing() {
        let (forecasts, _) = LearnerFixture.pairs(days: 5, sources: [("a", 0, 1, false)])
        var record = SkillRecord()
        record.learn(.temperature, forecasts: forecasts, observations: [], now: LearnerFixture.start, settings: ConsensusLearning())
        #expect(record.fields.isEmpty)
        #expect(record.skill(.temperature, leadHours: 3) == nil)
        #expect(record.skill(.temperature, leadHours: -1) == nil)
    }
}
