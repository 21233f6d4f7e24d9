/// The units people read values in; internal values are always °C, m/s, hPa, mm, %, metres and degrees.
public enum UnitSystem: String, Sendable, CaseIterable {
    /// °C, m/s, hPa, mm, km.
    case metric
    /// °F, mph, inHg, inches, miles.
    case imperial
    /// K, m/s, hPa, mm, metres (the SI-like units OpenWeatherMap calls "standard").
    case standard

    /// The unit symbol for a dimension.
    public func symbol(_ dimension: Dimension) -> String {
        switch (self, dimension) {
        case (.metric, .temperature): "°C"
        case (.imperial, .temperature): "°F"
        case (.standard, .temperature): "K"
        case (_, .percent): "%"
        case (.imperial, .pressure): "inHg"
        case (_, .pressure): "hPa"
        case (.imperial, .speed): "mph"
        case (_, .speed): "m/s"
        case (_, .direction): "°"
        case (.metric, .distance): "km"
        case (.imperial, .distance): "mi"
        case (.standard, .distance): "m"
        case (.imperial, .precipitationRate): "in/h"
        case (_, .precipitationRate): "mm/h"
        case (.imperial, .precipitationAmount): "in"
        case (_, .precipitationAmount): "mm"
        case (_, .index): "index"
        case (_, .instant): "iso8601"
        case (_, .duration): "s"
        case (_, .concentration): "µg/m³"
        case (_, .pollen): "grains/m³"
        }
    }

    /// The unit symbol of a quantity: its spec's own for an index (`UVI`), else its dimension's.
    public func symbol(for quantity: Quantity) -> String { quantity.spec.unitSymbol ?? symbol(quantity.dimension) }

    /// The unit symbol of a daily quantity: its spec's own for an index (`UVI`), else its dimension's.
    public func symbol(for quantity: DailyQuantity) -> String { quantity.spec.unitSymbol ?? symbol(quantity.dimension) }

    /// Converts an internal value to this system's unit.
    public func convert(_ value: Double, _ dimension: Dimension) -> Double {
        switch (self, dimension) {
        case (.imperial, .temperature): value * 9 / 5 + 32
        case (.standard, .temperature): value + 273.15
        case (.imperial, .pressure): value / UnitConversion.hectopascalsPerInchOfMercury
        case (.imperial, .speed): value / UnitConversion.metresPerSecondPerMilePerHour
        case (.metric, .distance): value / 1000
        case (.imperial, .distance): value / UnitConversion.metresPerMile
        case (.imperial, .precipitationRate), (.imperial, .precipitationAmount): value / UnitConversion.millimetresPerInch
        default: value
        }
    }

    /// Converts a difference (a spread) to this system's unit: no offset, only scale.
    public func convertDifference(_ value: Double, _ dimension: Dimension) -> Double {
        dimension == .temperature ? (self == .imperial ? value * 9 / 5 : value) : convert(value, dimension)
    }

    /// Decimals worth showing for a dimension in this system.
    public func decimals(_ dimension: Dimension) -> Int {
        switch (self, dimension) {
        case (_, .percent), (_, .direction), (_, .instant), (_, .duration), (_, .pollen): 0
        case (.imperial, .pressure): 2
        case (.standard, .distance): 0
        case (.imperial, .precipitationRate), (.imperial, .precipitationAmount): 2
        default: 1
        }
    }
}

/// Conversions from providers' units to the internal ones.
public enum UnitConversion {
    /// Exact: 1 mph = 0.44704 m/s.
    public static let metresPerSecondPerMilePerHour = 0.44704
    /// Exact: 1 in = 25.4 mm.
    public static let millimetresPerInch = 25.4
    /// Exact: 1 mi = 1609.344 m.
    public static let metresPerMile = 1609.344
    /// Standard: 1 inHg = 33.8639 hPa.
    public static let hectopascalsPerInchOfMercury = 33.8639

    /// °C from kelvin.
    public static func celsius(fromKelvin value: Double) -> Double { value - 273.15 }
    /// °C from °F.
    public static func celsius(fromFahrenheit value: Double) -> Double { (value - 32) * 5 / 9 }
    /// m/s from mph.
    public static func metresPerSecond(fromMilesPerHour value: Double) -> Double { value * metresPerSecondPerMilePerHour }
    /// m/s from km/h.
    public static func metresPerSecond(fromKilometresPerHour value: Double) -> Double { value / 3.6 }
    /// m/s from knots (1 kn = 1852 m/h).
    public static func metresPerSecond(fromKnots value: Double) -> Double { value * 1852 / 3600 }
    /// mm from inches.
    public static func millimetres(fromInches value: Double) -> Double { value * millimetresPerInch }
}
