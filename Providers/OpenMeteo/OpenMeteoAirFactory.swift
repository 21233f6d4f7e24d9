import IsobarCore

extension OpenMeteoAirProvider {
    /// How Isobar builds Open-Meteo's air quality from a configuration entry; it needs no key.
    public static let factory = ProviderFactory(
        type: "open-meteo-air", summary: "Open-Meteo Air (CAMS): pollutants and pollen, now + hourly, 5 days; no key", keyVariable: nil,
        optionKeys: OpenMeteoAirOptions.keys, readOptions: OpenMeteoAirOptions.read,
        make: { context throws(ProviderError) in
            let settings = context.settings
            var configuration = Configuration(id: settings.id, forecastDays: min(settings.forecastDays ?? 5, 7))
            if let url = settings.baseURL { configuration.baseURL = url }
            configuration.domain = settings.options.value(as: OpenMeteoAirOptions.self)?.domain ?? .auto
            return OpenMeteoAirProvider(configuration: configuration)
        })
}
