import Foundation
@testable import IsobarCLI
import IsobarCore
import IsobarEngine
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
                == "The providers differ: Alpha 1, Beta 1.2 and Gamma minus 6; Gamma left out as an outlier.")
        let apart = Self.field([("a", 1, false), ("b", 4.5, false)], disagreement: Disagreement(difference: 3.5, floor: 2, exceedsFloor: true))
        #expect(sentences.agreement(apart, .temperature) == "The providers disagree by 3.5 degrees: Alpha 1 and Beta 4.5.")
    }

    @Test func oneProviderOrNoneIsSaid() {
        let sentences = Self.sentences()
        #expect(sentences.agreement(Self.field([("b", 2, false)]), .temperature) == "From one provider, Beta.")
        #expect(sentences.agreement(nil, .temperature) == "No provider gave a temperature.")
    }
}
