/// An air-quality index Isobar computes itself from merged concentrations, with its publisher's breakpoints and words.
public enum AirIndexScale: String, Sendable, CaseIterable, Hashable {
    /// The US EPA Air Quality Index, 0–500, with the breakpoints of the May 2024 technical assistance document (PM2.5 revision).
    case usAQI = "us_aqi"
    /// The European Air Quality Index of the European Environment Agency, six levels, with its 2021 bands.
    case europeanAQI = "european_aqi"

    /// The scale's name as shown, with its publisher.
    public var name: String {
        switch self {
        case .usAQI: "US AQI (EPA)"
        case .europeanAQI: "European AQI (EEA)"
        }
    }

    /// Which revision of the publisher's breakpoints Isobar applies.
    public var revision: String {
        switch self {
        case .usAQI: "EPA-454/B-24-002, May 2024"
        case .europeanAQI: "EEA bands of 2021"
        }
    }

    /// The pollutants the scale has breakpoints for, in the order a tie between them is settled.
    public var pollutants: [Quantity] {
        switch self {
        case .usAQI: [.pm25, .pm10, .ozone, .nitrogenDioxide, .sulphurDioxide, .carbonMonoxide]
        case .europeanAQI: [.pm25, .pm10, .nitrogenDioxide, .ozone, .sulphurDioxide]
        }
    }

    /// The scale's categories, from the best.
    public var categories: [AirIndexCategory] {
        switch self {
        case .usAQI: AirIndexCategory.usAQI
        case .europeanAQI: AirIndexCategory.europeanAQI
        }
    }

    /// The index of one pollutant's concentration (µg/m³, as measured over one hour), or nil when the scale has no breakpoints for it.
    public func subIndex(_ pollutant: Quantity, concentration: Double) -> AirIndexValue? {
        guard concentration.isFinite, concentration >= 0 else { return nil }
        switch self {
        case .usAQI: return USAirQualityIndex.subIndex(pollutant, microgramsPerCubicMetre: concentration)
        case .europeanAQI: return EuropeanAirQualityIndex.subIndex(pollutant, microgramsPerCubicMetre: concentration)
        }
    }

    /// The index of a set of concentrations: the highest of its pollutants' sub-indices, naming the pollutant that drives it;
    /// nil when none of the scale's pollutants is given.
    public func index(_ concentrations: (Quantity) -> Double?) -> AirIndexValue? {
        var worst: AirIndexValue?
        for pollutant in pollutants {
            guard let concentration = concentrations(pollutant), let value = subIndex(pollutant, concentration: concentration) else { continue }
            if worst.map({ value.value > $0.value }) ?? true { worst = value }
        }
        return worst
    }
}

/// One value on an air-quality scale: the number, its category, and the pollutant it was computed from.
public struct AirIndexValue: Sendable, Equatable {
    /// The scale.
    public var scale: AirIndexScale
    /// The number on the scale (0–500 for the US AQI; the level 1–6 for the European index).
    public var value: Int
    /// The category the number falls in.
    public var category: AirIndexCategory
    /// The pollutant whose concentration gives this value.
    public var pollutant: Quantity
    /// True when the concentration is above the scale's highest breakpoint (the value is then the scale's top).
    public var isBeyondScale: Bool

    /// Creates a value.
    public init(scale: AirIndexScale, value: Int, category: AirIndexCategory, pollutant: Quantity, isBeyondScale: Bool = false) {
        self.scale = scale
        self.value = value
        self.category = category
        self.pollutant = pollutant
        self.isBeyondScale = isBeyondScale
    }
}
