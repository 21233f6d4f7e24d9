import Foundation
@testable import IsobarCLI
@testable import IsobarConsensus
import IsobarCore
import IsobarEngine
@testable import IsobarRender
import Testing

@Suite struct PlainAgreementTests {
    static let place = Place(name: "Minsk", adminArea: "Minsk City", countryCode: "BY", coordinate: Coordinate(latitude: 53.9, longitude: 27.57)!)

    static func sentences(_ units: UnitSystem = .metric) -> PlainSentences {
        let context = RenderContext(view: .now, place: place, units: units, providers: [("a", "Alpha"), ("b", "Beta"), ("c", "Gamma")],
                                    color: false, now: Date(timeIntervalSince1970: 1_795_867_200))
        let consensus = ConsensusResult(place: place, providers: ["a", "b", "c"], weights: [:], referenceTime: context.now, zone: .fixedOffset(seconds: 0),
                                        current: nil, hourly: [], daily: [])
        return PlainSentences(context: context, consensus: consensus)
    }

    static func field(_ values: [(String, Double, Bool)], disagreement: Disagreement? = nil) -> MergedField {
        let numbers = values.map(\.1)
        return MergedField(value: numbers.sorted()[numbers.count / 2], min: numbers.min()!, max: numbers.max()!,
                           spread: numbers.max()! - numbers.min()!, medianAbsoluteDeviation: 0,
                           inputs: values.map { ProviderValue(provider: $0.0, value: $0.1, isOutlier: $0.2) }, disagreement: disagreement,
                           confidence: 0.5)
    }

    @Test func closeProvidersAgreeWithinTheSpreadRoundedUp() {
        let sentences = Self.sentences()
        #expect(sentences.agreement(Self.field([("a", 0.04, false), ("b", -0.9, false)]), .temperature) == "The 2 providers agree within 1 degree.")
        #expect(sentences.agreement(Self.field([("a", 1, false), ("b", 1, false)]), .temperature) == "The 2 providers agree.")
        #expect(Self.sentences(.imperial).agreement(Self.field([("a", 0, false), ("b", 1, false)]), .temperature)
                == "The 2 providers agree within 2 degrees.", "1 °C apart is 1.8 °F")
    }

    @Test func outliersAndDisagreementsAreSaidWithEachValue() {
        let sentences = Self.sentences()
        let outlier = Self.field([("a", 1, false), ("b", 1.2, false), ("c", -6, true)])
        #expect(sentences.agreement(outlier, .temperature)
                == "The providers differ: Alpha 1, Beta 1.2 and Gamma minus 6; Gamma left out as an outlier, the other 2 agree within 1 degree.")
        let apart = Self.field([("a", 1, false), ("b", 4.5, false)], disagreement: Disagreement(difference: 3.5, floor: 2, exceedsFloor: true))
        #expect(sentences.agreement(apart, .temperature) == "The providers disagree by 3.5 degrees: Alpha 1 and Beta 4.5.")
    }

    @Test func oneProviderOrNoneIsSaid() {
        let sentences = Self.sentences()
        #expect(sentences.agreement(Self.field([("b", 2, false)]), .temperature) == "From one provider, Beta.")
        #expect(sentences.agreement(nil, .temperature) == "No provider gave a temperature.")
    }
}

/// The 80 % interval said in words, and spreads that count only the values that made the consensus.
@Suite struct PlainIntervalTests {
    static let place = PlainAgreementTests.place
    static let now = Date(timeIntervalSince1970: 1_795_867_200)

    /// A field with an 80 % interval from `basis`.
    static func field(_ values: [(String, Double, Bool)], low: Double, high: Double, basis: IntervalBasis) -> MergedField {
        var field = PlainAgreementTests.field(values)
        field.learned = LearnedField(low: low, high: high, basis: basis, weighting: .equalTooLittleHistory, weights: [:], corrections: [:])
        return field
    }

    /// Sentences of `view` over a consensus whose current temperature is `temperature`.
    static func sentences(_ view: View, _ units: UnitSystem = .metric, temperature: MergedField?, daily: [ConsensusDayV1] = [],
                          hourly: [ConsensusHour] = []) -> PlainSentences {
        let context = RenderContext(view: view, place: place, units: units, providers: [("a", "Alpha"), ("b", "Beta"), ("c", "Gamma")],
                                    color: false, now: now)
        let current = ConsensusHour(time: now, utcOffsetSeconds: 0, leadHours: 0, values: temperature.map { [.temperature: $0] } ?? [:],
                                    condition: nil, confidence: 0.5)
        let consensus = ConsensusResult(place: place, providers: ["a", "b", "c"], weights: [:], referenceTime: now, zone: .fixedOffset(seconds: 0),
                                        current: current, hourly: hourly, daily: daily)
        return PlainSentences(context: context, consensus: consensus)
    }

    @Test func anIntervalAcrossZeroSaysMinusAndPlus() {
        #expect(PlainWords.likely(-1.54, 1.26, .temperature, .metric, withUnit: true) == "likely between minus 1.5 and plus 1.3 degrees Celsius")
        #expect(PlainWords.likely(2, 4.5, .temperature, .metric, withUnit: false) == "likely between 2 and 4.5")
        #expect(PlainWords.likely(-4, -1, .temperature, .metric, withUnit: false) == "likely between minus 4 and minus 1")
        #expect(PlainWords.likely(-1, 0.01, .temperature, .metric, withUnit: false) == "likely between minus 1 and 0", "never plus 0")
        #expect(PlainWords.likely(0.21, 0.24, .index, .metric, withUnit: false) == "likely 0.2")
        #expect(PlainWords.likely(-3, -1, .temperature, .metric, withUnit: true) == "likely between minus 3 and minus 1 degree Celsius")
        #expect(PlainWords.measure(-1, .temperature, .metric) == "minus 1 degree Celsius")
        // −1.5 °C … 1.3 °C is 29.3 °F … 34.3 °F: no minus, no plus.
        #expect(PlainWords.likely(-1.5, 1.3, .temperature, .imperial, withUnit: true) == "likely between 29.3 and 34.3 degrees Fahrenheit")
        #expect(PlainWords.basis([.record]) == "from the record of past forecasts")
        #expect(PlainWords.basis([.spread]) == "from the providers' spread")
        #expect(PlainWords.basis([.record, .spread]).hasPrefix("from the record of past forecasts, or"))
    }

    @Test func nowSaysTheTemperaturesIntervalAndWhereItComesFrom() {
        let temperature = Self.field([("a", -0.5, false), ("b", 0.5, false), ("c", 0, false)], low: -1.54, high: 1.26, basis: .record)
        let text = Self.sentences(.now, temperature: temperature).now()
        #expect(text.contains("\nThe temperature is likely between minus 1.5 and plus 1.3 degrees Celsius "
            + "(an 80 percent interval, from the record of past forecasts).\n"), "\(text)")
        let imperial = Self.sentences(.now, .imperial, temperature: temperature).now()
        #expect(imperial.contains("The temperature is likely between 29.2 and 34.3 degrees Fahrenheit (an 80 percent interval, "), "\(imperial)")
        // Without learned weights there is no interval, and nothing is said of one.
        let plain = Self.sentences(.now, temperature: PlainAgreementTests.field([("a", -0.5, false), ("b", 0.5, false)])).now()
        #expect(!plain.contains("likely") && !plain.contains("interval"), "\(plain)")
    }

    @Test func compareSaysTheIntervalAndASpreadWithoutTheOutlier() {
        let temperature = Self.field([("a", 0, false), ("b", -1.6, false), ("c", 2.9, true)], low: -2, high: 1, basis: .spread)
        let text = Self.sentences(.compare, temperature: temperature).compare()
        #expect(text.contains("Temperature: 0 degrees Celsius, likely between minus 2 and plus 1 (an 80 percent interval, from the providers' spread); "
            + "Alpha 0, Beta minus 1.6 and Gamma 2.9; spread 1.6 degrees without Gamma, left out as an outlier (4.5 with it).\n"), "\(text)")
        let agreeing = Self.sentences(.compare, temperature: PlainAgreementTests.field([("a", 0, false), ("b", -1.6, false), ("c", -1, false)]))
            .compare()
        #expect(agreeing.contains("Temperature: minus 1 degree Celsius; Alpha 0, Beta minus 1.6 and Gamma minus 1; spread 1.6 degrees.\n"),
                "\(agreeing)")
    }

    @Test func forecastDaysSayTheIntervalInsteadOfTheRangeAndTheOutliersLeftOut() {
        let date = LocalDate(Self.now, utcOffsetSeconds: 0)
        func day(_ maximum: MergedField) -> ConsensusDayV1 {
            ConsensusDayV1(date: date, start: Self.now, end: Self.now.addingTimeInterval(86_400), utcOffsetSeconds: 0, leadHours: 0,
                           values: [.temperatureMax: maximum], condition: nil, confidence: 0.5)
        }
        let values = [("a", -0.6, false), ("b", 1.2, false), ("c", 0.5, false), ("d", 3.8, true)]
        let window = ForecastWindow(reports: [], now: Self.now, days: 1)
        let ranged = Self.sentences(.forecast(days: 1, hourly: false), temperature: nil, daily: [day(PlainAgreementTests.field(values))])
            .forecast(window: window, days: 1, hourly: false)
        #expect(ranged.contains("high 1.2 degrees Celsius (providers from minus 0.6 to 1.2; an outlier at 3.8 left out)"), "\(ranged)")
        #expect(!ranged.contains("intervals") && !ranged.contains("likely"), "\(ranged)")
        let likely = Self.sentences(.forecast(days: 1, hourly: false), temperature: nil,
                                    daily: [day(Self.field(values, low: -1.5, high: 2.5, basis: .spread))])
            .forecast(window: window, days: 1, hourly: false)
        #expect(likely.contains("high 1.2 degrees Celsius (likely between minus 1.5 and plus 2.5; an outlier at 3.8 left out)"), "\(likely)")
        #expect(likely.contains(", with 80 percent intervals from the providers' spread:\n"), "\(likely)")
    }
}
