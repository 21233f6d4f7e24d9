import IsobarCore

/// MET Norway's weather symbols (the metno/weathericons legend) in Isobar's conditions.
public enum METNorwaySymbols {
    /// The condition of a `symbol_code` such as `lightrainshowers_day`; nil for a code outside the legend.
    public static func condition(_ symbolCode: String) -> Condition? {
        let base = symbolCode.split(separator: "_", maxSplits: 1).first.map(String.init) ?? symbolCode
        return conditions[base]
    }

    /// Every base code of the legend (without `_day`, `_night`, `_polartwilight`), with its condition. Two are misspelled
    /// upstream and kept so: `lightssleetshowersandthunder`, `lightssnowshowersandthunder`.
    public static let conditions: [String: Condition] = [
        "clearsky": .clear, "fair": .mainlyClear, "partlycloudy": .partlyCloudy, "cloudy": .cloudy, "fog": .fog,
        "lightrainshowers": .rainShowers, "rainshowers": .rainShowers, "heavyrainshowers": .rainShowers,
        "lightrainshowersandthunder": .thunderstorm, "rainshowersandthunder": .thunderstorm, "heavyrainshowersandthunder": .thunderstorm,
        "lightsleetshowers": .rainAndSnow, "sleetshowers": .rainAndSnow, "heavysleetshowers": .rainAndSnow,
        "lightssleetshowersandthunder": .thunderstorm, "sleetshowersandthunder": .thunderstorm, "heavysleetshowersandthunder": .thunderstorm,
        "lightsnowshowers": .snowShowers, "snowshowers": .snowShowers, "heavysnowshowers": .snowShowers,
        "lightssnowshowersandthunder": .thunderstorm, "snowshowersandthunder": .thunderstorm, "heavysnowshowersandthunder": .thunderstorm,
        "lightrain": .rain, "rain": .rain, "heavyrain": .rain,
        "lightrainandthunder": .thunderstorm, "rainandthunder": .thunderstorm, "heavyrainandthunder": .thunderstorm,
        "lightsleet": .rainAndSnow, "sleet": .rainAndSnow, "heavysleet": .rainAndSnow,
        "lightsleetandthunder": .thunderstorm, "sleetandthunder": .thunderstorm, "heavysleetandthunder": .thunderstorm,
        "lightsnow": .snow, "snow": .snow, "heavysnow": .snow,
        // The correct spellings too, should the legend ever be fixed.
        "lightsleetshowersandthunder": .thunderstorm, "lightsnowshowersandthunder": .thunderstorm,
        "lightsnowandthunder": .thunderstorm, "snowandthunder": .thunderstorm, "heavysnowandthunder": .thunderstorm,
    ]
}
