import IsobarConsensus
#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import IsobarEngine
import IsobarTestKit
import Testing

@Suite struct VerificationTests {
    let start = Date(timeIntervalSince1970: 1_795_856_400)

    func hours(_ count: Double) -> Date { start.addingTimeInterval(count * 3_600) }

    /// Hourly observations of a truth over `days` days.
    func truth(days: Int, _ value: (Int) -> Double) -> [Verification.Observation] {
        (0..<(days * 24)).map { Verification.Observation(place: "53.9,27.57", time: hours(Double($0)), value: value($0)) }
    }

    @Test func leadTimesFallInTheirBuckets() {
        #expect(LeadBucket(leadHours: 0) == .hours0to6 && LeadBucket(leadHours: 5.9) == .hours0to6)
        #expect(LeadBucket(leadHours: 6) == .hours6to24 && LeadBucket(leadHours: 24) == .days1to3)
        #expect(LeadBucket(leadHours: 71.9) == .days1to3 && LeadBucket(leadHours: 72) == .days3to7 && LeadBucket(leadHours: 384) == .days7to16)
        #expect(LeadBucket(leadHours: -1) == nil && LeadBucket(leadHours: 385) == nil)
    }

    @Test func aBiasedProviderHasItsBiasAndAnHonestOneNone() {
        var generator = SeededGenerator(seed: 7)
        let observations = truth(days: 10) { -5 + 3 * sin(Double($0) / 24 * 2 * .pi) }
        var forecasts: [Verification.Forecast] = []
        for issue in stride(from: 0, to: 9 * 24, by: 6) {
            for lead in 1...12 {
                let truthValue = observations[issue + lead].value
                let noise = Double.random(in: -1...1, using: &generator)
                forecasts.append(.init(provider: "honest", place: "53.9,27.57", issuedAt: hours(Double(issue)), validAt: hours(Double(issue + lead)),
                                       value: truthValue + noise))
                forecasts.append(.init(provider: "warm", place: "53.9,27.57", issuedAt: hours(Double(issue)), validAt: hours(Double(issue + lead)),
                                       value: truthValue + 3 + noise / 2))
            }
        }
        let scores = Verification.scores(field: "temperature", forecasts: forecasts, observations: observations, now: hours(240),
                                         rules: .init(field: "temperature"))
        let warm = scores[ScoreKey(provider: "warm", field: "temperature", bucket: .hours0to6)]
        let honest = scores[ScoreKey(provider: "honest", field: "temperature", bucket: .hours0to6)]
        #expect(abs((warm?.bias ?? 0) - 3) < 0.1)
        #expect(abs(honest?.bias ?? 9) < 0.2)
        #expect((honest?.meanAbsoluteError ?? 9) < 0.6 && (warm?.hitRate ?? 1) < 0.2 && (honest?.hitRate ?? 0) == 1)
        #expect(honest?.count == 36 * 5 && scores[ScoreKey(provider: "warm", field: "temperature", bucket: .hours6to24)]?.count == 36 * 7)
        // Persistence (the temperature at issue time) is beaten by the honest provider, not by the biased one.
        #expect((honest?.skillAgainstPersistence ?? -1) > 0.3)
        #expect((warm?.skillAgainstPersistence ?? 1) < 0)
    }

    @Test func recentPairsCountMoreAndPairsNeedAnObservationNearby() {
        let observations = [Verification.Observation(place: "p", time: hours(0), value: 0),
                            Verification.Observation(place: "p", time: hours(24 * 14), value: 0)]
        let forecasts = [
            Verification.Forecast(provider: "a", place: "p", issuedAt: hours(-2), validAt: hours(0), value: 4),
            Verification.Forecast(provider: "a", place: "p", issuedAt: hours(24 * 14 - 2), validAt: hours(24 * 14), value: 1),
            // 40 minutes from any observation: not paired.
            Verification.Forecast(provider: "a", place: "p", issuedAt: hours(-2), validAt: hours(24 * 14).addingTimeInterval(2_400), value: 50),
            // Another place: not paired.
            Verification.Forecast(provider: "a", place: "q", issuedAt: hours(-2), validAt: hours(0), value: 50),
        ]
        let sums = Verification.scores(field: "temperature", forecasts: forecasts, observations: observations, now: hours(24 * 14),
                                       rules: .init(field: "temperature"))
        let key = ScoreKey(provider: "a", field: "temperature", bucket: .hours0to6)
        let found = sums[key]
        #expect(sums.count == 1 && found?.count == 2)
        // Weights 0.5 (14 days old) and 1: MAE (0.5·4 + 1·1) / 1.5 = 2.
        #expect(abs((found?.meanAbsoluteError ?? 0) - 2) < 1e-12)
        #expect(abs((found?.rootMeanSquareError ?? 0) - ((0.5 * 16 + 1) / 1.5).squareRoot()) < 1e-12)
        #expect(found?.skillAgainstPersistence == nil)
    }

    @Test func sumsFromTwoArchivesAddUp() {
        var first = ErrorSums(), second = ErrorSums(), both = ErrorSums()
        for (index, error) in [1.0, -2, 0.5, 3].enumerated() {
            if index < 2 { first.add(error: error, weight: 1, hitTolerance: 2) } else { second.add(error: error, weight: 1, hitTolerance: 2) }
            both.add(error: error, weight: 1, hitTolerance: 2)
        }
        #expect(first + second == both)
        #expect(both.bias == 0.625 && both.meanAbsoluteError == 1.625 && both.hitRate == 0.75)
        var empty = ErrorSums()
        empty.add(error: .nan, weight: 1, hitTolerance: 2)
        empty.add(error: 1, weight: 0, hitTolerance: 2)
        #expect(empty.count == 0 && empty.bias == nil && empty.meanAbsoluteError == nil)
    }
}
