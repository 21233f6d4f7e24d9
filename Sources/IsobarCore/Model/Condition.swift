/// The normalised weather condition vocabulary; cases are declared in increasing order of severity.
public enum Condition: Int, Sendable, CaseIterable, Comparable, Hashable {
    /// No cloud.
    case clear
    /// A few clouds.
    case mainlyClear
    /// Some cloud, some sun.
    case partlyCloudy
    /// Mostly or fully overcast.
    case cloudy
    /// Smoke, haze, dust, sand or ash in the air.
    case haze
    /// Fog or mist.
    case fog
    /// Drizzle.
    case drizzle
    /// Drizzle that freezes on contact.
    case freezingDrizzle
    /// Rain showers.
    case rainShowers
    /// Rain.
    case rain
    /// Rain that freezes on contact.
    case freezingRain
    /// Rain and snow together (sleet).
    case rainAndSnow
    /// Snow grains.
    case snowGrains
    /// Snow showers.
    case snowShowers
    /// Snow.
    case snow
    /// Squalls.
    case squall
    /// Thunderstorm.
    case thunderstorm
    /// Thunderstorm with hail.
    case thunderstormWithHail
    /// Tornado.
    case tornado

    /// The stable identifier used in JSON output, e.g. `partly_cloudy`.
    public var id: String {
        switch self {
        case .clear: "clear"
        case .mainlyClear: "mainly_clear"
        case .partlyCloudy: "partly_cloudy"
        case .cloudy: "cloudy"
        case .haze: "haze"
        case .fog: "fog"
        case .drizzle: "drizzle"
        case .freezingDrizzle: "freezing_drizzle"
        case .rainShowers: "rain_showers"
        case .rain: "rain"
        case .freezingRain: "freezing_rain"
        case .rainAndSnow: "rain_and_snow"
        case .snowGrains: "snow_grains"
        case .snowShowers: "snow_showers"
        case .snow: "snow"
        case .squall: "squall"
        case .thunderstorm: "thunderstorm"
        case .thunderstormWithHail: "thunderstorm_with_hail"
        case .tornado: "tornado"
        }
    }

    /// Words for people, e.g. `partly cloudy`.
    public var label: String { id.replacingUnderscores() }

    /// True when the condition means something falls from the sky.
    public var isPrecipitation: Bool { self >= .drizzle && self != .squall && self != .tornado }

    public static func < (lhs: Condition, rhs: Condition) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension String {
    fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "_" ? " " : $0 })
    }
}
