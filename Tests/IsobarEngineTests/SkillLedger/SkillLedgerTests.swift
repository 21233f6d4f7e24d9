import Foundation
@testable import IsobarConsensus
import IsobarCore
@testable import IsobarEngine
import IsobarTestKit
import Testing

@Suite("Skill ledger")
struct SkillLedgerTests {
    @Test func anErrorTooLargeForAnIntegerLandsInAnEndBin() {
        let histogram = ErrorHistogram(floor: 2)
        #expect(histogram.bin(error: 9.97e36) == ErrorHistogram.bins - 1)
        #expect(histogram.bin(error: -1e300) == 0)
        #expect(histogram.bin(spread: 1e300) == ErrorHistogram.bins - 1)
        #expect(histogram.bin(error: 0.1) == ErrorHistogram.bins / 2)
    }

    static let halfLife = SkillLedger.halfLife

    @Test func aTermHalvesEveryHalfLifeWhateverTheOrderItWasAddedIn() {
        var forward = DecayedSums(size: 1)
        var backward = DecayedSums(size: 1)
        let times = [0.0, Self.halfLife, 2 * Self.halfLife]
        for time in times { forward.values[0] += forward.weight(at: time, halfLife: Self.halfLife) }
        for time in times.reversed() { backward.values[0] += backward.weight(at: time, halfLife: Self.halfLife) }
        // As of the last instant: 1 + ½ + ¼.
        #expect(abs(forward.values[0] - 1.75) < 1e-12 && abs(backward.values[0] - 1.75) < 1e-12)
        #expect(forward.asOf == 2 * Self.halfLife && backward.asOf == forward.asOf && forward.count == 3)
        // Read one half-life later, everything weighs half as much.
        #expect(abs(forward.values[0] * forward.factor(at: 3 * Self.halfLife, halfLife: Self.halfLife) - 0.875) < 1e-12)
    }

    @Test func sumsMergeAsIfTheyHadBeenAddedTogether() {
        var a = DecayedSums(size: 1), b = DecayedSums(size: 1), both = DecayedSums(size: 1)
        for time: Double in [0, 86_400] {
            a.values[0] += a.weight(at: time, halfLife: Self.halfLife)
            both.values[0] += both.weight(at: time, halfLife: Self.halfLife)
        }
        for time: Double in [43_200, 5 * 86_400] {
            b.values[0] += b.weight(at: time, halfLife: Self.halfLife)
            both.values[0] += both.weight(at: time, halfLife: Self.halfLife)
        }
        let merged = a.merged(with: b, halfLife: Self.halfLife)
        #expect(abs(merged.values[0] - both.values[0]) < 1e-12 && merged.asOf == both.asOf && merged.count == 4)
        #expect(DecayedSums(size: 1).merged(with: a, halfLife: Self.halfLife) == a)
    }

    @Test func histogramQuantilesComeWithinABinOfTheExactOnes() {
        let histogram = ErrorHistogram(floor: 2)
        #expect(histogram.width == 0.25)
        var random = SeededGenerator(seed: 11)
        var counts = [Double](repeating: 0, count: ErrorHistogram.bins)
        var errors: [Double] = []
        for _ in 0..<5_000 {
            let error = random.normal(sigma: 1.5) + 0.4
            errors.append(error)
            counts[histogram.bin(error: error)] += 1
        }
        errors.sort()
        for q in [0.1, 0.5, 0.9] {
            let exact = errors[Int(q * Double(errors.count))]
            #expect(abs(histogram.errorQuantile(counts[...], q)! - exact) <= histogram.width, "q \(q)")
        }
        let mean = errors.reduce(0, +) / Double(errors.count)
        let deviation = errors.map { abs($0 - mean) }.reduce(0, +) / Double(errors.count)
        #expect(abs(histogram.meanAbsoluteDeviation(counts[...], from: mean)! - deviation) < 0.05)
        // Errors beyond the ends fall in the end bins; an empty histogram has no quantile.
        #expect(histogram.bin(error: 1e9) == ErrorHistogram.bins - 1 && histogram.bin(error: -1e9) == 0)
        #expect(histogram.bin(spread: -1) == 0 && histogram.bin(spread: 1e9) == ErrorHistogram.bins - 1)
        #expect(histogram.errorQuantile([Double](repeating: 0, count: ErrorHistogram.bins)[...], 0.5) == nil)
    }

    /// Cases of two sources for one place, the second 2 °C warm, a case an hour.
    static func cases(hours: Range<Int>, place: String = "p") -> [(SkillGroupKey, SkillCase)] {
        var random = SeededGenerator(seed: UInt64(hours.lowerBound + 1))
        return hours.map { hour in
            let truth = 5 + 5 * sin(Double(hour) / 4)
            let key = SkillGroupKey(basis: "metar", place: place, field: "temperature", bucket: .hours6to24)
            return (key, SkillCase(validAt: Double(hour) * 3_600, truth: truth, atIssue: truth + 1,
                                   values: [("a", truth + random.normal(sigma: 0.5)), ("warm", truth + 2 + random.normal(sigma: 1))]))
        }
    }

    @Test func valuesOutsideTheQuantitysPhysicalRangeNeverEnterTheSums() throws {
        let key = SkillGroupKey(basis: "metar", place: "p", field: "temperature", bucket: .hours6to24)
        var folder = SkillFolder()
        folder.fold(SkillCase(validAt: 0, truth: 5, atIssue: 9.97e36, values: [("a", 5.5), ("fill", 9.97e36), ("kelvin", 278)]), into: key)
        let group = try #require(folder.ledger.groups[key])
        #expect(Set(group.sources.keys) == ["a"], "only the plausible forecast is scored")
        #expect(group.pairs.isEmpty)
        let a = try #require(group.sources["a"])
        #expect(abs(a.values[SkillLayout.sum] - 0.5) < 1e-9)
        #expect(a.values[SkillLayout.persistence] == 0, "an absurd value at issue time is no persistence forecast")
        // An absurd observation (a unit mix-up) is no truth: nothing of the case is kept.
        folder.fold(SkillCase(validAt: 3_600, truth: 278.15, atIssue: nil, values: [("a", 5)]), into: key)
        #expect(folder.ledger.groups[key]?.sources["a"]?.values[SkillLayout.weight] == a.values[SkillLayout.weight])
        // Nothing plausible at all: no group is made.
        let other = SkillGroupKey(basis: "metar", place: "q", field: "temperature", bucket: .hours6to24)
        folder.fold(SkillCase(validAt: 0, truth: 5, atIssue: nil, values: [("fill", -9999)]), into: other)
        #expect(folder.ledger.groups[other] == nil)
    }

    @Test func foldingLearnsWeightsBiasAndOutOfSampleQuantiles() throws {
        var folder = SkillFolder()
        for (key, item) in Self.cases(hours: 0..<200) { folder.fold(item, into: key) }
        let group = try #require(folder.ledger.groups.values.first)
        #expect(group.sources.count == 2 && group.pairs.count == 1)
        // The consensus is scored only once the group had learned enough, never from the case itself.
        let consensus = try #require(group.consensus)
        #expect(consensus.count > 150 && consensus.count < 200)
        let record = folder.ledger.record(near: nil, now: Date(timeIntervalSince1970: 200 * 3_600), settings: ConsensusLearning(biasCorrection: true))
        let skill = try #require(record.fields[SkillKey(.temperature, .hours6to24)])
        #expect(skill.isLearned && abs(skill.corrections["warm"]! - 2) < 0.2 && skill.weights["a"]! > skill.weights["warm"]!)
        let quantiles = try #require(skill.quantiles)
        #expect(quantiles.low < 0 && quantiles.high > 0 && quantiles.high - quantiles.low < 2)
        // Persistence (1 °C off every time) is beaten by the good source.
        let scores = folder.ledger.errorScores(field: "temperature", near: nil, now: Date(timeIntervalSince1970: 200 * 3_600))
        let a = try #require(scores[ScoreKey(provider: "a", field: "temperature", bucket: .hours6to24)])
        #expect(a.count == 200 && a.skillAgainstPersistence! > 0.3 && a.hitRate! > 0.95)
    }

    @Test func twoPlacesFoldedApartMergeIntoTheLedgerOfBoth() {
        var first = SkillFolder(), second = SkillFolder(), both = SkillFolder()
        for (key, item) in Self.cases(hours: 0..<60, place: "p") {
            first.fold(item, into: key)
            both.fold(item, into: key)
        }
        for (key, item) in Self.cases(hours: 30..<90, place: "q") {
            second.fold(item, into: key)
            both.fold(item, into: key)
        }
        #expect(first.ledger.merged(with: second.ledger) == both.ledger)
        // Read for every place, the groups of both places add up.
        let now = Date(timeIntervalSince1970: 90 * 3_600)
        let all = both.ledger.errorScores(field: "temperature", near: nil, now: now)
        let onlyP = both.ledger.errorScores(field: "temperature", near: "p", now: now)
        #expect(all.values.map(\.count).reduce(0, +) == 240 && onlyP.values.map(\.count).reduce(0, +) == 120)
    }

    @Test func realObservationsAreLearnedFromBeforeProxies() throws {
        var folder = SkillFolder()
        for (key, item) in Self.cases(hours: 0..<60) {
            folder.fold(item, into: key)
            var proxy = key
            proxy.basis = "proxy:a"
            var shifted = item
            shifted.truth += 10
            for _ in 0..<2 { folder.fold(shifted, into: proxy) }
        }
        let record = folder.ledger.record(near: nil, now: Date(timeIntervalSince1970: 60 * 3_600), settings: ConsensusLearning(biasCorrection: true))
        let skill = try #require(record.fields[SkillKey(.temperature, .hours6to24)])
        #expect(abs(skill.corrections["warm"]! - 2) < 0.3)
    }
}
