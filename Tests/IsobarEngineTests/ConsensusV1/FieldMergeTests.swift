import IsobarConsensus
import IsobarCore
import IsobarEngine
import Testing

@Suite("ConsensusV1 field merge")
struct ConsensusV1FieldMergeTests {
    static let configuration = ConsensusConfiguration()

    static func merge(_ values: [Double], _ quantity: Quantity = .temperature, weights: [Double]? = nil) throws -> MergedField {
        let inputs = weights.map { weights in V1Fixture.lettered(values).enumerated().map { index, input in
            var copy = input
            copy.weight = weights[index]
            return copy
        } } ?? V1Fixture.lettered(values)
        return try #require(FieldMerge.merge(inputs, floor: configuration.floor(quantity), circular: quantity == .windDirection))
    }

    // MARK: Medians

    @Test func oddAndEvenCountsWithoutOutliers() throws {
        let odd = try Self.merge([3, 1, 2])
        #expect(odd.value == 2)
        #expect((odd.min, odd.max, odd.spread) == (1, 3, 2))
        #expect(odd.medianAbsoluteDeviation == 1)
        #expect(odd.outliers.isEmpty)
        #expect(odd.contributors == ["a", "b", "c"])
        #expect(odd.disagreement == nil)
        // 1, 2, 3, 4: median 2.5; deviations 1.5, 0.5, 0.5, 1.5, MAD 1.
        let even = try Self.merge([1, 2, 3, 4])
        #expect(even.value == 2.5)
        #expect(even.medianAbsoluteDeviation == 1)
    }

    @Test func noInputsGiveNothing() {
        #expect(FieldMerge.merge([], floor: 2) == nil)
        #expect(FieldMerge.merge([ProviderValue(provider: "a", value: 1, weight: 0)], floor: 2) == nil)
        #expect(FieldMerge.merge([ProviderValue(provider: "a", value: .nan)], floor: 2) == nil)
    }

    // MARK: Outliers

    /// 10, 10.5, 11, 18: median 10.75, deviations 0.75, 0.25, 0.25, 7.25, MAD 0.5, threshold max(3 × 1.4826 × 0.5, 2) = 2.2239.
    @Test func anOutlierIsLeftOutAndTheMedianRecomputed() throws {
        let merged = try Self.merge([10, 10.5, 11, 18])
        #expect(merged.outliers == ["d"])
        #expect(merged.contributors == ["a", "b", "c"])
        #expect(merged.value == 10.5)
        #expect((merged.min, merged.max, merged.spread) == (10, 18, 8))
        #expect(merged.medianAbsoluteDeviation == 0.5)
        #expect(merged.inputs.map(\.isOutlier) == [false, false, false, true])
        // Agreement 1 / (1 + (1 / 2)²) = 0.8 over the kept spread of 1; sources 1 − 2⁻³ = 0.875; lead 0.
        #expect(abs(merged.confidence - 0.7) < 1e-12)
    }

    /// 0, 2, 4, 6, 30: median 4, deviations 4, 2, 0, 2, 26, MAD 2, threshold 8.8956 (above the 2 °C floor).
    @Test func theMADThresholdWhenItIsAboveTheFloor() throws {
        let merged = try Self.merge([0, 2, 4, 6, 30])
        #expect(merged.outliers == ["e"])
        #expect(merged.value == 3)
        #expect(merged.medianAbsoluteDeviation == 2)
    }

    /// With equal values the MAD is 0 and only the floor protects the fourth source.
    @Test(arguments: [
        (Quantity.temperature, 10.0, 1.99, 2.01),
        (.apparentTemperature, 10, 2.99, 3.01),
        (.windSpeed, 5, 1.99, 2.01),
        (.windGust, 8, 2.99, 3.01),
        (.pressure, 1000, 2.99, 3.01),
        (.humidity, 50, 9.99, 10.01),
        (.precipitationProbability, 20, 19.99, 20.01),
        (.cloudCover, 50, 24.99, 25.01),
        (.visibility, 10_000, 4999, 5001),
        (.precipitationRate, 0, 0.99, 1.01),
    ])
    func floors(_ quantity: Quantity, _ base: Double, _ within: Double, _ beyond: Double) throws {
        let kept = try Self.merge([base, base, base, base + within], quantity)
        #expect(kept.outliers.isEmpty)
        #expect(kept.value == base)
        let left = try Self.merge([base, base, base, base + beyond], quantity)
        #expect(left.outliers == ["d"])
        #expect(left.value == base)
    }

    /// Why a copy of the consensus can move it. −4.4, −1.2, −0.2, 0.7: median −0.7, deviations 3.7, 0.5, 0.5, 1.4,
    /// MAD 0.95, threshold 4.2254, so no outlier and the consensus is −0.7. Add −0.7: deviations 3.7, 0.5, 0, 0.5, 1.4,
    /// MAD 0.5, threshold max(2.2239, 2): now −4.4 is an outlier and the median of the rest is −0.45.
    @Test func aCopyOfTheCentreCanShrinkTheMAD() throws {
        let before = try Self.merge([-4.4, -1.2, -0.2, 0.7])
        #expect(before.outliers.isEmpty)
        #expect(isClose(before.value, -0.7))
        let after = try Self.merge([-4.4, -1.2, -0.2, 0.7, before.value])
        #expect(after.outliers == ["a"])
        #expect(isClose(after.value, -0.45))
    }

    // MARK: Two sources

    @Test func twoSourcesReportTheirDisagreement() throws {
        let apart = try Self.merge([10, 13])
        #expect(apart.value == 11.5)
        #expect(apart.outliers.isEmpty)
        #expect(apart.disagreement == Disagreement(difference: 3, floor: 2, exceedsFloor: true))
        let close = try Self.merge([10, 11])
        #expect(close.disagreement == Disagreement(difference: 1, floor: 2, exceedsFloor: false))
        let single = try Self.merge([4])
        #expect(single.disagreement == Disagreement(difference: 0, floor: 2, exceedsFloor: false))
        // Three sources apply the outlier rule and report no disagreement.
        #expect(try Self.merge([10, 11, 12]).disagreement == nil)
    }

    // MARK: Weights

    /// Weight 2 on 10 against 13: total weight 3, so the outlier rule applies exactly as for 10, 10, 13.
    @Test func weightsCountAsSources() throws {
        let weighted = try Self.merge([10, 13], weights: [2, 1])
        let listed = try Self.merge([10, 10, 13])
        #expect(weighted.value == 10)
        #expect(weighted.outliers == ["b"])
        #expect(listed.outliers == ["c"])
        #expect(weighted.value == listed.value)
        #expect(weighted.medianAbsoluteDeviation == listed.medianAbsoluteDeviation)
        #expect(weighted.confidence == listed.confidence)
        // A heavier provider pulls the median: running weights 1, 2, 5 against 2.5.
        #expect(try Self.merge([1, 2, 3], weights: [1, 1, 3]).value == 3)
    }

    // MARK: Directions

    /// 350°, 10°, 20° lie on the arc from 350° to 20°: unwrapped 0, 20, 30, median 20, so 10°.
    @Test func directionsMergeOnTheirArc() throws {
        let merged = try Self.merge([350, 10, 20], .windDirection)
        #expect(merged.value == 10)
        #expect((merged.min, merged.max, merged.spread) == (350, 20, 30))
        #expect(merged.outliers.isEmpty)
    }

    /// 350°, 0°, 10°, 180°: the widest gap is 10°…180°, so the arc runs from 180° through north to 10°.
    /// Unwrapped: 170, 180, 190, 0; median 175; deviations 5, 5, 15, 175; MAD 10; threshold max(44.5, 45) = 45.
    @Test func aDirectionOutlier() throws {
        let merged = try Self.merge([350, 0, 10, 180], .windDirection)
        #expect(merged.outliers == ["d"])
        #expect(merged.value == 0)
        #expect((merged.min, merged.max, merged.spread) == (180, 10, 190))
        #expect(merged.medianAbsoluteDeviation == 10)
    }

    // MARK: Confidence

    @Test func confidenceFactors() {
        #expect(ConsensusConfidence.agreement(spread: 0, floor: 2) == 1)
        #expect(ConsensusConfidence.agreement(spread: 2, floor: 2) == 0.5)
        #expect(ConsensusConfidence.agreement(spread: 4, floor: 2) == 0.2)
        #expect(ConsensusConfidence.sources(weight: 1) == 0.5)
        #expect(ConsensusConfidence.sources(weight: 3) == 0.875)
        #expect(ConsensusConfidence.sources(weight: 0) == 0)
        #expect(ConsensusConfidence.leadTime(hours: 0, halfLifeHours: 168) == 1)
        #expect(ConsensusConfidence.leadTime(hours: -5, halfLifeHours: 168) == 1)
        #expect(ConsensusConfidence.leadTime(hours: 168, halfLifeHours: 168) == 0.5)
        #expect(ConsensusConfidence.leadTime(hours: 336, halfLifeHours: 168) == 0.25)
    }

    /// Two agreeing sources a week ahead: 1 × 0.75 × 0.5.
    @Test func confidenceFallsWithLeadTime() throws {
        let merged = try #require(FieldMerge.merge(V1Fixture.lettered([5, 5]), floor: 2, leadHours: 168))
        #expect(merged.confidence == 0.375)
    }
}
