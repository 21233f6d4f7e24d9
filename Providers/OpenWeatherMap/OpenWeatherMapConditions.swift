import IsobarCore

extension Condition {
    /// The condition of an OpenWeatherMap condition id, or nil for an id outside its table.
    public init?(openWeatherMapID id: Int) {
        switch id {
        case 200, 201, 202, 210, 211, 212, 221, 230, 231, 232: self = .thunderstorm
        case 300, 301, 302, 310, 311, 312, 321: self = .drizzle
        case 313, 314, 520, 521, 522, 531: self = .rainShowers
        case 500, 501, 502, 503, 504: self = .rain
        case 511: self = .freezingRain
        case 600, 601, 602: self = .snow
        case 611, 612, 613, 615, 616: self = .rainAndSnow
        case 620, 621, 622: self = .snowShowers
        case 701, 741: self = .fog
        case 711, 721, 731, 751, 761, 762: self = .haze
        case 771: self = .squall
        case 781: self = .tornado
        case 800: self = .clear
        case 801: self = .mainlyClear
        case 802: self = .partlyCloudy
        case 803, 804: self = .cloudy
        default: return nil
        }
    }
}
