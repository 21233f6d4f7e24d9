import FoundationEssentials
import IsobarCore

/// Turns OpenWeatherMap `/data/2.5/air_pollution` bodies (current and forecast share one shape) into the canonical model.
public struct OpenWeatherMapAirDecoder: Sendable {
    /// Name used in error messages.
    public var providerName: String

    /// OpenWeatherMap's own scale, shown as its own and never merged.
    public static let scale = "OpenWeatherMap 1–5"
    /// The scale's words for 1–5.
    public static let categories = ["Good", "Fair", "Moderate", "Poor", "Very Poor"]

    /// OpenWeatherMap's `components` member for each quantity it gives (all in µg/m³).
    static let components: [(Quantity, String)] = [
        (.pm25, "pm2_5"), (.pm10, "pm10"), (.ozone, "o3"), (.nitrogenDioxide, "no2"), (.sulphurDioxide, "so2"), (.carbonMonoxide, "co"),
    ]

    /// Creates a decoder.
    public init(providerName: String = "OpenWeatherMap Air") { self.providerName = providerName }

    /// The hours of a body in time order, each with its concentrations and OpenWeatherMap's own index; a value of the wrong
    /// type is left out with a warning.
    public func decode(_ response: HTTPResponse, now: Date) throws(ProviderError) -> (samples: [WeatherSample], warnings: [ValueWarning]) {
        let body = try CheckedBody(response, provider: providerName, messageKey: "message", now: now)
        return try ProviderError.decoding(provider: providerName) {
            let root = try body.root()
            var warnings: [ValueWarning] = []
            var samples: [WeatherSample] = []
            for item in try root.member("list").elements() {
                var sample = WeatherSample(time: Date(timeIntervalSince1970: try item.double("dt", in: PlausibleRange.unixSeconds)), periodHours: 1)
                let components = try item.member("components")
                for (quantity, name) in Self.components {
                    sample[quantity] = try components.tolerantDouble(name, &warnings)
                }
                if let index = try item.nonNullMember("main")?.tolerantDouble("aqi", &warnings), (1...5).contains(index), index == index.rounded() {
                    sample.providerAirIndex = ProviderAirIndex(scale: Self.scale, value: index, category: Self.categories[Int(index) - 1])
                }
                samples.append(sample)
            }
            samples.sort { $0.time < $1.time }
            return (samples, warnings)
        }
    }
}
