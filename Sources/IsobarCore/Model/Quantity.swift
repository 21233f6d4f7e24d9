/// A continuous weather quantity, each with one fixed internal unit.
public enum Quantity: String, Sendable, CaseIterable, Hashable {
    case temperature
    case apparentTemperature = "apparent_temperature"
    case humidity
    case pressure
    case windSpeed = "wind_speed"
    case windGust = "wind_gust"
    case windDirection = "wind_direction"
    case cloudCover = "cloud_cover"
    case visibility
    case precipitationRate = "precipitation_rate"
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
    case temperatureMax = "temperature_max"
    case temperatureMin = "temperature_min"
    case precipitationSum = "precipitation_sum"
    case precipitationProbabilityMax = "precipitation_probability_max"
    case windSpeedMax = "wind_speed_max"
    case windGustMax = "wind_gust_max"
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
    case temperature, percent, pressure, speed, direction, distance, precipitationRate, precipitationAmount
}
