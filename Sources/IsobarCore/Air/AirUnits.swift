/// Conversions of air-quality units to the internal µg/m³, at the reference conditions of 25 °C and 1 atm.
public enum AirUnits {
    /// Litres per mole of an ideal gas at 25 °C and 1 atm.
    public static let molarVolumeLitres = 24.45

    /// Grams per mole of the gases whose concentrations are given as mixing ratios by some sources.
    public static func molarMass(_ pollutant: Quantity) -> Double? {
        switch pollutant {
        case .ozone: 48.00
        case .nitrogenDioxide: 46.01
        case .sulphurDioxide: 64.07
        case .carbonMonoxide: 28.01
        default: nil
        }
    }

    /// µg/m³ of a gas from parts per billion; nil for a quantity that is not such a gas.
    public static func microgramsPerCubicMetre(fromPartsPerBillion value: Double, of pollutant: Quantity) -> Double? {
        molarMass(pollutant).map { value * $0 / molarVolumeLitres }
    }

    /// Parts per billion of a gas from µg/m³; nil for a quantity that is not such a gas.
    public static func partsPerBillion(fromMicrogramsPerCubicMetre value: Double, of pollutant: Quantity) -> Double? {
        molarMass(pollutant).map { value * molarVolumeLitres / $0 }
    }

    /// The converter from a unit a source names (`µg/m³` with either mu, `ppb`, `ppm`, `grains/m³`) to the quantity's internal
    /// unit; nil for a unit Isobar does not know for it.
    public static func converter(from unit: String, for quantity: Quantity) -> ((Double) -> Double?)? {
        switch (quantity.dimension, unit) {
        case (.concentration, "µg/m³"), (.concentration, "μg/m³"), (.concentration, "ug/m3"): { $0 }
        case (.concentration, "ppb"): molarMass(quantity) == nil ? nil : { microgramsPerCubicMetre(fromPartsPerBillion: $0, of: quantity) }
        case (.concentration, "ppm"): molarMass(quantity) == nil ? nil : { microgramsPerCubicMetre(fromPartsPerBillion: $0 * 1000, of: quantity) }
        case (.pollen, "grains/m³"), (.pollen, "grains/m3"): { $0 }
        default: nil
        }
    }
}
