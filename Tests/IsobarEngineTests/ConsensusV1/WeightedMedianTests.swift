import IsobarConsensus
import IsobarEngine
import IsobarTestKit
import Testing

@Suite("ConsensusV1 weighted median")
struct ConsensusV1WeightedMedianTests {
    typealias Entry = WeightedMedian.Entry

    static func median(_ values: [Double]) -> Double? { WeightedMedian.median(values.map { Entry($0) }) }

    @Test func equalWeightsGiveTheOrdinaryMedian() {
        #expect(Self.median([3, 1, 2]) == 2)
        #expect(Self.median([10, -4, 7, 7, 0]) == 7)
        #expect(Self.median([4.5]) == 4.5)
        // Even counts: the mean of the two middle values.
        #expect(Self.median([1, 10, 2, 3]) == 2.5)
        #expect(Self.median([-1, 1]) == 0)
        #expect(Self.median([5, 5, 6, 6]) == 5.5)
        #expect(Self.median([]) == nil)
    }

    /// Running weights 1, 2, 4 against half of 4 = 2: the sum reaches exactly 2 at the value 2, so (2 + 3) / 2.
    @Test func anExactHalfAveragesWithTheNextValue() {
        #expect(WeightedMedian.median([Entry(1), Entry(2), Entry(3, weight: 2)]) == 2.5)
        #expect(Self.median([1, 2, 3, 3]) == 2.5)
    }

    /// Running weights 2, 3 against half of 3 = 1.5: the first value passes it.
    @Test func theHeavierOfTwoWins() {
        #expect(WeightedMedian.median([Entry(1, weight: 2), Entry(5)]) == 1)
        #expect(WeightedMedian.median([Entry(1), Entry(5, weight: 1.01)]) == 5)
        #expect(WeightedMedian.median([Entry(1, weight: 0.5), Entry(2, weight: 0.5), Entry(9, weight: 3)]) == 9)
        // Running 1, 2, 5 against 2.5.
        #expect(WeightedMedian.median([Entry(10, weight: 3), Entry(2), Entry(1)]) == 10)
    }

    @Test func zeroWeightsAreIgnored() {
        #expect(WeightedMedian.median([Entry(1, weight: 0), Entry(5)]) == 5)
        #expect(WeightedMedian.median([Entry(1, weight: 0)]) == nil)
    }

    @Test func weightTwoEqualsListingTwice() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<300 {
            let values = (0..<Int.random(in: 1...7, using: &generator)).map { _ in Double(Int.random(in: -20...20, using: &generator)) / 2 }
            let doubled = Int.random(in: 0..<values.count, using: &generator)
            let weighted = values.enumerated().map { Entry($1, weight: $0 == doubled ? 2 : 1) }
            let listed = values.map { Entry($0) } + [Entry(values[doubled])]
            #expect(WeightedMedian.median(weighted) == WeightedMedian.median(listed), "\(values), doubled \(doubled)")
            #expect(WeightedMedian.absoluteDeviation(weighted, from: 1.5) == WeightedMedian.absoluteDeviation(listed, from: 1.5))
        }
    }

    /// Deviations of 1, 2, 3, 4, 100 from 3 are 2, 1, 0, 1, 97: sorted 0, 1, 1, 2, 97, median 1.
    @Test func medianAbsoluteDeviation() {
        let entries = [1.0, 2, 3, 4, 100].map { Entry($0) }
        #expect(WeightedMedian.absoluteDeviation(entries, from: 3) == 1)
        #expect(WeightedMedian.absoluteDeviation([Entry(7)], from: 7) == 0)
    }
}
