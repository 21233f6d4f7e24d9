import Foundation
@testable import IsobarCLI
import IsobarCore
import IsobarEngine
@testable import IsobarRender
import Testing

@Suite struct PlainWordsTests {
    @Test func numbersAreSpokenWithMinusAndWithoutTrailingZeros() {
        #expect(PlainWords.spoken(-0.43, decimals: 1) == "minus 0.4")
        #expect(PlainWords.spoken(3.0, decimals: 1) == "3")
        #expect(PlainWords.spoken(-0.04, decimals: 1) == "0", "never minus 0")
        #expect(PlainWords.spoken(0.125, decimals: 2) == "0.13")
        #expect(PlainWords.spoken(1020.8, decimals: 1) == "1020.8")
        #expect(PlainWords.spoken(.nan, decimals: 1) == "–")
    }

    @Test func unitsAreSpelledOutInEverySystem() {
        #expect(PlainWords.measure(-0.43, .temperature, .metric) == "minus 0.4 degrees Celsius")
        #expect(PlainWords.measure(-17.78, .temperature, .imperial) == "0 degrees Fahrenheit")
        #expect(PlainWords.measure(0, .temperature, .standard) == "273.1 kelvin" || PlainWords.measure(0, .temperature, .standard) == "273.2 kelvin")
        #expect(PlainWords.measure(1, .speed, .metric) == "1 metre per second", "singular for one")
        #expect(PlainWords.measure(4.4704, .speed, .imperial) == "10 miles per hour")
        #expect(PlainWords.measure(1609.344, .distance, .imperial) == "1 mile")
        #expect(PlainWords.measure(25.4, .precipitationAmount, .imperial) == "1 inch")
        #expect(PlainWords.measure(2, .precipitationRate, .metric) == "2 millimetres per hour")
        #expect(PlainWords.measure(33.8639, .pressure, .imperial) == "1 inch of mercury")
        #expect(PlainWords.measure(50, .percent, .metric) == "50 percent")
        #expect(PlainWords.differenceUnit(.temperature, .imperial, singular: false) == "degrees")
    }

    @Test func directionsDatesAndListsAreWords() {
        #expect(PlainWords.direction(227) == "the south-west")
        #expect(PlainWords.direction(0) == "the north")
        #expect(PlainWords.direction(-90) == "the west")
        #expect(PlainWords.day(LocalDate(year: 2026, month: 11, day: 28)!) == "Saturday 28 November")
        #expect(PlainWords.list([]) == "")
        #expect(PlainWords.list(["a"]) == "a")
        #expect(PlainWords.list(["a", "b", "c"]) == "a, b and c")
    }

    @Test(arguments: UnitSystem.allCases)
    func everyUnitOfEverySystemIsSpelledOut(_ units: UnitSystem) {
        for dimension in Dimension.allCases {
            let many = PlainWords.unit(dimension, units)
            #expect(many != units.symbol(dimension) && many.allSatisfy { $0.isLetter || $0 == " " }, "\(units) \(dimension): \(many)")
        }
    }
}
