import IsobarCore
@testable import IsobarConsensus
import Testing

/// The merge's dense slots and the verification's tolerances come from the quantity table.
@Suite("Quantities: slots and tolerances from the table")
struct QuantitySlotTests {
    @Test("each quantity's slot is its index in allCases, so that a quantity added to the table cannot share one")
    func slots() {
        for (index, quantity) in Quantity.allCases.enumerated() { #expect(quantity.consensusSlot == index, "\(quantity)") }
        #expect(QuantitySlot.all == Quantity.allCases && QuantitySlot.count == Quantity.allCases.count)
    }

    @Test("the verification's hit tolerance of a field is its quantity's, 2 for a field without one")
    func hitTolerances() {
        #expect(Verification.Rules(field: "temperature").hitTolerance == 2)
        #expect(Verification.Rules(field: "visibility").hitTolerance == 2_000)
        #expect(Verification.Rules(field: "cloud_cover").hitTolerance == 20)
        #expect(Verification.Rules(field: "uv_index").hitTolerance == 2)
        #expect(Verification.Rules(field: "no_such_field").hitTolerance == 2)
        for quantity in Quantity.allCases {
            #expect(Verification.Rules(field: quantity.rawValue).hitTolerance == quantity.spec.hitTolerance ?? 2, "\(quantity)")
        }
    }

    @Test("an index names its scale in its spec, and every unit system shows that name")
    func indexSymbols() {
        for quantity in Quantity.allCases where quantity.dimension == .index {
            let scale = quantity.spec.unitSymbol
            #expect(scale != nil, "\(quantity) names no scale")
            for units in UnitSystem.allCases { #expect(units.symbol(for: quantity) == scale) }
        }
        for quantity in DailyQuantity.allCases where quantity.dimension == .index {
            #expect(quantity.spec.unitSymbol != nil, "\(quantity) names no scale")
        }
        #expect(UnitSystem.imperial.symbol(for: Quantity.uvIndex) == "UVI" && UnitSystem.metric.symbol(for: DailyQuantity.uvIndexMax) == "UVI")
        #expect(UnitSystem.imperial.symbol(for: Quantity.temperature) == "°F")
    }
}
