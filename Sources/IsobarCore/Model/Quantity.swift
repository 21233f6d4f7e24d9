/// A continuous weather quantity, each with one fixed internal unit; everything about it is in its `spec`.
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
    /// Dew point at 2 m, °C (computed from temperature and humidity for providers that do not give it).
    case dewPoint = "dew_point"
    /// UV index under the forecast clouds (WHO scale, 0 upwards).
    case uvIndex = "uv_index"
    /// Fine particulate matter (PM2.5), µg/m³.
    case pm25 = "pm2_5"
    /// Particulate matter up to 10 µm (PM10), µg/m³.
    case pm10
    /// Ground-level ozone, µg/m³.
    case ozone
    /// Nitrogen dioxide, µg/m³.
    case nitrogenDioxide = "nitrogen_dioxide"
    /// Sulphur dioxide, µg/m³.
    case sulphurDioxide = "sulphur_dioxide"
    /// Carbon monoxide, µg/m³.
    case carbonMonoxide = "carbon_monoxide"
    /// Mineral dust near the ground, µg/m³.
    case dust
    /// Alder pollen, grains/m³.
    case alderPollen = "alder_pollen"
    /// Birch pollen, grains/m³.
    case birchPollen = "birch_pollen"
    /// Grass pollen, grains/m³.
    case grassPollen = "grass_pollen"
    /// Mugwort pollen, grains/m³.
    case mugwortPollen = "mugwort_pollen"
    /// Olive pollen, grains/m³.
    case olivePollen = "olive_pollen"
    /// Ragweed pollen, grains/m³.
    case ragweedPollen = "ragweed_pollen"

    /// The one declaration of the quantity, which the model, cache, alignment, merge, validation and output all read.
    public var spec: QuantitySpec {
        switch self {
        case .temperature: QuantitySpec(.temperature, "Temperature", short: "Temp", range: -95...65, floor: 2, .linear, cacheKey: "t", hit: 2)
        case .apparentTemperature: QuantitySpec(.temperature, "Feels like", short: "Feels", range: -95...65, floor: 3, .linear, cacheKey: "at", hit: 2)
        case .humidity: QuantitySpec(.percent, "Humidity", short: "Humidity", range: 0...100, floor: 10, .linear, cacheKey: "rh", hit: 10)
        case .pressure: QuantitySpec(.pressure, "Pressure", short: "Press", range: 850...1090, floor: 3, .linear, cacheKey: "p", hit: 2)
        case .windSpeed: QuantitySpec(.speed, "Wind", short: "Wind", range: 0...120, floor: 2, .linear, cacheKey: "ws", hit: 2)
        case .windGust: QuantitySpec(.speed, "Gusts", short: "Gusts", range: 0...150, floor: 3, .linear, cacheKey: "wg", hit: 3)
        case .windDirection: QuantitySpec(.direction, "Wind from", short: "Wind from", range: 0...360, floor: 45, .circular, cacheKey: "wd")
        case .cloudCover: QuantitySpec(.percent, "Cloud cover", short: "Cloud", range: 0...100, floor: 25, .linear, cacheKey: "cc", hit: 20)
        case .visibility: QuantitySpec(.distance, "Visibility", short: "Vis", range: 0...100_000, floor: 5000, .linear, cacheKey: "vis", hit: 2_000)
        case .precipitationRate: QuantitySpec(.precipitationRate, "Precipitation", short: "Precip", range: 0...500, floor: 1, .split, cacheKey: "pr", field: "precipitation_mm")
        case .precipitationProbability: QuantitySpec(.percent, "Precip. chance", short: "PoP", range: 0...100, floor: 20, .held, cacheKey: "pp")
        case .dewPoint: QuantitySpec(.temperature, "Dew point", short: "Dew pt", range: -100...40, floor: 2, .linear, cacheKey: "td")
        case .uvIndex: QuantitySpec(.index, "UV index", short: "UV", range: 0...25, floor: 2, .linear, cacheKey: "uv", symbol: "UVI")
        case .pm25: QuantitySpec(.concentration, "PM2.5", short: "PM2.5", range: 0...5_000, floor: 5, .linear, cacheKey: "pm25", family: .pollutant)
        case .pm10: QuantitySpec(.concentration, "PM10", short: "PM10", range: 0...20_000, floor: 10, .linear, cacheKey: "pm10", family: .pollutant)
        case .ozone: QuantitySpec(.concentration, "Ozone (O3)", short: "O3", range: 0...1_500, floor: 20, .linear, cacheKey: "o3", family: .pollutant)
        case .nitrogenDioxide: QuantitySpec(.concentration, "NO2", short: "NO2", range: 0...4_000, floor: 10, .linear, cacheKey: "no2", family: .pollutant)
        case .sulphurDioxide: QuantitySpec(.concentration, "SO2", short: "SO2", range: 0...10_000, floor: 10, .linear, cacheKey: "so2", family: .pollutant)
        case .carbonMonoxide: QuantitySpec(.concentration, "CO", short: "CO", range: 0...200_000, floor: 200, .linear, cacheKey: "co", family: .pollutant)
        case .dust: QuantitySpec(.concentration, "Dust", short: "Dust", range: 0...50_000, floor: 20, .linear, cacheKey: "dust", family: .pollutant)
        case .alderPollen: QuantitySpec(.pollen, "Alder pollen", short: "Alder", range: 0...100_000, floor: 20, .linear, cacheKey: "pal", family: .pollen)
        case .birchPollen: QuantitySpec(.pollen, "Birch pollen", short: "Birch", range: 0...100_000, floor: 20, .linear, cacheKey: "pbi", family: .pollen)
        case .grassPollen: QuantitySpec(.pollen, "Grass pollen", short: "Grass", range: 0...100_000, floor: 20, .linear, cacheKey: "pgr", family: .pollen)
        case .mugwortPollen: QuantitySpec(.pollen, "Mugwort pollen", short: "Mugwort", range: 0...100_000, floor: 20, .linear, cacheKey: "pmu", family: .pollen)
        case .olivePollen: QuantitySpec(.pollen, "Olive pollen", short: "Olive", range: 0...100_000, floor: 20, .linear, cacheKey: "pol", family: .pollen)
        case .ragweedPollen: QuantitySpec(.pollen, "Ragweed pollen", short: "Ragweed", range: 0...100_000, floor: 20, .linear, cacheKey: "pra", family: .pollen)
        }
    }

    /// The weather quantities, in declaration order: what every weather view, CSV column and weather line lists.
    public static let weather: [Quantity] = allCases.filter { $0.spec.family == .weather }

    /// The air-quality quantities (pollutants, then pollen), in declaration order: what the air view lists.
    public static let air: [Quantity] = allCases.filter { $0.spec.family != .weather }

    /// The kind of unit the quantity is measured in.
    public var dimension: Dimension { spec.dimension }

    /// Short label for tables.
    public var label: String { spec.label }

    /// Its field name with its internal unit, as the exec protocol and validation warnings spell it (`temperature_c`,
    /// `uv_index`; precipitation is `precipitation_mm`, an amount over the step's period).
    public var fieldName: String { spec.field ?? rawValue + dimension.fieldSuffix }
}

/// How a quantity's values are put on the hour grid between a provider's steps.
public enum Interpolation: Sendable, Equatable {
    /// Linearly between steps at most the gap limit apart.
    case linear
    /// As a vector (directions), weighted by wind speed.
    case circular
    /// An amount over the step's period, split evenly over its hours (precipitation).
    case split
    /// Held over the step's period (chances).
    case held
}

/// Which group of quantities one belongs to: the weather, or the air (its pollutants and its pollen).
public enum QuantityFamily: String, Sendable, Equatable {
    /// Temperature, wind, rain and the rest of the weather.
    case weather
    /// A pollutant's concentration (particles, gases, dust).
    case pollutant
    /// A pollen's count.
    case pollen
}

/// Everything about one hourly quantity: its unit, its label, the values it can physically take, the outlier floor, how it
/// is interpolated and its key in the cache.
public struct QuantitySpec: Sendable, Equatable {
    /// What it measures; decides its unit in each unit system.
    public var dimension: Dimension
    /// Short label for tables.
    public var label: String
    /// The label in at most 9 cells, for narrow tables.
    public var shortLabel: String
    /// The values the atmosphere can take, internal unit; anything outside is a provider's mistake and is dropped.
    public var range: ClosedRange<Double>
    /// The smallest disagreement that counts (internal unit): the outlier floor and the confidence scale.
    public var floor: Double
    /// How it is put on the hour grid.
    public var interpolation: Interpolation
    /// Its key in cached reports (short; never reused for another quantity).
    public var cacheKey: String
    /// An error within this is a hit when forecasts are verified (2 °C for temperature, as ForecastAdvisor counts); nil
    /// for quantities not verified on their own.
    public var hitTolerance: Double?
    /// The unit's symbol where its dimension has none of its own (an index: `UVI`); nil to take the dimension's.
    public var unitSymbol: String?
    /// Its field name with its unit where it is not the name and the dimension's suffix (`precipitation_mm`).
    public var field: String?
    /// The weather, a pollutant or a pollen.
    public var family: QuantityFamily

    /// Creates a declaration.
    public init(_ dimension: Dimension, _ label: String, short: String, range: ClosedRange<Double>, floor: Double,
                _ interpolation: Interpolation, cacheKey: String, hit: Double? = nil, symbol: String? = nil, field: String? = nil,
                family: QuantityFamily = .weather) {
        self.dimension = dimension
        self.label = label
        self.shortLabel = short
        self.range = range
        self.floor = floor
        self.interpolation = interpolation
        self.cacheKey = cacheKey
        self.hitTolerance = hit
        self.unitSymbol = symbol
        self.field = field
        self.family = family
    }
}

/// A quantity of a day, each with one fixed internal unit; everything about it is in its `spec`.
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
    /// Highest UV index of the day.
    case uvIndexMax = "uv_index_max"
    /// Sunrise, an instant (seconds since 1970 internally).
    case sunrise
    /// Sunset, an instant (seconds since 1970 internally).
    case sunset
    /// Time between sunrise and sunset, seconds.
    case daylightDuration = "daylight_duration"

    /// The one declaration of the daily quantity.
    public var spec: DailyQuantitySpec {
        switch self {
        case .temperatureMax: DailyQuantitySpec(.temperature, "Max", range: -95...65, floor: 2, cacheKey: "tmax")
        case .temperatureMin: DailyQuantitySpec(.temperature, "Min", range: -95...65, floor: 2, cacheKey: "tmin")
        case .precipitationSum: DailyQuantitySpec(.precipitationAmount, "Precip.", range: 0...12_000, floor: 3, cacheKey: "pr", field: "precipitation_mm")
        case .precipitationProbabilityMax: DailyQuantitySpec(.percent, "Chance", range: 0...100, floor: 20, cacheKey: "ppmax")
        case .windSpeedMax: DailyQuantitySpec(.speed, "Wind", range: 0...120, floor: 2, cacheKey: "wsmax")
        case .windGustMax: DailyQuantitySpec(.speed, "Gusts", range: 0...150, floor: 3, cacheKey: "wgmax")
        case .windDirectionDominant: DailyQuantitySpec(.direction, "From", range: 0...360, floor: 45, circular: true, cacheKey: "wd")
        case .uvIndexMax: DailyQuantitySpec(.index, "UV max", range: 0...25, floor: 2, cacheKey: "uvmax", symbol: "UVI")
        case .sunrise: DailyQuantitySpec(.instant, "Sunrise", range: 0...253_402_300_799, floor: 120, cacheKey: "rise")
        case .sunset: DailyQuantitySpec(.instant, "Sunset", range: 0...253_402_300_799, floor: 120, cacheKey: "set")
        case .daylightDuration: DailyQuantitySpec(.duration, "Daylight", range: 0...86_400, floor: 240, cacheKey: "dl")
        }
    }

    /// The kind of unit the quantity is measured in.
    public var dimension: Dimension { spec.dimension }

    /// Short label for tables.
    public var label: String { spec.label }

    /// Its field name with its internal unit, as the exec protocol and validation warnings spell it (`temperature_max_c`).
    public var fieldName: String { spec.field ?? rawValue + dimension.fieldSuffix }
}

/// Everything about one daily quantity: its unit, label, physical range, outlier floor, whether it is a direction, and its
/// key in the cache.
public struct DailyQuantitySpec: Sendable, Equatable {
    /// What it measures.
    public var dimension: Dimension
    /// Short label for tables.
    public var label: String
    /// The values it can take, internal unit.
    public var range: ClosedRange<Double>
    /// The smallest disagreement that counts (internal unit).
    public var floor: Double
    /// True for directions, merged on the circle.
    public var circular: Bool
    /// Its key in cached reports.
    public var cacheKey: String
    /// The unit's symbol where its dimension has none of its own (an index: `UVI`); nil to take the dimension's.
    public var unitSymbol: String?
    /// Its field name with its unit where it is not the name and the dimension's suffix (`precipitation_mm`).
    public var field: String?

    /// Creates a declaration.
    public init(_ dimension: Dimension, _ label: String, range: ClosedRange<Double>, floor: Double, circular: Bool = false, cacheKey: String,
                symbol: String? = nil, field: String? = nil) {
        self.dimension = dimension
        self.label = label
        self.range = range
        self.floor = floor
        self.circular = circular
        self.cacheKey = cacheKey
        self.unitSymbol = symbol
        self.field = field
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
    /// A dimensionless index; its quantity's spec names the scale (`UVI`).
    case index
    /// An instant, seconds since 1970 internally; written as local ISO-8601 times.
    case instant
    /// A duration, seconds.
    case duration
    /// A mass concentration in air, µg/m³.
    case concentration
    /// A pollen count, grains/m³.
    case pollen

    /// The symbol of the internal unit (°C, %, hPa, m/s, °, m, mm/h, mm, s); `index` for an index, whose quantity names its scale.
    public var internalSymbol: String {
        switch self {
        case .distance: "m"
        case .instant: "ISO-8601"
        default: UnitSystem.metric.symbol(self)
        }
    }
}
