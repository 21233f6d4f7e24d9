import FoundationEssentials

/// The weather at one instant (current conditions or one forecast step) in fixed units; nil means "not given".
public struct WeatherSample: Sendable, Equatable {
    /// The instant the values describe (UTC); for a forecast step, the end of its period.
    public var time: Date
    /// Hours the accumulated precipitation covers, ending at `time` (0.25, 1, 3).
    public var periodHours: Double
    /// Air temperature at 2 m, °C.
    public var temperatureC: Double?
    /// Apparent ("feels like") temperature, °C.
    public var apparentTemperatureC: Double?
    /// Relative humidity, 0–100 %.
    public var humidityPercent: Double?
    /// Pressure reduced to mean sea level, hPa.
    public var pressureHPa: Double?
    /// Mean wind speed at 10 m, m/s.
    public var windSpeedMS: Double?
    /// Wind gusts at 10 m, m/s.
    public var windGustMS: Double?
    /// Direction the wind blows from, 0–360 degrees.
    public var windDirectionDeg: Double?
    /// Cloud cover, 0–100 %.
    public var cloudCoverPercent: Double?
    /// Visibility, metres.
    public var visibilityM: Double?
    /// Liquid-equivalent precipitation over `periodHours`, mm.
    public var precipitationMM: Double?
    /// Chance of precipitation in the period, 0–100 %.
    public var precipitationProbabilityPercent: Double?
    /// Normalised condition.
    public var condition: Condition?
    /// Daylight at `time`, when the provider says.
    public var isDay: Bool?
    /// Dew point at 2 m, °C.
    public var dewPointC: Double?
    /// UV index under the forecast clouds.
    public var uvIndex: Double?
    /// Quantities computed here from others rather than given by the provider (dew point from temperature and humidity).
    public var derivedQuantities: Set<Quantity> = []
    /// Air-quality concentrations and pollen counts by quantity (`Quantity.air`), in their internal units; empty for weather.
    public var airValues: [Quantity: Double] = [:]
    /// The provider's own air-quality index for this instant (OpenWeatherMap's 1–5), shown as that provider's and never merged.
    public var providerAirIndex: ProviderAirIndex?

    /// A sample with every value absent.
    public init(time: Date, periodHours: Double) {
        self.time = time
        self.periodHours = periodHours
    }

    /// Precipitation as a rate, mm/h.
    public var precipitationRateMMPerHour: Double? {
        guard let precipitationMM, periodHours > 0 else { return nil }
        return precipitationMM / periodHours
    }

    /// The value of one quantity in its internal unit; precipitation is set as a rate over `periodHours`.
    public subscript(quantity: Quantity) -> Double? {
        get {
            switch quantity {
            case .temperature: temperatureC
            case .apparentTemperature: apparentTemperatureC
            case .humidity: humidityPercent
            case .pressure: pressureHPa
            case .windSpeed: windSpeedMS
            case .windGust: windGustMS
            case .windDirection: windDirectionDeg
            case .cloudCover: cloudCoverPercent
            case .visibility: visibilityM
            case .precipitationRate: precipitationRateMMPerHour
            case .precipitationProbability: precipitationProbabilityPercent
            case .dewPoint: dewPointC
            case .uvIndex: uvIndex
            case .pm25, .pm10, .ozone, .nitrogenDioxide, .sulphurDioxide, .carbonMonoxide, .dust, .alderPollen, .birchPollen, .grassPollen,
                 .mugwortPollen, .olivePollen, .ragweedPollen: airValues.isEmpty ? nil : airValues[quantity]
            }
        }
        set {
            switch quantity {
            case .temperature: temperatureC = newValue
            case .apparentTemperature: apparentTemperatureC = newValue
            case .humidity: humidityPercent = newValue
            case .pressure: pressureHPa = newValue
            case .windSpeed: windSpeedMS = newValue
            case .windGust: windGustMS = newValue
            case .windDirection: windDirectionDeg = newValue
            case .cloudCover: cloudCoverPercent = newValue
            case .visibility: visibilityM = newValue
            case .precipitationRate: precipitationMM = newValue.map { $0 * periodHours }
            case .precipitationProbability: precipitationProbabilityPercent = newValue
            case .dewPoint: dewPointC = newValue
            case .uvIndex: uvIndex = newValue
            case .pm25, .pm10, .ozone, .nitrogenDioxide, .sulphurDioxide, .carbonMonoxide, .dust, .alderPollen, .birchPollen, .grassPollen,
                 .mugwortPollen, .olivePollen, .ragweedPollen: airValues[quantity] = newValue
            }
        }
    }
}

/// A provider's own air-quality index at one instant, on its own scale (never merged with another's, never converted).
public struct ProviderAirIndex: Sendable, Equatable {
    /// The scale's name, e.g. `OpenWeatherMap 1–5`.
    public var scale: String
    /// The value on that scale.
    public var value: Double
    /// The scale's word for the value (`Fair`), when it has one.
    public var category: String?

    /// Creates an index value.
    public init(scale: String, value: Double, category: String? = nil) {
        self.scale = scale
        self.value = value
        self.category = category
    }
}

/// One local calendar day of forecast in fixed units; nil means "not given".
public struct DailyPoint: Sendable, Equatable {
    /// The day in the place's local calendar.
    public var date: LocalDate
    /// Highest temperature, °C.
    public var temperatureMaxC: Double?
    /// Lowest temperature, °C.
    public var temperatureMinC: Double?
    /// Total precipitation, mm.
    public var precipitationMM: Double?
    /// Highest chance of precipitation, 0–100 %.
    public var precipitationProbabilityMaxPercent: Double?
    /// Highest mean wind, m/s.
    public var windSpeedMaxMS: Double?
    /// Highest gust, m/s.
    public var windGustMaxMS: Double?
    /// Dominant wind direction, degrees.
    public var windDirectionDominantDeg: Double?
    /// The day's condition (the most severe one for providers that say so).
    public var condition: Condition?
    /// Sunrise, when there is one.
    public var sunrise: Date?
    /// Sunset, when there is one.
    public var sunset: Date?
    /// True when computed from hourly steps rather than given by the provider.
    public var isDerived: Bool
    /// Highest UV index.
    public var uvIndexMax: Double?
    /// Time between sunrise and sunset, seconds.
    public var daylightDurationS: Double?
    /// Quantities computed from others rather than given by the provider (daylight from sunrise and sunset).
    public var derivedQuantities: Set<DailyQuantity> = []

    /// A day with every value absent.
    public init(date: LocalDate, isDerived: Bool = false) {
        self.date = date
        self.isDerived = isDerived
    }

    /// The value of one daily quantity in its internal unit (instants as seconds since 1970).
    public subscript(quantity: DailyQuantity) -> Double? {
        get {
            switch quantity {
            case .temperatureMax: temperatureMaxC
            case .temperatureMin: temperatureMinC
            case .precipitationSum: precipitationMM
            case .precipitationProbabilityMax: precipitationProbabilityMaxPercent
            case .windSpeedMax: windSpeedMaxMS
            case .windGustMax: windGustMaxMS
            case .windDirectionDominant: windDirectionDominantDeg
            case .uvIndexMax: uvIndexMax
            case .sunrise: sunrise?.timeIntervalSince1970
            case .sunset: sunset?.timeIntervalSince1970
            case .daylightDuration: daylightDurationS
            }
        }
        set {
            switch quantity {
            case .temperatureMax: temperatureMaxC = newValue
            case .temperatureMin: temperatureMinC = newValue
            case .precipitationSum: precipitationMM = newValue
            case .precipitationProbabilityMax: precipitationProbabilityMaxPercent = newValue
            case .windSpeedMax: windSpeedMaxMS = newValue
            case .windGustMax: windGustMaxMS = newValue
            case .windDirectionDominant: windDirectionDominantDeg = newValue
            case .uvIndexMax: uvIndexMax = newValue
            case .sunrise: sunrise = newValue.map(Date.init(timeIntervalSince1970:))
            case .sunset: sunset = newValue.map(Date.init(timeIntervalSince1970:))
            case .daylightDuration: daylightDurationS = newValue
            }
        }
    }
}
