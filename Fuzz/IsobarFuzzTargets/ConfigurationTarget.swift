import IsobarCLI

/// A configuration file through the loader, then each provider entry through the registry's settings, as a command does.
enum ConfigurationTarget {
    /// The target.
    static let target = FuzzTarget(name: "configuration", summary: "a configuration file (config/*.json)") { bytes in
        let configuration: Configuration
        do throws(ConfigurationError) {
            configuration = try Configuration.parse(bytes, file: "fuzz.json", directory: "/fuzz")
        } catch {
            return FuzzTarget.refusal(error.message)
        }
        let registry = ProviderRegistry.standard()
        var known = 0
        for entry in configuration.providers {
            let settings = registry.settings(entry, ["OPENWEATHERMAP_API_KEY": "k"])
            guard settings.id == entry.id else { return .violated("settings for '\(entry.id)' carry the id '\(settings.id)'") }
            if registry.factory(for: entry.type) != nil { known += 1 }
        }
        return .accepted("\(configuration.providers.count) providers, \(known) of a known type, units \(configuration.units.rawValue)")
    }
}
