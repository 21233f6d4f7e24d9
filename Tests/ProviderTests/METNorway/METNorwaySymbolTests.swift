import IsobarCore
import METNorway
import Testing

@Suite("MET Norway: every weather symbol has a condition")
struct METNorwaySymbolTests {
    /// The legend's 41 base codes as published (metno/weathericons), misspellings included.
    static let legend = [
        "clearsky", "fair", "partlycloudy", "cloudy", "fog",
        "lightrainshowers", "rainshowers", "heavyrainshowers",
        "lightrainshowersandthunder", "rainshowersandthunder", "heavyrainshowersandthunder",
        "lightsleetshowers", "sleetshowers", "heavysleetshowers",
        "lightssleetshowersandthunder", "sleetshowersandthunder", "heavysleetshowersandthunder",
        "lightsnowshowers", "snowshowers", "heavysnowshowers",
        "lightssnowshowersandthunder", "snowshowersandthunder", "heavysnowshowersandthunder",
        "lightrain", "rain", "heavyrain", "lightrainandthunder", "rainandthunder", "heavyrainandthunder",
        "lightsleet", "sleet", "heavysleet", "lightsleetandthunder", "sleetandthunder", "heavysleetandthunder",
        "lightsnow", "snow", "heavysnow", "lightsnowandthunder", "snowandthunder", "heavysnowandthunder",
    ]

    @Test("all 41 bases, with and without a time-of-day suffix", arguments: legend)
    func mapped(base: String) {
        for suffix in ["", "_day", "_night", "_polartwilight"] {
            #expect(METNorwaySymbols.condition(base + suffix) != nil, "\(base + suffix)")
        }
    }

    @Test func theLegendHasFortyOneBases() {
        #expect(Set(Self.legend).count == 41)
        #expect(Set(Self.legend).isSubset(of: Set(METNorwaySymbols.conditions.keys)))
    }

    @Test("thunder wins over the precipitation; sleet is rain and snow; showers stay showers")
    func meanings() {
        #expect(METNorwaySymbols.condition("heavysnowshowersandthunder_night") == .thunderstorm)
        #expect(METNorwaySymbols.condition("lightssleetshowersandthunder_day") == .thunderstorm)
        #expect(METNorwaySymbols.condition("sleet") == .rainAndSnow)
        #expect(METNorwaySymbols.condition("rainshowers_polartwilight") == .rainShowers)
        #expect(METNorwaySymbols.condition("fair_night") == .mainlyClear)
        #expect(METNorwaySymbols.condition("") == nil)
        #expect(METNorwaySymbols.condition("sunny") == nil)
    }
}
