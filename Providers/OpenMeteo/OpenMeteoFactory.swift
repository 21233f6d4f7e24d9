import IsobarCore

extension OpenMeteoProvider {
    /// How Isobar builds Open-Meteo from a configuration entry; it needs no key (one for the commercial service is used when set).
    public static let factory = ProviderFactory(
        type: "open-meteo", summary: "Open-Meteo: current, hourly, daily, 16 days; no key", keyVariable: nil,
        optionKeys: OpenMeteoOptions.keys, readOptions: OpenMeteoOptions.read,
        make: { context throws(ProviderError) in
            let settings = context.settings
            var configuration = Configuration(id: settings.id, forecastDays: settings.forecastDays ?? 16)
            if let url = settings.baseURL { configuration.baseURL = url }
            if !settings.isReplay { configuration.apiKey = settings.apiKey }
            configuration.models = settings.options.value(as: OpenMeteoOptions.self)?.models ?? []
            configuration.previousRunsURL = settings.options.value(as: OpenMeteoOptions.self)?.previousRunsURL
            return OpenMeteoProvider(configuration: configuration)
        },
        geocoder: { context in
            context.settings.geocodingURL.map(OpenMeteoGeocoder.init(baseURL:)) ?? OpenMeteoGeocoder()
        })
}
