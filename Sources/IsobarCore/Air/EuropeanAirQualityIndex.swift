/// The European Air Quality Index of the European Environment Agency (its 2021 bands), six levels from Good to Extremely poor.
///
/// A concentration (µg/m³) belongs to the first band whose upper bound it does not exceed: 10 µg/m³ of PM2.5 is Good,
/// 10.1 is Fair. The index of several pollutants is the level of the worst.
enum EuropeanAirQualityIndex {
    /// Upper bounds of levels 1–5 for each pollutant (level 6 is everything above).
    static let upperBounds: [Quantity: [Double]] = [
        .pm25: [10, 20, 25, 50, 75],
        .pm10: [20, 40, 50, 100, 150],
        .nitrogenDioxide: [40, 90, 120, 230, 340],
        .ozone: [50, 100, 130, 240, 380],
        .sulphurDioxide: [100, 200, 350, 500, 750],
    ]

    /// The level of one pollutant's concentration in µg/m³, or nil when the index has no bands for it.
    static func subIndex(_ pollutant: Quantity, microgramsPerCubicMetre value: Double) -> AirIndexValue? {
        guard let bounds = upperBounds[pollutant] else { return nil }
        let rank = bounds.firstIndex { value <= $0 } ?? bounds.count
        return AirIndexValue(scale: .europeanAQI, value: rank + 1, category: AirIndexCategory.europeanAQI[rank], pollutant: pollutant)
    }
}
