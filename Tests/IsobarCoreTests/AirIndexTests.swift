import IsobarCore
import Testing

@Suite("Air-quality indices")
struct AirIndexTests {
    /// The US AQI of a PM2.5 concentration (µg/m³).
    private func pm25(_ value: Double) -> AirIndexValue? { AirIndexScale.usAQI.subIndex(.pm25, concentration: value) }

    /// µg/m³ of a gas from ppb, so that tests can speak in the EPA table's units.
    private func micrograms(ppb: Double, _ gas: Quantity) -> Double { AirUnits.microgramsPerCubicMetre(fromPartsPerBillion: ppb, of: gas)! }

    @Test("PM2.5 (2024 revision): every breakpoint maps to its band's end, and the next step to the next band's start",
          arguments: [(0.0, 0), (9.0, 50), (9.1, 51), (35.4, 100), (35.5, 101), (55.4, 150), (55.5, 151), (125.4, 200), (125.5, 201),
                      (225.4, 300), (225.5, 301), (325.4, 500)])
    func pm25Edges(_ concentration: Double, _ index: Int) {
        #expect(pm25(concentration)?.value == index)
    }

    @Test("PM2.5 is truncated to 0.1 µg/m³ before the table is read, and the index rounded to the nearest integer")
    func pm25TruncationAndRounding() {
        #expect(pm25(9.09)?.value == 50)
        #expect(pm25(8.0)?.value == 44)
        #expect(pm25(35.0)?.value == 99)
        #expect(pm25(55.0)?.value == 149)
        #expect(pm25(55.0)?.category.name == "Unhealthy for Sensitive Groups")
        #expect(pm25(12.0)?.value == 56, "the 2012 table would have said 50")
    }

    @Test("every category's name, by its band", arguments: [(4.0, "Good"), (20.0, "Moderate"), (40.0, "Unhealthy for Sensitive Groups"),
                                                           (100.0, "Unhealthy"), (200.0, "Very Unhealthy"), (300.0, "Hazardous")])
    func categoryNames(_ concentration: Double, _ name: String) {
        #expect(pm25(concentration)?.category.name == name)
        #expect(pm25(concentration)?.category.message.isEmpty == false)
    }

    @Test("above the last breakpoint the index is 500, flagged as beyond the scale; below 0 there is none")
    func beyondTheScale() {
        let smoke = pm25(600)
        #expect(smoke?.value == 500 && smoke?.isBeyondScale == true && smoke?.category.name == "Hazardous")
        #expect(pm25(325.4)?.isBeyondScale == false)
        #expect(pm25(-1) == nil)
        #expect(pm25(.nan) == nil)
    }

    @Test("PM10 edges", arguments: [(0.0, 0), (54.0, 50), (55.0, 51), (154.0, 100), (155.0, 101), (254.0, 150), (255.0, 151),
                                    (354.0, 200), (355.0, 201), (424.0, 300), (425.0, 301), (604.0, 500), (54.9, 50)])
    func pm10Edges(_ concentration: Double, _ index: Int) {
        #expect(AirIndexScale.usAQI.subIndex(.pm10, concentration: concentration)?.value == index)
    }

    @Test("NO2 edges (ppb, 1-hour)", arguments: [(53.0, 50), (54.0, 51), (100.0, 100), (101.0, 101), (360.0, 150), (361.0, 151),
                                                (649.0, 200), (650.0, 201), (1249.0, 300), (1250.0, 301), (2049.0, 500)])
    func nitrogenDioxideEdges(_ ppb: Double, _ index: Int) {
        #expect(AirIndexScale.usAQI.subIndex(.nitrogenDioxide, concentration: micrograms(ppb: ppb, .nitrogenDioxide))?.value == index)
    }

    @Test("SO2 edges (ppb: 1-hour to 304, then the 24-hour bands)", arguments: [(35.0, 50), (36.0, 51), (75.0, 100), (76.0, 101),
                                                                             (185.0, 150), (186.0, 151), (304.0, 200), (305.0, 201),
                                                                             (604.0, 300), (605.0, 301), (1004.0, 500)])
    func sulphurDioxideEdges(_ ppb: Double, _ index: Int) {
        #expect(AirIndexScale.usAQI.subIndex(.sulphurDioxide, concentration: micrograms(ppb: ppb, .sulphurDioxide))?.value == index)
    }

    @Test("CO edges (ppm, 8-hour)", arguments: [(4.4, 50), (4.5, 51), (9.4, 100), (9.5, 101), (12.4, 150), (12.5, 151), (15.4, 200),
                                               (15.5, 201), (30.4, 300), (30.5, 301), (50.4, 500)])
    func carbonMonoxideEdges(_ ppm: Double, _ index: Int) {
        #expect(AirIndexScale.usAQI.subIndex(.carbonMonoxide, concentration: micrograms(ppb: ppm * 1000, .carbonMonoxide))?.value == index)
    }

    @Test("O3 edges (ppm: the 8-hour table to 0.200, then the 1-hour table)",
          arguments: [(0.054, 50), (0.055, 51), (0.070, 100), (0.071, 101), (0.085, 150), (0.086, 151), (0.105, 200), (0.106, 201),
                      (0.200, 300), (0.202, 201), (0.404, 300), (0.405, 301), (0.604, 500)])
    func ozoneEdges(_ ppm: Double, _ index: Int) {
        #expect(AirIndexScale.usAQI.subIndex(.ozone, concentration: micrograms(ppb: ppm * 1000, .ozone))?.value == index)
    }

    @Test("the index of several pollutants is the highest, named by the pollutant that drives it; a pollutant without breakpoints counts for nothing")
    func drivingPollutant() {
        let values: [Quantity: Double] = [.pm25: 8, .pm10: 160, .dust: 900, .birchPollen: 3000]
        let index = AirIndexScale.usAQI.index { values[$0] }
        #expect(index?.pollutant == .pm10 && index?.value == 103)
        #expect(AirIndexScale.usAQI.index { [Quantity.dust: 900.0][$0] } == nil)
        #expect(AirIndexScale.usAQI.subIndex(.dust, concentration: 10) == nil)
    }

    @Test("European index: every band's upper bound is in the band, the next tenth in the next",
          arguments: [(Quantity.pm25, [10.0, 20, 25, 50, 75]), (.pm10, [20, 40, 50, 100, 150]), (.nitrogenDioxide, [40, 90, 120, 230, 340]),
                      (.ozone, [50, 100, 130, 240, 380]), (.sulphurDioxide, [100, 200, 350, 500, 750])])
    func europeanEdges(_ pollutant: Quantity, _ bounds: [Double]) {
        let names = ["Good", "Fair", "Moderate", "Poor", "Very poor", "Extremely poor"]
        #expect(AirIndexScale.europeanAQI.subIndex(pollutant, concentration: 0)?.value == 1)
        for (rank, bound) in bounds.enumerated() {
            #expect(AirIndexScale.europeanAQI.subIndex(pollutant, concentration: bound)?.value == rank + 1, "\(pollutant) \(bound)")
            let next = AirIndexScale.europeanAQI.subIndex(pollutant, concentration: bound + 0.1)
            #expect(next?.value == rank + 2 && next?.category.name == names[rank + 1], "\(pollutant) \(bound + 0.1)")
        }
        #expect(AirIndexScale.europeanAQI.subIndex(.carbonMonoxide, concentration: 100) == nil, "CO has no European bands")
    }

    @Test("ppb and ppm convert to µg/m³ at 25 °C and 1 atm, and back")
    func mixingRatios() throws {
        let ozone = try #require(AirUnits.converter(from: "ppb", for: .ozone))
        #expect(abs((ozone(100) ?? 0) - 196.319) < 0.01)
        let carbon = try #require(AirUnits.converter(from: "ppm", for: .carbonMonoxide))
        #expect(abs((carbon(1) ?? 0) - 1145.6) < 0.1)
        #expect(AirUnits.converter(from: "ppb", for: .pm25) == nil, "particles have no mixing ratio")
        #expect(AirUnits.converter(from: "furlongs", for: .ozone) == nil)
        #expect(AirUnits.converter(from: "μg/m³", for: .ozone) != nil && AirUnits.converter(from: "µg/m³", for: .ozone) != nil)
        #expect(abs(AirUnits.partsPerBillion(fromMicrogramsPerCubicMetre: 196.319, of: .ozone)! - 100) < 0.01)
    }

    @Test("the air quantities are rows of the quantity table: unique cache keys, units and families, and no weather view lists them")
    func table() {
        #expect(Quantity.air.count == 13)
        #expect(Set(Quantity.allCases.map(\.spec.cacheKey)).count == Quantity.allCases.count)
        #expect(Quantity.air.allSatisfy { [.concentration, .pollen].contains($0.dimension) })
        #expect(Set(Quantity.weather).isDisjoint(with: Quantity.air))
        #expect(Quantity.weather.count + Quantity.air.count == Quantity.allCases.count)
        #expect(Quantity.pm25.fieldName == "pm2_5_ugm3" && Quantity.birchPollen.fieldName == "birch_pollen_grains_m3")
        #expect(UnitSystem.imperial.symbol(for: .pm25) == "µg/m³", "concentrations read the same in every system")
    }
}
