import Foundation
@testable import IsobarConsensus
import IsobarCore
@testable import IsobarEngine
import IsobarTestKit
import Testing

/// The equal-weight median by sorting network gives the general median's bits, and merged hours that keep their inputs in
/// the merge's grid give the same fields as merging listed inputs.
@Suite("ConsensusV1 equal-weight median and grid-backed fields")
struct ConsensusV1WeightedMedianEqualTests {
    typealias Entry = WeightedMedian.Entry

    /// The general weighted median of values that all weigh `weight`.
    static func general(_ values: [Double], weight: Double) -> (median: Double, totalWeight: Double) {
        var entries = values.map { Entry($0, weight: weight) }
        return entries.withUnsafeMutableBufferPointer { WeightedMedian.medianAndTotalWeight(sorting: $0)! }
    }

    /// The network's weighted median of the same values.
    static func network(_ values: [Double], weight: Double) -> (median: Double, totalWeight: Double) {
        var copy = values
        return copy.withUnsafeMutableBufferPointer { WeightedMedian.medianAndTotalWeight(sortingEqual: $0, weight: weight) }
    }

    @Test("the network sorts every arrangement of up to 6 values with ties", arguments: 1...6)
    func networkSorts(count: Int) {
        // Every sequence of count values drawn from 0…2 (so ties of every kind), as the 0-1 principle asks and more.
        var sequence = [Double](repeating: 0, count: count)
        for code in 0..<Int(pow(3, Double(count))) {
            var rest = code
            for index in 0..<count {
                sequence[index] = Double(rest % 3)
                rest /= 3
            }
            var sorted = sequence
            sorted.withUnsafeMutableBufferPointer { WeightedMedian.sortByNetwork($0) }
            #expect(sorted == sequence.sorted(), "\(sequence)")
        }
    }

    @Test("equal weights give the general median bit for bit", arguments: [1.0, 0.5, 1.5, 3])
    func sameBits(weight: Double) {
        var generator = SeededGenerator(seed: 6_021)
        for _ in 0..<2000 {
            let count = Int.random(in: 1...WeightedMedian.networkLimit, using: &generator)
            // Values to one decimal, so ties and +0.0 are common.
            let values = (0..<count).map { _ in (Double.random(in: -2...2, using: &generator) * 10).rounded(.towardZero) / 10 + 0.0 }
            let general = Self.general(values, weight: weight)
            let network = Self.network(values, weight: weight)
            #expect(network.median.bitPattern == general.median.bitPattern, "\(values)")
            #expect(network.totalWeight.bitPattern == general.totalWeight.bitPattern, "\(values)")
        }
    }

    @Test func negativeZeroIsNoticed() {
        var values: [Double] = [1, -0.0, 2]
        #expect(values.withUnsafeMutableBufferPointer { WeightedMedian.hasNegativeZero($0) })
        values[1] = 0
        #expect(!values.withUnsafeMutableBufferPointer { WeightedMedian.hasNegativeZero($0) })
    }

    /// Three providers, one without humidity and one with an outlying temperature.
    static func merged() throws -> ConsensusHour {
        let start = V1Fixture.utc(2026, 11, 28, 6)
        let reports = [("a", 5.0, 80.0), ("b", 5.4, nil), ("c", 19.0, 70.0)].map { id, temperature, humidity in
            V1Fixture.report(id, hourly: [V1Fixture.step(start) {
                $0.temperatureC = temperature
                $0.humidityPercent = humidity
            }])
        }
        let result = ConsensusV1.merge(reports, place: V1Fixture.minsk, now: start)
        return try #require(result.hourly.first { $0.time == start })
    }

    @Test func aGridBackedFieldEqualsTheMergeOfItsListedInputs() throws {
        let hour = try Self.merged()
        let temperature = try #require(hour[.temperature])
        let listed = FieldMerge.merge(V1Fixture.values([("a", 5), ("b", 5.4), ("c", 19)]), floor: ConsensusConfiguration().floor(.temperature))
        #expect(temperature == listed)
        #expect(temperature.inputs.map(\.provider) == ["a", "b", "c"])
        #expect(temperature.outliers == ["c"])
        #expect(temperature.missing.isEmpty)
        let humidity = try #require(hour[.humidity])
        #expect(humidity.inputs.map(\.provider) == ["a", "c"])
        #expect(humidity.missing == ["b"])
        #expect(humidity.disagreement != nil)
    }

    @Test func changingAGridBackedFieldsInputsKeepsItsMissingProviders() throws {
        var humidity = try #require(try Self.merged()[.humidity])
        humidity.inputs[0].isOutlier = true
        #expect(humidity.inputs.map(\.isOutlier) == [true, false])
        #expect(humidity.missing == ["b"])
        humidity.missing = []
        #expect(humidity.inputs.map(\.isOutlier) == [true, false])
        humidity.disagreement = nil
        #expect(humidity.disagreement == nil)
    }
}
