import Foundation
@testable import IsobarConsensus
import IsobarCore
@testable import IsobarEngine
import Testing

@Suite("Consensus v2")
struct ConsensusV2Tests {
    static let now = V1Fixture.utc(2026, 11, 28)

    /// Hourly temperature reports from sources with fixed values, 12 hours from now.
    static func result(_ values: [String: Double]) -> ConsensusResult {
        let reports = values.keys.sorted().map { id in
            V1Fixture.report(id, hourly: V1Fixture.steps(from: now, count: 12) { _, sample in sample.temperatureC = values[id]! })
        }
        return ConsensusV1.merge(reports, place: V1Fixture.minsk, now: now)
    }

    /// A learned skill for the 0–6 h bucket of temperature.
    static func learning(weights: [String: Double], corrections: [String: Double] = [:], families: [String: String] = [:],
                         quantiles: ErrorQuantiles? = ErrorQuantiles(low: -1, high: 1, typicalSpread: 1)) -> ConsensusLearning {
        var skill = FieldSkill()
        skill.weights = weights
        skill.corrections = corrections
        skill.families = families
        skill.quantiles = quantiles
        skill.isLearned = true
        var learning = ConsensusLearning(biasCorrection: !corrections.isEmpty)
        learning.record.fields[SkillKey(.temperature, .hours0to6)] = skill
        return learning
    }

    @Test func withoutHistoryValuesStayThoseOfTheV1RuleAndSaySo() throws {
        let plain = Self.result(["a": 10, "b": 11, "c": 15])
        let refined = ConsensusV2.refine(plain, learning: ConsensusLearning())
        #expect(refined.weighting == .equalTooLittleHistory)
        for (before, after) in zip(plain.hourly, refined.hourly) {
            #expect(before[.temperature]!.value == after[.temperature]!.value)
            let learned = try #require(after[.temperature]!.learned)
            #expect(learned.basis == .spread)
            #expect(learned.weighting == .equalTooLittleHistory)
            #expect(learned.low < after[.temperature]!.value && after[.temperature]!.value < learned.high)
        }
    }

    @Test func learnedWeightsMakeAWeightedMeanOfCorrectedValues() throws {
        let refined = ConsensusV2.refine(Self.result(["a": 10, "b": 14]),
                                         learning: Self.learning(weights: ["a": 0.75, "b": 0.25], corrections: ["b": 2]))
        #expect(refined.weighting == .learnedCorrected)
        let hour = try #require(refined.hourly.first { $0.leadHours < 6 })
        let field = try #require(hour[.temperature])
        #expect(abs(field.value - 10.5) < 1e-9)  // 0.75 × 10 + 0.25 × (14 − 2)
        let learned = try #require(field.learned)
        #expect(learned.basis == .record)
        #expect(learned.corrections["b"] == 2)
        #expect(abs(learned.weights["a"]! - 0.75) < 1e-9)
        #expect(abs(learned.low - 9.5) < 1e-9 && abs(learned.high - 11.5) < 1e-9)
        // Beyond the learned bucket the v1 rule holds.
        let later = try #require(refined.hourly.first { $0.leadHours >= 6 })
        #expect(later[.temperature]!.learned?.weighting == .equalTooLittleHistory)
        #expect(later[.temperature]!.value == 12)
    }

    @Test func unusualDisagreementWidensTheInterval() throws {
        let calm = ConsensusV2.refine(Self.result(["a": 10, "b": 11]), learning: Self.learning(weights: ["a": 0.5, "b": 0.5]))
        let wide = ConsensusV2.refine(Self.result(["a": 10, "b": 16]), learning: Self.learning(weights: ["a": 0.5, "b": 0.5]))
        let calmField = try #require(calm.hourly.first![.temperature]?.learned)
        let wideField = try #require(wide.hourly.first![.temperature]?.learned)
        #expect(abs((calmField.high - calmField.low) - 2) < 1e-9)
        #expect(abs((wideField.high - wideField.low) - 6) < 1e-9)  // spread 6 is three times twice the usual 1
        #expect(wide.hourly.first![.temperature]!.confidence < calm.hourly.first![.temperature]!.confidence)
    }

    @Test func aFamilyOfTwoCannotOutvoteAnIndependentSourceAsOutlier() throws {
        let families = ["x": "pair", "y": "pair", "z": "z"]
        let refined = ConsensusV2.refine(Self.result(["x": 10, "y": 10, "z": 16]),
                                         learning: Self.learning(weights: ["x": 0.25, "y": 0.25, "z": 0.5], families: families))
        let field = try #require(refined.hourly.first![.temperature])
        #expect(field.outliers.isEmpty)
        #expect(abs(field.value - 13) < 1e-9)
    }

    @Test func amongThreeFamiliesAWildValueIsAnOutlier() throws {
        let refined = ConsensusV2.refine(Self.result(["a": 10, "b": 10.5, "c": 11, "d": 30]),
                                         learning: Self.learning(weights: ["a": 0.25, "b": 0.25, "c": 0.25, "d": 0.25]))
        let field = try #require(refined.hourly.first![.temperature])
        #expect(field.outliers == ["d"])
        #expect(abs(field.value - 10.5) < 1e-9)
        #expect(field.learned?.weights["d"] == 0)
    }

    @Test func unusableInputsAreLeftOut() {
        let merged = LearnedFieldMerge.merge([.nan, 3, 5], weights: [1, 0, 1], families: ["a", "b", "c"], floor: 2,
                                             configuration: ConsensusConfiguration())
        #expect(merged?.value == 5)
        #expect(merged?.isOutlier == [true, true, false])
        #expect(LearnedFieldMerge.merge([.nan], weights: [1], families: ["a"], floor: 2, configuration: ConsensusConfiguration()) == nil)
    }

    @Test func confidenceIsHalfWhenTheTypicalErrorIsTheFloor() {
        #expect(abs(ConsensusV2.confidence(halfWidth: ConsensusV2.z80 * 2, floor: 2) - 0.5) < 1e-12)
        #expect(ConsensusV2.confidence(halfWidth: 0, floor: 2) == 1)
        #expect(ConsensusV2.confidence(halfWidth: 1, floor: 0) == 0)
    }
}
