import FoundationEssentials
import Exec
import FixtureReplay
import IsobarCore
import IsobarEngine
import METAlerts
import MeteoAlarm
import METAR
import METNorway
import NWSAlerts
import OpenMeteo
import OpenWeatherMap

/// The adapter types this build knows, each declared by its adapter. This is the composition root: adding a compiled
/// provider is one line here, and the only file of the command line that names a provider's type.
public struct ProviderRegistry: Sendable {
    /// Known types in help order.
    public let factories: [ProviderFactory]
    /// Known sources of observations (the configuration's `observations` entry).
    public let observationFactories: [ProviderFactory]
    /// Known sources of air quality and pollen (the configuration's `air_providers`).
    public let airFactories: [ProviderFactory]

    /// A registry of the given types.
    public init(factories: [ProviderFactory], observationFactories: [ProviderFactory] = [], airFactories: [ProviderFactory] = []) {
        self.factories = factories
        self.observationFactories = observationFactories
        self.airFactories = airFactories
    }

    /// The registry of the air sources: their types in the place of the weather's, for building `air_providers`.
    public var air: ProviderRegistry { ProviderRegistry(factories: airFactories) }

    /// The adapters compiled into Isobar.
    public static func standard() -> ProviderRegistry {
        ProviderRegistry(factories: [
            OpenWeatherMapProvider.factory,
            OpenMeteoProvider.factory,
            METNorwayProvider.factory(application: "isobar/\(IsobarCommandLine.version)"),
            ExecProvider.factory,
            NWSAlertsProvider.factory(application: "isobar/\(IsobarCommandLine.version)"),
            METAlertsProvider.factory(application: "isobar/\(IsobarCommandLine.version)"),
            OpenWeatherMapAlertsProvider.factory,
            MeteoAlarmProvider.factory(application: "isobar/\(IsobarCommandLine.version)"),
        ], observationFactories: [
            METARProvider.factory,
        ], airFactories: [
            OpenMeteoAirProvider.factory,
            OpenWeatherMapAirProvider.factory,
            ExecProvider.factory,
        ])
    }

    /// This registry with `factory` added after the others (for adapters built outside this package).
    public func adding(_ factory: ProviderFactory) -> ProviderRegistry {
        ProviderRegistry(factories: factories + [factory], observationFactories: observationFactories, airFactories: airFactories)
    }

    /// The configuration used when there is no file: one provider of each type that needs no option of its own (an
    /// outside program needs its command), ids equal to types.
    public func defaultConfiguration() -> Configuration {
        // Alert sources are added by an entry of their own: the defaults, and so `setup` and the help, stay weather.
        let entries = factories.filter { !$0.kinds.isDisjoint(with: DataKind.weather) }.compactMap { factory -> ProviderEntry? in
            guard let options = Self.optionsOfBareEntry(factory) else { return nil }
            var entry = ProviderEntry(id: factory.type, type: factory.type, enabled: true)
            entry.options = options
            return entry
        }
        return Configuration(units: .metric, providers: entries, file: nil)
    }

    /// The options a factory reads from an entry with nothing but its type; nil when it refuses one.
    private static func optionsOfBareEntry(_ factory: ProviderFactory) -> ProviderOptions? {
        do {
            let entry = try JSONDocument(parsing: JSONOutput.object([("type", .string(factory.type))]).serialized()).rootValue
            return try factory.readOptions(OptionSource(entry: entry, directory: "."))
        } catch {
            return nil
        }
    }

    /// The provider's declared limits and lifetimes, with the entry's overrides.
    public func policy(_ entry: ProviderEntry, _ provider: any WeatherProvider) -> ProviderPolicy {
        var policy = ProviderPolicy(declaredBy: provider)
        if let limits = entry.rateLimits { policy.rateLimits = limits }
        if let current = entry.ttlSeconds.current { policy.currentTTLSeconds = current }
        if let forecast = entry.ttlSeconds.forecast { policy.forecastTTLSeconds = forecast }
        if let stale = entry.maxStaleSeconds { policy.maxStaleSeconds = stale }
        if let cap = entry.maxCooldownSeconds { policy.maxCooldownSeconds = cap }
        policy.budgetSeconds = entry.budgetSeconds
        if let calls = entry.maxConcurrentCalls { policy.maxConcurrentCalls = calls }
        return policy
    }

    /// The factory for a type, if known.
    public func factory(for type: String) -> ProviderFactory? { factories.first { $0.type == type } }

    /// The factory for a type of observation source, if known.
    public func observationFactory(for type: String) -> ProviderFactory? { observationFactories.first { $0.type == type } }

    /// The observation source of an `observations` entry, asked through `transport`; its station list is read from `dataDirectory`.
    public func observer(_ entry: ObservationEntry, environment: [String: String], transport: any Transport,
                         dataDirectory: String) async throws(ConfigurationError) -> any WeatherProvider {
        guard let factory = observationFactory(for: entry.type) else {
            throw ConfigurationError("unknown observation source '\(entry.type)'")
        }
        let settings = ProviderSettings(id: entry.type, type: entry.type, baseURL: entry.baseURL, options: entry.options)
        do {
            return try await factory.make(ProviderContext(settings: settings, environment: environment, transport: transport,
                                                          dataDirectory: dataDirectory))
        } catch {
            throw ConfigurationError("observation source '\(entry.type)' cannot be set up: \(error.message)")
        }
    }

    /// The variable an entry's key is read from: its `api_key_env`, else its type's usual one.
    public func keyVariable(_ entry: ProviderEntry) -> String? { entry.apiKeyEnv ?? factory(for: entry.type)?.keyVariable }

    /// The key from the configuration file or the environment; nil when neither has a non-empty one.
    public func key(_ entry: ProviderEntry, _ environment: [String: String]) -> String? {
        let key = entry.apiKey ?? keyVariable(entry).flatMap { environment[$0] }
        return key?.isEmpty == false ? key : nil
    }

    /// What an adapter sees of an entry; `file` is the user's configuration file where its options are set, and whether it exists.
    public func settings(_ entry: ProviderEntry, _ environment: [String: String], file: (path: String, exists: Bool)? = nil) -> ProviderSettings {
        var settings = ProviderSettings(id: entry.id, type: entry.type, baseURL: entry.baseURL, geocodingURL: entry.geocodingURL,
                         apiKey: entry.replay == nil ? key(entry, environment) : nil, apiKeyVariable: keyVariable(entry),
                         forecastDays: entry.forecastDays, isReplay: entry.replay != nil, options: entry.options,
                         configurationFile: file?.path)
        settings.configurationFileExists = file?.exists ?? false
        return settings
    }

    /// The geocoders of the enabled live providers that offer one, in configuration order; `wrap` puts each one's requests
    /// through its own transport over the one they are given (its rate limits).
    public func geocoders(for configuration: Configuration, environment: [String: String], transport: any Transport, time: any TimeSource,
                          wrap: @escaping @Sendable (ProviderEntry, any Transport) -> any Transport = { $1 }) -> [any Geocoding] {
        configuration.providers.filter { $0.enabled && $0.replay == nil }.compactMap { entry -> (any Geocoding)? in
            guard let geocoder = factory(for: entry.type)?.geocoder(ProviderContext(settings: settings(entry, environment),
                                                                                   environment: environment, time: time, transport: transport))
            else { return nil }
            // Answers are cached per geocoder and endpoint, so that two configurations never share them.
            let endpoint = "\(entry.geocodingURL?.string ?? "default")|\(entry.baseURL?.string ?? "default")"
            return EndpointGeocoder(base: geocoder, cacheKey: "\(geocoder.id)@\(Fingerprint.hex(endpoint))", wrap: { wrap(entry, $0) })
        }
    }

    /// The enabled providers of a configuration, each bound to its transport: replay entries to their cassettes,
    /// others to `live` (created only when needed) with their limits, passed through `wrapLive` (for recording). `userFile`
    /// is where the user sets the entries' options, for messages (by default the file read).
    public func bindings(for configuration: Configuration, environment: [String: String], time: any TimeSource = SystemTime(),
                         log: @escaping @Sendable (String) -> Void = { _ in }, deadline: Date? = nil, live: () -> any Transport,
                         userFile: (path: String, exists: Bool)? = nil,
                         wrapLive: (ProviderEntry, any Transport) -> any Transport = { $1 }) async throws(ConfigurationError) -> [ProviderBinding] {
        let file = userFile ?? configuration.file.map { ($0, true) }
        var bindings: [ProviderBinding] = []
        for entry in configuration.providers where entry.enabled {
            guard let factory = factory(for: entry.type) else {
                let suggestion = Spelling.closest(to: entry.type, in: factories.map(\.type)).map { "; did you mean '\($0)'?" } ?? ""
                throw ConfigurationError("\(configuration.file ?? "configuration"): unknown provider type '\(entry.type)'\(suggestion)")
            }
            if let directory = entry.replay {
                let library: CassetteLibrary
                do {
                    library = try CassetteLibrary(directory: directory)
                } catch {
                    throw ConfigurationError("provider '\(entry.id)': \(error.message)")
                }
                let transport = ReplayTransport(library: library)
                let provider = try await make(factory, entry, environment, time, transport, log, deadline, file: file)
                bindings.append(ProviderBinding(provider: FixtureReplayProvider(base: provider, library: library), transport: transport))
            } else {
                let limited = entry.limits.map { LimitingTransport(base: live(), limits: $0) as any Transport } ?? live()
                let transport = wrapLive(entry, limited)
                let provider = try await make(factory, entry, environment, time, transport, log, deadline, file: file)
                let policy = policy(entry, provider)
                try Self.checkFits(policy, provider, entry, file: configuration.file)
                bindings.append(ProviderBinding(provider: provider, transport: transport, policy: policy, endpoint: Self.endpoint(entry)))
            }
        }
        return bindings
    }

    /// Refuses rate limits that one full request can never fit (it would be `rate_limited` on every run).
    static func checkFits(_ policy: ProviderPolicy, _ provider: any WeatherProvider, _ entry: ProviderEntry,
                          file: String?) throws(ConfigurationError) {
        guard let anywhere = Coordinate(latitude: 0, longitude: 0) else { return }
        let cost = provider.callCost(of: WeatherRequest(place: Place(name: "", coordinate: anywhere), kinds: provider.capabilities.kinds))
        for window in policy.rateLimits where cost > window.limit + 1e-9 {
            let calls = JSONOutput.format((cost * 10).rounded() / 10)
            throw ConfigurationError("\(file ?? "configuration"): provider '\(entry.id)': one request counts as \(calls) calls, "
                + "more than its rate limit of \(JSONOutput.format((window.limit * 10).rounded() / 10)) per \(SpokenDuration.seconds(window.perSeconds)) s; raise that limit")
        }
    }

    /// What decides a provider's answers besides the place: its type, base URL, forecast days and what its options add.
    static func endpoint(_ entry: ProviderEntry) -> String {
        "type=\(entry.type);base=\(entry.baseURL?.string ?? "default");days=\(entry.forecastDays.map(String.init) ?? "default")"
            + (entry.options.endpoint.map { ";\($0)" } ?? "")
    }

    private func make(_ factory: ProviderFactory, _ entry: ProviderEntry, _ environment: [String: String], _ time: any TimeSource,
                      _ transport: any Transport, _ log: @escaping @Sendable (String) -> Void,
                      _ deadline: Date?, file: (path: String, exists: Bool)?) async throws(ConfigurationError) -> any WeatherProvider {
        let context = ProviderContext(settings: settings(entry, environment, file: file), environment: environment, time: time, transport: transport, log: log,
                                      deadline: deadline)
        do {
            return try await factory.make(context)
        } catch {
            throw ConfigurationError("provider '\(entry.id)' cannot be set up: \(error.message)")
        }
    }
}

/// A geocoder whose answers are cached under a key naming its endpoint too.
struct EndpointGeocoder: Geocoding {
    let base: any Geocoding
    let cacheKey: String
    /// The transport its requests go through, over the one the search is given.
    let wrap: @Sendable (any Transport) -> any Transport

    var id: String { base.id }

    func search(_ name: String, limit: Int, context: FetchContext) async throws(ProviderError) -> [Place] {
        var wrapped = context
        wrapped.transport = wrap(context.transport)
        return try await base.search(name, limit: limit, context: wrapped)
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
