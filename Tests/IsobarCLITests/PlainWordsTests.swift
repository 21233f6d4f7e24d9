import Foundation
@testable import IsobarCLI
import IsobarCore
import IsobarEngine
import Testing

@Suite struct PlainUnitTests {
    @Test(arguments: UnitSystem.allCases)
    func everyUnitOfEverySystemIsSpelledOut(_ units: UnitSystem) {
        for dimension in Dimension.allCases {
            let many = PlainWords.unit(dimension, units)
            #expect(many != units.symbol(dimension) && many.allSatisfy { $0.isLetter || $0 == " " }, "\(units) \(dimension): \(many)")
        }
    }
}
