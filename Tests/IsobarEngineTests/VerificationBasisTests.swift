import FoundationEssentials
import IsobarConsensus
import IsobarEngine
import Testing

@Suite struct VerificationBasisTests {
    let start = Date(timeIntervalSince1970: 1_795_856_400)
    let place = "53.9,27.57"

    func hours(_ count: Double) -> Date { start.addingTimeInterval(count * 3_600) }

    func forecast(_ provider: String, issued: Double, valid: Double, _ value: Double) -> Verification.Forecast {
        .init(provider: provider, place: place, issuedAt: hours(issued), validAt: hours(valid), value: value)
    }

    @Test func brierScoresAreTheMeanSquaredDifferenceOfChanceAndOutcome() {
        // Rain at hours 1 and 2, dry at 3 and 4.
        let observations = [(1.0, 1.0), (2, 1), (3, 0), (4, 0)].map { Verification.Observation(place: place, time: hours($0.0), value: $0.1) }
        let forecasts = [forecast("a", issued: 0, valid: 1, 80), forecast("a", issued: 0, valid: 2, 60),
                         forecast("a", issued: 0, valid: 3, 30), forecast("a", issued: 0, valid: 4, 0),
                         forecast("b", issued: 0, valid: 1, 50), forecast("b", issued: 0, valid: 2, 50),
                         forecast("b", issued: 0, valid: 3, 50), forecast("b", issued: 0, valid: 4, 150)]
        var rules = Verification.Rules(field: "precipitation_probability")
        rules.halfLifeDays = 0
        let scores = Verification.brierScores(field: "precipitation_probability", forecasts: forecasts, observations: observations,
                                              now: hours(4), rules: rules)
        let a = scores[ScoreKey(provider: "a", field: "precipitation_probability", bucket: .hours0to6)]
        // ((0.8−1)² + (0.6−1)² + (0.3−0)² + (0−0)²) ÷ 4 = (0.04 + 0.16 + 0.09 + 0) ÷ 4 = 0.0725
        #expect(abs((a?.brierScore ?? 9) - 0.0725) < 1e-12)
        #expect(a?.count == 4 && a?.baseRate == 0.5)
        // Against always saying the base rate (0.5 × 0.5 = 0.25): 1 − 0.0725 ÷ 0.25 = 0.71.
        #expect(abs((a?.brierSkill ?? 9) - 0.71) < 1e-12)
        // A chance beyond 100 % counts as 100 %: (0.25 + 0.25 + 0.25 + 1) ÷ 4 = 0.4375, worse than the base rate.
        let b = scores[ScoreKey(provider: "b", field: "precipitation_probability", bucket: .hours0to6)]
        #expect(abs((b?.brierScore ?? 9) - 0.4375) < 1e-12 && (b?.brierSkill ?? 1) < 0)
    }

    @Test func brierSumsAddAndHaveNoSkillWithoutBothOutcomes() {
        var wet = BrierSums()
        wet.add(probability: 0.9, occurred: true, weight: 1)
        #expect(wet.brierSkill == nil && abs((wet.brierScore ?? 9) - 0.01) < 1e-12)
        var dry = BrierSums()
        dry.add(probability: 0.2, occurred: false, weight: 3)
        dry.add(probability: .nan, occurred: false, weight: 1)
        dry.add(probability: 0.5, occurred: false, weight: 0)
        let both = wet + dry
        // (1 × 0.01 + 3 × 0.04) ÷ 4 = 0.0325; the base rate 1 ÷ 4.
        #expect(both.count == 2 && both.weight == 4 && abs((both.brierScore ?? 9) - 0.0325) < 1e-12 && both.baseRate == 0.25)
        #expect(BrierSums().brierScore == nil && BrierSums().brierSkill == nil)
    }

    @Test func proxyObservationsAreScoredApartFromStationReports() {
        // The station reads 0 °C at hour 3; the provider's own current read 1 °C at hour 3.
        let observations = [Verification.Observation(place: place, time: hours(3), value: 0),
                            Verification.Observation(place: place, time: hours(3), value: 1, basis: .proxy(provider: "open-meteo"))]
        let forecasts = [forecast("open-meteo", issued: 0, valid: 3, 1.5), forecast("other", issued: 0, valid: 3, 3)]
        let scores = Verification.scores(field: "temperature", forecasts: forecasts, observations: observations, now: hours(3),
                                         rules: .init(field: "temperature"))
        #expect(scores.count == 4)
        #expect(scores[ScoreKey(provider: "open-meteo", field: "temperature", bucket: .hours0to6)]?.meanAbsoluteError == 1.5)
        let proxy = ObservationBasis.proxy(provider: "open-meteo")
        #expect(scores[ScoreKey(provider: "open-meteo", field: "temperature", bucket: .hours0to6, basis: proxy)]?.meanAbsoluteError == 0.5)
        #expect(scores[ScoreKey(provider: "other", field: "temperature", bucket: .hours0to6, basis: proxy)]?.bias == 2)
        // Each pair is counted once per basis, never averaged across them.
        #expect(scores.values.allSatisfy { $0.count == 1 })
        // Real observations sort before proxies of the same field and provider.
        #expect(ScoreKey(provider: "z", field: "temperature", bucket: .days7to16) < ScoreKey(provider: "a", field: "temperature", bucket: .hours0to6, basis: proxy))
    }

    @Test func basesAreWrittenAndReadBack() {
        #expect(ObservationBasis.metar.id == "metar" && !ObservationBasis.metar.isProxy)
        #expect(ObservationBasis.proxy(provider: "met-norway").id == "proxy:met-norway")
        #expect(ObservationBasis(id: "proxy:met-norway") == .proxy(provider: "met-norway") && ObservationBasis(id: "metar") == .metar)
    }
}
