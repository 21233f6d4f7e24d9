import IsobarCore
import Testing

@Suite("US AQI of a day, on the EPA's averaging periods")
struct USAirQualityDailyIndexTests {
    /// Hours of one pollutant (nil: an hour without a value).
    private func hours(_ pollutant: Quantity, _ values: [Double?]) -> [(Quantity) -> Double?] {
        values.map { value in { $0 == pollutant ? value : nil } }
    }

    @Test("each pollutant on its period: PM on the 24-hour mean, O3 and CO on the highest 8 hours, NO2 and SO2 on the highest hour")
    func periods() {
        #expect(USAirQualityDailyIndex.averaging(of: .pm25) == .mean24Hours)
        #expect(USAirQualityDailyIndex.averaging(of: .pm10) == .mean24Hours)
        #expect(USAirQualityDailyIndex.averaging(of: .ozone) == .highest8HourMean)
        #expect(USAirQualityDailyIndex.averaging(of: .carbonMonoxide) == .highest8HourMean)
        #expect(USAirQualityDailyIndex.averaging(of: .nitrogenDioxide) == .highestHour)
        #expect(USAirQualityDailyIndex.averaging(of: .sulphurDioxide) == .highestHour)
        #expect(USAirQualityDailyIndex.averaging(of: .birchPollen) == nil)
    }

    @Test("a smoky afternoon: 20 hours at 5 and 4 at 125 µg/m³ of PM2.5 average 25, Moderate 81, where the worst hour is 200")
    func smokeIsAveragedOverTheDay() {
        let day = hours(.pm25, Array(repeating: 5.0, count: 20) + Array(repeating: 125.0, count: 4))
        let index = USAirQualityDailyIndex.index(day, day: 0..<24)
        #expect(USAirQualityDailyIndex.average(.pm25, .mean24Hours, day, day: 0..<24) == 25)
        #expect(index?.value == 81 && index?.category.name == "Moderate" && index?.pollutant == .pm25)
        #expect(AirIndexScale.usAQI.subIndex(.pm25, concentration: 125)?.value == 200)
    }

    @Test("a 24-hour mean needs 18 hours: 17 give no PM2.5 index, 18 do")
    func dayNeedsEighteenHours() {
        #expect(USAirQualityDailyIndex.index(hours(.pm25, Array(repeating: 40.0, count: 17)), day: 0..<17) == nil)
        #expect(USAirQualityDailyIndex.index(hours(.pm25, Array(repeating: 40.0, count: 18)), day: 0..<18)?.value == 112)
        // Hours without a value do not count.
        let gappy = hours(.pm25, Array(repeating: 40.0, count: 17) + Array(repeating: nil, count: 7))
        #expect(USAirQualityDailyIndex.index(gappy, day: 0..<24) == nil)
    }

    @Test("ozone: the highest 8-hour running mean starting in the day, which may run into the next day's hours; 6 of 8 hours needed")
    func ozoneEightHours() throws {
        // 0.070 ppm for 8 hours from 20:00 is Moderate 100, though each hour before it is Good.
        let ppm070 = try #require(AirUnits.microgramsPerCubicMetre(fromPartsPerBillion: 70, of: .ozone))
        let ppm030 = try #require(AirUnits.microgramsPerCubicMetre(fromPartsPerBillion: 30, of: .ozone))
        let series = hours(.ozone, Array(repeating: ppm030, count: 20) + Array(repeating: ppm070, count: 8))
        #expect(USAirQualityDailyIndex.index(series, day: 0..<24)?.value == 100)
        // Without the next day's hours, the best window is the last holding 6 hours, 4 of them at 0.070 ppm:
        // (4 × 70 + 2 × 30) / 6 ≈ 56.7 ppb, truncated to 0.056 ppm, is 54.
        #expect(USAirQualityDailyIndex.index(Array(series.prefix(24)), day: 0..<24)?.value == 54)
        // Five hours are too few for an 8-hour mean.
        #expect(USAirQualityDailyIndex.index(hours(.ozone, Array(repeating: ppm070, count: 5)), day: 0..<5) == nil)
    }

    @Test("NO2 on its highest hour; the day's index is its worst pollutant's")
    func worstPollutant() throws {
        let no2 = try #require(AirUnits.microgramsPerCubicMetre(fromPartsPerBillion: 120, of: .nitrogenDioxide))
        let series: [(Quantity) -> Double?] = (0..<24).map { hour in
            { quantity in
                switch quantity {
                case .pm25: 10
                case .nitrogenDioxide: hour == 8 ? no2 : 20
                default: nil
                }
            }
        }
        let index = USAirQualityDailyIndex.index(series, day: 0..<24)
        #expect(index?.pollutant == .nitrogenDioxide && index?.value == 105)
    }
}
