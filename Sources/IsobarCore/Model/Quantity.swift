/// A continuous weather quantity, each with one fixed internal unit.
public enum Quantity: String, Sendable, CaseIterable, Hashable {
    /// Air temperature, °C.
    case temperature
    /// Feels-like temperature, °C.
    case apparentTemperature = "apparent_temperature"
    /// Relative humidity, %.
    case humidity
    /// Pressure at mean sea level, hPa.
    case pressure
    /// Mean wind, m/s.
    case windSpeed = "wind_speed"
    /// Gusts, m/s.
    case windGust = "wind_gust"
    /// Direction the wind comes from, degrees.
    case windDirection = "wind_direction"
    /// Cloud cover, %.
    case cloudCover = "cloud_cover"
    /// Visibility, metres.
    case visibility
    /// Precipitation, mm/h.
    case precipitationRate = "precipitation_rate"
    /// Chance of precipitation, %.
    case precipitationProbability = "precipitation_probability"

    /// The kind of unit the quantity is measured in.
    public var dimension: Dimension {
        switch self {
        case .temperature, .apparentTemperature: .temperature
        case .humidity, .cloudCover, .precipitationProbability: .percent
        case .pressure: .pressure
        case .windSpeed, .windGust: .speed
        case .windDirection: .direction
        case .visibility: .distance
        case .precipitationRate: .precipitationRate
        }
    }

    /// Short label for tables.
    public var label: String {
        switch self {
        case .temperature: "Temperature"
        case .apparentTemperature: "Feels like"
        case .humidity: "Humidity"
        case .pressure: "Pressure"
        case .windSpeed: "Wind"
        case .windGust: "Gusts"
        case .windDirection: "Wind from"
        case .cloudCover: "Cloud cover"
        case .visibility: "Visibility"
        case .precipitationRate: "Precipitation"
        case .precipitationProbability: "Precip. chance"
        }
    }
}

/// A quantity of a day, each with one fixed internal unit.
public enum DailyQuantity: String, Sendable, CaseIterable, Hashable {
    /// Highest temperature of the day, °C.
    case temperatureMax = "temperature_max"
    /// Lowest temperature of the day, °C.
    case temperatureMin = "temperature_min"
    /// Total precipitation of the day, mm.
    case precipitationSum = "precipitation_sum"
    /// Highest chance of precipitation of the day, %.
    case precipitationProbabilityMax = "precipitation_probability_max"
    /// Highest mean wind of the day, m/s.
    case windSpeedMax = "wind_speed_max"
    /// Highest gust of the day, m/s.
    case windGustMax = "wind_gust_max"
    /// Dominant wind direction of the day, degrees.
    case windDirectionDominant = "wind_direction_dominant"

    /// The kind of unit the quantity is measured in.
    public var dimension: Dimension {
        switch self {
        case .temperatureMax, .temperatureMin: .temperature
        case .precipitationSum: .precipitationAmount
        case .precipitationProbabilityMax: .percent
        case .windSpeedMax, .windGustMax: .speed
        case .windDirectionDominant: .direction
        }
    }

    /// Short label for tables.
    public var label: String {
        switch self {
        case .temperatureMax: "Max"
        case .temperatureMin: "Min"
        case .precipitationSum: "Precip."
        case .precipitationProbabilityMax: "Chance"
        case .windSpeedMax: "Wind"
        case .windGustMax: "Gusts"
        case .windDirectionDominant: "From"
        }
    }
}

/// What a number measures; decides its unit in each unit system.
public enum Dimension: String, Sendable, CaseIterable {
    /// Temperatures.
    case temperature
    /// Percent.
    case percent
    /// Pressures.
    case pressure
    /// Speed.
    case speed
    /// Degrees of direction.
    case direction
    /// Distance.
    case distance
    /// Precipitation rates.
    case precipitationRate
    /// Precipitation amount.
    case precipitationAmount
}
