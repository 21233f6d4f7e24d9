import FixtureReplay
import IsobarCore
import IsobarEngine
import OpenMeteo
import OpenWeatherMap

/// The adapter types this build knows, and how to build each from a configuration entry. This is the composition root.
public struct ProviderRegistry: Sendable {
    /// Builds one adapter type.
    public struct Factory: Sendable {
        /// The `type` value in the configuration.
        public let type: String
        /// One line for help.
        public let summary: String
        /// Builds the provider from its entry and the environment.
        public let make: @Sendable (ProviderEntry, [String: String]) -> any WeatherProvider
    }

    /// Known types in help order.
    public let factories: [Factory]

    /// The adapters compiled into Isobar.
    public static func standard() -> ProviderRegistry {
        ProviderRegistry(factories: [
            Factory(type: "openweathermap", summary: "OpenWeatherMap: current + 3-hourly, 5 days; needs a key") { entry, environment in
                let keySource = entry.keyVariable ?? "OPENWEATHERMAP_API_KEY"
                let key = entry.replay != nil ? "replay" : entry.resolvedKey(environment)
                var configuration = OpenWeatherMapProvider.Configuration(id: entry.id, apiKey: key, apiKeySource: keySource)
                if let url = entry.baseURL { configuration.baseURL = url }
                return OpenWeatherMapProvider(configuration: configuration)
            },
            Factory(type: "open-meteo", summary: "Open-Meteo: current, hourly, daily, 16 days; no key") { entry, environment in
                var configuration = OpenMeteoProvider.Configuration(id: entry.id, forecastDays: entry.forecastDays ?? 16)
                if let url = entry.baseURL { configuration.baseURL = url }
                if entry.replay == nil { configuration.apiKey = entry.resolvedKey(environment) }
                return OpenMeteoProvider(configuration: configuration)
            },
        ])
    }

    /// The provider's declared limits and lifetimes, with the entry's overrides.
    public func policy(_ entry: ProviderEntry, _ provider: any WeatherProvider) -> ProviderPolicy {
        var policy = ProviderPolicy(declaredBy: provider)
        if let limits = entry.rateLimits { policy.rateLimits = limits }
        if let current = entry.ttlSeconds.current { policy.currentTTLSeconds = current }
        if let forecast = entry.ttlSeconds.forecast { policy.forecastTTLSeconds = forecast }
        if let stale = entry.maxStaleSeconds { policy.maxStaleSeconds = stale }
        return policy
    }

    /// The factory for a type, if known.
    public func factory(for type: String) -> Factory? { factories.first { $0.type == type } }

    /// The enabled providers of a configuration, each bound to its transport: replay entries to their cassettes,
    /// others to `live` (created only when needed) with their limits, passed through `wrapLive` (for recording).
    public func bindings(for configuration: Configuration, environment: [String: String], live: () -> any Transport,
                         wrapLive: (ProviderEntry, any Transport) -> any Transport = { $1 }) throws(ConfigurationError) -> [ProviderBinding] {
        var bindings: [ProviderBinding] = []
        for entry in configuration.providers where entry.enabled {
            guard let factory = factory(for: entry.type) else {
                let suggestion = Spelling.closest(to: entry.type, in: factories.map(\.type)).map { "; did you mean '\($0)'?" } ?? ""
                throw ConfigurationError("\(configuration.file ?? "configuration"): unknown provider type '\(entry.type)'\(suggestion)")
            }
            let provider = factory.make(entry, environment)
            if let directory = entry.replay {
                let library: CassetteLibrary
                do {
                    library = try CassetteLibrary(directory: directory)
                } catch {
                    throw ConfigurationError("provider '\(entry.id)': \(error.message)")
                }
                let replay = FixtureReplayProvider(base: provider, library: library)
                bindings.append(ProviderBinding(provider: replay, transport: ReplayTransport(library: library)))
            } else {
                let limited = entry.limits.map { LimitingTransport(base: live(), limits: $0) as any Transport } ?? live()
                bindings.append(ProviderBinding(provider: provider, transport: wrapLive(entry, limited), policy: policy(entry, provider)))
            }
        }
        return bindings
    }
}

/// A transport that never touches the network: every request fails plainly (for listings, and for tests that must stay on this machine).
public struct NoNetworkTransport: Transport {
    /// Creates the transport.
    public init() {}

    /// Fails with `unavailable`, naming the host (never the query, which may hold a key).
    public func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        throw ProviderError(.unavailable, "\(request.url.host) was not contacted: the network is off here (use --demo or a \"replay\" provider)")
    }
}
