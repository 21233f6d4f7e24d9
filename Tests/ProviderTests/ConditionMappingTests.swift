import IsobarCore
import OpenMeteo
import OpenWeatherMap
import Testing

/// Every OpenWeatherMap id of the reference's table A.7, with the condition it should mean (written out by hand).
private let openWeatherMapTable: [(id: Int, condition: Condition)] = [
    // 2xx thunderstorm
    (200, .thunderstorm), (201, .thunderstorm), (202, .thunderstorm), (210, .thunderstorm), (211, .thunderstorm),
    (212, .thunderstorm), (221, .thunderstorm), (230, .thunderstorm), (231, .thunderstorm), (232, .thunderstorm),
    // 3xx drizzle; 313 "shower rain and drizzle" and 314 "heavy shower rain and drizzle" are showers of rain
    (300, .drizzle), (301, .drizzle), (302, .drizzle), (310, .drizzle), (311, .drizzle), (312, .drizzle),
    (313, .rainShowers), (314, .rainShowers), (321, .drizzle),
    // 5xx rain
    (500, .rain), (501, .rain), (502, .rain), (503, .rain), (504, .rain),
    (511, .freezingRain),
    (520, .rainShowers), (521, .rainShowers), (522, .rainShowers), (531, .rainShowers),
    // 6xx snow; 611–616 are sleet and rain-and-snow
    (600, .snow), (601, .snow), (602, .snow),
    (611, .rainAndSnow), (612, .rainAndSnow), (613, .rainAndSnow), (615, .rainAndSnow), (616, .rainAndSnow),
    (620, .snowShowers), (621, .snowShowers), (622, .snowShowers),
    // 7xx atmosphere: mist, smoke, haze, dust whirls, fog, sand, dust, ash, squall, tornado
    (701, .fog), (711, .haze), (721, .haze), (731, .haze), (741, .fog), (751, .haze), (761, .haze), (762, .haze),
    (771, .squall), (781, .tornado),
    // 800 clear, 80x clouds by coverage
    (800, .clear), (801, .mainlyClear), (802, .partlyCloudy), (803, .cloudy), (804, .cloudy),
]

/// Every WMO code of the reference's table B.3, with the condition it should mean (written out by hand).
private let wmoTable: [(code: Int, condition: Condition)] = [
    (0, .clear), (1, .mainlyClear), (2, .partlyCloudy), (3, .cloudy),
    (45, .fog), (48, .fog),
    (51, .drizzle), (53, .drizzle), (55, .drizzle),
    (56, .freezingDrizzle), (57, .freezingDrizzle),
    (61, .rain), (63, .rain), (65, .rain),
    (66, .freezingRain), (67, .freezingRain),
    (71, .snow), (73, .snow), (75, .snow),
    (77, .snowGrains),
    (80, .rainShowers), (81, .rainShowers), (82, .rainShowers),
    (85, .snowShowers), (86, .snowShowers),
    (95, .thunderstorm),
    (96, .thunderstormWithHail), (99, .thunderstormWithHail),
]

@Suite("Condition mapping")
struct ConditionMappingTests {
    @Test("the tables cover every id and code of the reference")
    func tablesAreComplete() {
        #expect(openWeatherMapTable.count == 55)
        #expect(Set(openWeatherMapTable.map(\.id)).count == 55)
        #expect(wmoTable.count == 28)
        #expect(Set(wmoTable.map(\.code)).count == 28)
    }

    @Test("OpenWeatherMap ids map to their condition", arguments: openWeatherMapTable)
    func openWeatherMapID(id: Int, condition: Condition) {
        #expect(Condition(openWeatherMapID: id) == condition)
    }

    @Test("OpenWeatherMap ids outside the table give nil", arguments: [0, 1, 199, 233, 299, 303, 322, 400, 505, 510, 512, 523, 603, 610, 614, 617, 623, 700, 702, 782, 799, 805, 900, 999, -800])
    func unknownOpenWeatherMapID(id: Int) {
        #expect(Condition(openWeatherMapID: id) == nil)
    }

    @Test("WMO codes map to their condition", arguments: wmoTable)
    func wmoCode(code: Int, condition: Condition) {
        #expect(Condition(wmoCode: code) == condition)
    }

    @Test("WMO codes outside the table give nil", arguments: [-1, 4, 5, 10, 44, 46, 50, 52, 58, 60, 62, 68, 70, 76, 78, 79, 83, 84, 87, 94, 97, 98, 100])
    func unknownWMOCode(code: Int) {
        #expect(Condition(wmoCode: code) == nil)
    }

    @Test("severity grows from clear sky to hail")
    func severityOrdering() {
        #expect(Condition.clear < .cloudy)
        #expect(Condition.cloudy < .rain)
        #expect(Condition.rain < .thunderstorm)
        #expect(Condition.thunderstorm < .thunderstormWithHail)
        #expect(Condition.drizzle < .rain)
        #expect(Condition.mainlyClear < .partlyCloudy)
        #expect(!(Condition.thunderstorm < .rain))
        #expect([Condition.rain, .clear, .thunderstormWithHail, .cloudy, .thunderstorm].max() == .thunderstormWithHail)
        #expect([Condition.rain, .clear, .thunderstormWithHail, .cloudy, .thunderstorm].sorted()
            == [.clear, .cloudy, .rain, .thunderstorm, .thunderstormWithHail])
    }

    @Test("the same weather means the same condition from either provider")
    func providersAgree() {
        let pairs: [(owm: Int, wmo: Int)] = [(800, 0), (801, 1), (802, 2), (804, 3), (741, 45), (300, 51), (500, 61),
                                            (511, 66), (600, 71), (521, 80), (620, 85), (211, 95)]
        for (owm, wmo) in pairs {
            #expect(Condition(openWeatherMapID: owm) == Condition(wmoCode: wmo), "OWM \(owm) vs WMO \(wmo)")
        }
    }
}
