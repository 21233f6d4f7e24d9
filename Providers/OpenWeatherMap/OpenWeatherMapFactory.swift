import IsobarCore

extension OpenWeatherMapProvider {
    /// How Isobar builds OpenWeatherMap from a configuration entry; it needs a key, read from `OPENWEATHERMAP_API_KEY` by default.
    public static let factory = ProviderFactory(
        type: "openweathermap", summary: "OpenWeatherMap: current + 3-hourly, 5 days; needs a key", keyVariable: "OPENWEATHERMAP_API_KEY",
        make: { context throws(ProviderError) in
            let settings = context.settings
            let key = settings.isReplay ? "replay" : settings.apiKey
            var configuration = Configuration(id: settings.id, apiKey: key, apiKeySource: settings.apiKeyVariable ?? "OPENWEATHERMAP_API_KEY")
            if let url = settings.baseURL { configuration.baseURL = url }
            return OpenWeatherMapProvider(configuration: configuration)
        },
        geocoder: { context in
            // Its geocoding needs the key, and a live provider.
            let settings = context.settings
            guard !settings.isReplay, let key = settings.apiKey else { return nil }
            guard let url = settings.geocodingURL ?? settings.baseURL else { return OpenWeatherMapGeocoder(apiKey: key) }
            return OpenWeatherMapGeocoder(baseURL: url, apiKey: key)
        })
}
