import Foundation
@testable import IsobarCLI
import IsobarCore
import IsobarEngine
@testable import IsobarRender
import Testing

@Suite struct ChartTimeAxisTests {
    @Test func labelsThatWouldTouchAreLeftOut() {
        #expect(ChartTimeAxis.place([(1, "00"), (4, "03"), (5, "06")], limit: 40) == " 00 03")
        #expect(ChartTimeAxis.place([], limit: 40) == "")
        #expect(ChartTimeAxis.place([(0, "18"), (30, "Mon 30")], limit: 34) == "18", "nothing past the last column")
    }

    @Test func aCrowdedFirstDayKeepsItsWeekdayOrGivesWay() {
        #expect(ChartTimeAxis.place([(0, "Sat 28"), (8, "Sun 29")], limit: 40) == "Sat 28  Sun 29")
        #expect(ChartTimeAxis.place([(0, "Sat 28"), (6, "Sun 29")], limit: 40) == "Sat   Sun 29")
        #expect(ChartTimeAxis.place([(0, "Sat 28"), (3, "Sun 29")], limit: 40) == "   Sun 29")
    }
}
