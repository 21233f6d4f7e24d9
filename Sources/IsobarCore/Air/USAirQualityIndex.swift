import FoundationEssentials

/// The US EPA AQI (technical assistance document EPA-454/B-24-002, May 2024, with the 2024 PM2.5 breakpoints).
///
/// Each pollutant's concentration is converted to the table's unit (ppm or ppb at 25 °C and 1 atm), truncated to the
/// table's precision (PM2.5 and CO to 0.1, PM10, SO₂ and NO₂ to 1, O₃ to 0.001), and interpolated linearly within its band;
/// the result is rounded to the nearest integer. Isobar applies the breakpoints to hourly concentrations (see
/// docs/air-quality.md for what that means for the EPA's averaging periods).
enum USAirQualityIndex {
    /// One band: concentrations `low...high` (the table's unit) map to `indexLow...indexHigh`.
    struct Band {
        let low: Double
        let high: Double
        let indexLow: Int
        let indexHigh: Int
    }

    /// Index bounds of the six categories, shared by every pollutant.
    static let indexBands = [(0, 50), (51, 100), (101, 150), (151, 200), (201, 300), (301, 500)]

    /// PM2.5, µg/m³, 24-hour (2024 revision).
    static let pm25 = bands([0.0, 9.0, 9.1, 35.4, 35.5, 55.4, 55.5, 125.4, 125.5, 225.4, 225.5, 325.4])
    /// PM10, µg/m³, 24-hour.
    static let pm10 = bands([0, 54, 55, 154, 155, 254, 255, 354, 355, 424, 425, 604])
    /// O₃, ppm, 8-hour (defined up to 0.200 ppm, index 300).
    static let ozone8Hour = bands([0.000, 0.054, 0.055, 0.070, 0.071, 0.085, 0.086, 0.105, 0.106, 0.200])
    /// O₃, ppm, 1-hour (from index 101; used above 0.200 ppm, where the 8-hour table ends).
    static let ozone1Hour = bands([0.125, 0.164, 0.165, 0.204, 0.205, 0.404, 0.405, 0.604], from: 2)
    /// CO, ppm, 8-hour.
    static let carbonMonoxide = bands([0.0, 4.4, 4.5, 9.4, 9.5, 12.4, 12.5, 15.4, 15.5, 30.4, 30.5, 50.4])
    /// SO₂, ppb: 1-hour up to 304 ppb (index 200), then the 24-hour bands.
    static let sulphurDioxide = bands([0, 35, 36, 75, 76, 185, 186, 304, 305, 604, 605, 1004])
    /// NO₂, ppb, 1-hour.
    static let nitrogenDioxide = bands([0, 53, 54, 100, 101, 360, 361, 649, 650, 1249, 1250, 2049])

    /// Parts per billion of a gas from µg/m³ at the EPA's reference conditions (25 °C, 1 atm).
    static func partsPerBillion(_ pollutant: Quantity, microgramsPerCubicMetre value: Double) -> Double? {
        AirUnits.partsPerBillion(fromMicrogramsPerCubicMetre: value, of: pollutant)
    }

    /// The sub-index of one pollutant's concentration in µg/m³.
    static func subIndex(_ pollutant: Quantity, microgramsPerCubicMetre value: Double) -> AirIndexValue? {
        switch pollutant {
        case .pm25: return index(truncated(value, places: 1), pm25, pollutant)
        case .pm10: return index(truncated(value, places: 0), pm10, pollutant)
        case .carbonMonoxide:
            guard let ppb = partsPerBillion(pollutant, microgramsPerCubicMetre: value) else { return nil }
            return index(truncated(ppb / 1000, places: 1), carbonMonoxide, pollutant)
        case .sulphurDioxide:
            guard let ppb = partsPerBillion(pollutant, microgramsPerCubicMetre: value) else { return nil }
            return index(truncated(ppb, places: 0), sulphurDioxide, pollutant)
        case .nitrogenDioxide:
            guard let ppb = partsPerBillion(pollutant, microgramsPerCubicMetre: value) else { return nil }
            return index(truncated(ppb, places: 0), nitrogenDioxide, pollutant)
        case .ozone:
            guard let ppb = partsPerBillion(pollutant, microgramsPerCubicMetre: value) else { return nil }
            let ppm = truncated(ppb / 1000, places: 3)
            // The 8-hour table ends at 0.200 ppm; above it the 1-hour table speaks, and 0.201–0.204 ppm (a gap between the
            // two tables) counts as the first value of the next band rather than falling back a category.
            return ppm <= 0.200 ? index(ppm, ozone8Hour, pollutant) : index(max(ppm, 0.205), ozone1Hour, pollutant)
        default: return nil
        }
    }

    /// Truncates (not rounds) to `places` decimals, as the EPA asks; a hair of tolerance keeps 9.0 from reading as 8.9999….
    static func truncated(_ value: Double, places: Int) -> Double {
        let scale = places == 0 ? 1.0 : places == 1 ? 10.0 : 1000.0
        return (value * scale + 1e-7).rounded(.down) / scale
    }

    /// The index of a truncated concentration in `bands`: linear within its band, rounded to the nearest integer; above the
    /// last band, the top of the scale, flagged.
    static func index(_ concentration: Double, _ bands: [Band], _ pollutant: Quantity) -> AirIndexValue {
        let categories = AirIndexCategory.usAQI
        for band in bands where concentration <= band.high + 1e-9 {
            let clamped = max(concentration, band.low)
            let slope = Double(band.indexHigh - band.indexLow) / (band.high - band.low)
            let value = Int((slope * (clamped - band.low) + Double(band.indexLow)).rounded(.toNearestOrAwayFromZero))
            return AirIndexValue(scale: .usAQI, value: value, category: category(of: value, in: categories), pollutant: pollutant)
        }
        let top = bands.last?.indexHigh ?? 500
        return AirIndexValue(scale: .usAQI, value: top, category: category(of: top, in: categories), pollutant: pollutant, isBeyondScale: true)
    }

    /// The category an index value falls in.
    static func category(of value: Int, in categories: [AirIndexCategory]) -> AirIndexCategory {
        let rank = indexBands.firstIndex { value <= $0.1 } ?? indexBands.count - 1
        return categories[rank]
    }

    /// Bands from a flat list of breakpoints (low, high, low, high…), starting at category `from`.
    private static func bands(_ points: [Double], from first: Int = 0) -> [Band] {
        stride(from: 0, to: points.count - 1, by: 2).enumerated().map { offset, start in
            let (indexLow, indexHigh) = indexBands[first + offset]
            return Band(low: points[start], high: points[start + 1], indexLow: indexLow, indexHigh: indexHigh)
        }
    }
}
