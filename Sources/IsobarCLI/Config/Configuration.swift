import FoundationEssentials
import IsobarCore
import IsobarHTTP

/// A configuration that cannot be used; exits with the configuration code.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line saying what is wrong and where.
    public let message: String
    /// Creates the error.
    public init(_ message: String) { self.message = MessageText.oneLine(message) }
    /// The message.
    public var description: String { message }
}

/// One provider as configured.
public struct ProviderEntry: Sendable {
    /// Id shown in output and used with `--providers`.
    public var id: String
    /// Adapter type, as declared by its factory.
    public var type: String
    /// Environment variable holding the API key.
    public var apiKeyEnv: String?
    /// API key written in the configuration file.
    public var apiKey: String?
    /// Base URL replacing the provider's default.
    public var baseURL: RequestURL?
    /// Base URL of the provider's geocoding service, where it has a separate host.
    public var geocodingURL: RequestURL?
    /// Transfer limits set in the entry (seconds to connect, seconds in all, largest body).
    public var limits: TransferLimits?
    /// `timeout_s`: seconds the provider may take within a command, retries included; nil for the command's deadline.
    public var budgetSeconds: Double?
    /// Rate limits replacing the provider's published ones.
    public var rateLimits: [RateLimit]?
    /// Seconds current conditions and forecasts stay fresh, replacing the provider's defaults.
    public var ttlSeconds: (current: Double?, forecast: Double?) = (nil, nil)
    /// Seconds a cached answer may be served, marked stale, when the provider fails.
    public var maxStaleSeconds: Double?
    /// `max_cooldown_s`: the longest pause a Retry-After may impose (default 1 h).
    public var maxCooldownSeconds: Double?
    /// Weight in the consensus (default 1).
    public var weight: Double?
    /// `max_concurrent_calls`: calls in flight to it at once, replacing the provider's declared bound.
    public var maxConcurrentCalls: Int?

    /// Cassette directory (absolute) to replay instead of going live.
    public var replay: String?
    /// Days of forecast to ask for, where the provider lets you choose.
    public var forecastDays: Int?
    /// False to keep the entry but not ask it.
    public var enabled: Bool
    /// The options of its type (`command`, `models`, `contact`…), read by its type's factory.
    public var options = ProviderOptions()
}

/// The whole configuration: units and providers.
public struct Configuration: Sendable {
    /// Units shown unless `--units` says otherwise.
    public var units: UnitSystem
    /// Directory of the cache database, when set.
    public var cacheDirectory: String?
    /// `shared_store`: the Redis URL many machines share (answers, limits, cooldowns, breakers, leases), when set.
    public var sharedStore: String?
    /// `expected_machines`: how many machines share the limits; each takes `limit ÷ this` while the shared store is away.
    public var expectedMachines = 1
    /// `shared_store_timeout_ms`: how long a connect or command to the shared store may take before the local store takes over.
    public var sharedStoreTimeoutMilliseconds = 100
    /// Providers in display order.
    public var providers: [ProviderEntry]
    /// The file it was read from, if any.
    public var file: String?
    /// `archive_days`: days of live forecasts and observations kept in the forecast archive; 0 keeps none.
    public var archiveDays = 60
    /// `observations`: where what actually happened is asked after each live command, for the archive; nil asks nowhere.
    public var observations: ObservationEntry?
    /// `air_providers`: the sources of air quality and pollen `isobar air` asks, in display order; nil for one of each air type
    /// that needs no option of its own.
    public var airProviders: [ProviderEntry]?
    /// `family_weight`: how much the sources of one family (one upstream) weigh together in the consensus.
    public var familyWeight: FamilyWeight = .one
    /// `weights`: `"equal"` (the configured weights, the default) or `"auto"` (weights learned from the forecast archive).
    public var weighting: WeightsMode = .equal
    /// `bias_correction`: with learned weights, subtract each source's learned bias before merging.
    public var biasCorrection = false
    /// `learn_on_first_use`: what learned weights do the first time they meet a place with nothing learned near it.
    public var learnOnFirstUse: FirstUseLearning = .ask

    /// The keys every provider entry may have; its type's factory declares the others (`ProviderFactory.optionKeys`).
    static let providerKeys = [
        "id", "type", "api_key_env", "api_key", "base_url", "geocoding_url", "replay", "forecast_days", "enabled",
        "connect_timeout_s", "timeout_s", "max_response_bytes", "rate_limits", "ttl_s", "max_stale_s", "max_cooldown_s", "weight",
        "max_concurrent_calls",
    ]
    /// The top-level keys.
    static let topLevelKeys = ["units", "providers", "cache_dir", "archive_days", "observations", "shared_store", "expected_machines",
                               "shared_store_timeout_ms", "family_weight", "weights",
                               "bias_correction", "learn_on_first_use", "air_providers"]

    /// Parses configuration text, each entry's own options read by its type's factory in `registry`; relative `replay` paths
    /// are taken from `directory`.
    public static func parse(_ bytes: [UInt8], file: String, directory: String,
                             registry: ProviderRegistry = .standard()) throws(ConfigurationError) -> Configuration {
        do {
            // A key named twice is refused wherever it is: which of the two values counts would be a guess.
            let root = try JSONDocument(parsing: bytes, rejectingDuplicateKeys: true).rootValue
            for (key, _) in try root.members() where !topLevelKeys.contains(key) {
                throw unknownKey(key, among: topLevelKeys, at: "$", file: file)
            }
            var configuration = Configuration(units: .metric, providers: [], file: file)
            if let days = try root.optionalInt("archive_days", in: 0...3_650) { configuration.archiveDays = days }
            if let entry = try root.nonNullMember("observations") { configuration.observations = try ObservationEntry(entry, file: file, directory: directory, registry: registry) }
            configuration.cacheDirectory = try root.optionalString("cache_dir").map { $0.hasPrefix("/") ? $0 : directory + "/" + $0 }
            try readSharedStore(root, into: &configuration, file: file)
            if let units = try root.optionalString("units") {
                guard let system = UnitSystem(rawValue: units) else {
                    throw ConfigurationError("\(file): units must be metric, imperial or standard, not '\(units)'")
                }
                configuration.units = system
            }
            if let familyWeight = try root.nonNullMember("family_weight") {
                configuration.familyWeight = try Self.familyWeight(familyWeight, file: file)
            }
            if let text = try root.optionalString("weights") {
                guard let mode = WeightsMode(rawValue: text) else { throw ConfigurationError("\(file): weights must be \"auto\" or \"equal\", not '\(text)'") }
                configuration.weighting = mode
            }
            if let correct = try root.nonNullMember("bias_correction") { configuration.biasCorrection = try correct.bool() }
            if let text = try root.optionalString("learn_on_first_use") {
                guard let choice = FirstUseLearning(rawValue: text) else {
                    throw ConfigurationError("\(file): learn_on_first_use must be \"ask\", \"always\" or \"never\", not '\(text.prefix(40))'")
                }
                configuration.learnOnFirstUse = choice
            }
            configuration.providers = try entries(root.member("providers"), registry: registry, file: file, directory: directory)
            if let air = try root.nonNullMember("air_providers") {
                configuration.airProviders = try entries(air, registry: registry.air, file: file, directory: directory)
            }
            return configuration
        } catch let error as JSONError where error.isDuplicateKey {
            throw ConfigurationError("\(file): \(error.path) is named twice; keep one")
        } catch let error as JSONError {
            throw ConfigurationError("\(file): \(error)")
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError("\(file): unreadable configuration")
        }
    }

    /// The entry's `key` as an endpoint: https, or plain http on a loopback host; nil when absent.
    private static func url(_ entry: JSONValue, _ key: String, file: String) throws -> RequestURL? {
        guard let text = try entry.optionalString(key) else { return nil }
        guard let url = RequestURL(string: text) else {
            throw ConfigurationError("\(file): \(entry.path).\(key) is not an http(s) URL")
        }
        guard url.scheme == "https" || CurlTransport.isLoopback(url.host) else {
            throw ConfigurationError("\(file): \(entry.path).\(key) must use https (plain http only for loopback hosts)")
        }
        return url
    }

    /// The entries of a list of providers (`providers`, `air_providers`), each one's own options read by its type's factory
    /// in `registry`.
    private static func entries(_ list: JSONValue, registry: ProviderRegistry, file: String, directory: String) throws -> [ProviderEntry] {
        var providers: [ProviderEntry] = []
        for entry in try list.elements() {
            let type = try entry.string("type")
            let factory = registry.factory(for: type)
            try checkKeys(entry, factory, file: file)
            var provider = ProviderEntry(
                id: try entry.optionalString("id") ?? type, type: type,
                apiKeyEnv: try entry.optionalString("api_key_env"), apiKey: try entry.optionalString("api_key"),
                baseURL: nil, geocodingURL: nil, limits: nil, replay: nil, forecastDays: try entry.optionalInt("forecast_days", in: 1...16),
                enabled: try entry.nonNullMember("enabled")?.bool() ?? true)
            provider.baseURL = try url(entry, "base_url", file: file)
            provider.geocodingURL = try url(entry, "geocoding_url", file: file)
            provider.limits = try limits(entry, file: file)
            provider.budgetSeconds = try entry.optionalDouble("timeout_s")
            try readPolicy(entry, into: &provider, file: file)
            if let factory { provider.options = try options(entry, factory, file: file, directory: directory) }
            if let replay = try entry.optionalString("replay") {
                provider.replay = replay.hasPrefix("/") ? replay : directory + "/" + replay
            }
            guard !providers.contains(where: { $0.id == provider.id }) else {
                throw ConfigurationError("\(file): two providers have the id '\(provider.id)'")
            }
            providers.append(provider)
        }
        return providers
    }

    /// Reads and parses a configuration file.
    public static func load(path: String, registry: ProviderRegistry = .standard()) throws(ConfigurationError) -> Configuration {
        let bytes = try ConfigurationFile.read(path)
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        return try parse(bytes, file: path, directory: directory.isEmpty ? "/" : directory, registry: registry)
    }

    private static func readPolicy(_ entry: JSONValue, into provider: inout ProviderEntry, file: String) throws {
        if let windows = try entry.nonNullMember("rate_limits") {
            provider.rateLimits = try windows.elements().map { window in
                let limit = try window.double("limit")
                let seconds = try window.double("per_s")
                guard limit > 0, limit.isFinite, seconds > 0, seconds <= 366 * 86_400 else {
                    throw ConfigurationError("\(file): \(window.path) needs a positive limit and a per_s of at most a year (31622400)")
                }
                return RateLimit(limit: limit, perSeconds: seconds)
            }
        }
        if let ttl = try entry.nonNullMember("ttl_s") {
            for (key, _) in try ttl.members() where !["current", "forecast"].contains(key) {
                throw unknownKey(key, among: ["current", "forecast"], at: ttl.path.description, file: file)
            }
            provider.ttlSeconds = (try ttl.optionalDouble("current"), try ttl.optionalDouble("forecast"))
            if [provider.ttlSeconds.current, provider.ttlSeconds.forecast].contains(where: { ($0 ?? 0) < 0 }) {
                throw ConfigurationError("\(file): \(ttl.path) values must not be negative")
            }
        }
        provider.maxStaleSeconds = try entry.optionalDouble("max_stale_s")
        provider.maxConcurrentCalls = try entry.optionalInt("max_concurrent_calls", in: 1...256)
        if let cap = try entry.optionalDouble("max_cooldown_s") {
            guard cap >= 0, cap <= 366 * 86_400 else { throw ConfigurationError("\(file): \(entry.path).max_cooldown_s must be 0 to a year (31622400)") }
            provider.maxCooldownSeconds = cap
        }
        if let weight = try entry.optionalDouble("weight") {
            guard weight >= 0, weight.isFinite else { throw ConfigurationError("\(file): \(entry.path).weight must be 0 or more") }
            provider.weight = weight
        }
    }

    /// Refuses a key that is neither common to every entry nor one of the type's own, saying which keys the type has.
    private static func checkKeys(_ entry: JSONValue, _ factory: ProviderFactory?, file: String) throws {
        let own = factory?.optionKeys ?? []
        for (key, _) in try entry.members() where !providerKeys.contains(key) && !own.contains(key) {
            let error = unknownKey(key, among: providerKeys + own, at: entry.path.description, file: file)
            guard let factory else { throw error }
            let hint = own.isEmpty ? "type \(factory.type) takes only the common keys"
                : "type \(factory.type) takes, besides the common keys, only \(own.joined(separator: ", "))"
            throw ConfigurationError("\(error.message) (\(hint))")
        }
    }

    /// The entry's own options, as its type's factory reads them.
    private static func options(_ entry: JSONValue, _ factory: ProviderFactory, file: String,
                                directory: String) throws(ConfigurationError) -> ProviderOptions {
        do {
            return try factory.readOptions(OptionSource(entry: entry, directory: directory))
        } catch {
            throw ConfigurationError("\(file): \(error.message)")
        }
    }

    /// `family_weight`: `"one"`, `"each"`, or a number of sources of at least 1 that a whole family may weigh.
    private static func familyWeight(_ value: JSONValue, file: String) throws -> FamilyWeight {
        if let number = try? value.double() {
            guard number >= 1, number.isFinite else { throw ConfigurationError("\(file): family_weight must be \"one\", \"each\" or a number of at least 1") }
            return .atMost(number)
        }
        switch try value.string() {
        case "one": return .one
        case "each": return .each
        case let other: throw ConfigurationError("\(file): family_weight must be \"one\", \"each\" or a number of at least 1, not '\(other)'")
        }
    }

    private static func limits(_ entry: JSONValue, file: String) throws -> TransferLimits? {
        let connect = try entry.optionalDouble("connect_timeout_s")
        let total = try entry.optionalDouble("timeout_s")
        let size = try entry.optionalInt("max_response_bytes")
        guard connect != nil || total != nil || size != nil else { return nil }
        var limits = TransferLimits()
        if let connect {
            guard connect > 0, connect <= 600 else { throw ConfigurationError("\(file): \(entry.path).connect_timeout_s must be in (0, 600]") }
            limits.connectTimeoutSeconds = connect
        }
        if let total {
            guard total > 0, total <= 600 else { throw ConfigurationError("\(file): \(entry.path).timeout_s must be in (0, 600]") }
            limits.totalTimeoutSeconds = total
        }
        if let size {
            guard size >= 1024 else { throw ConfigurationError("\(file): \(entry.path).max_response_bytes must be at least 1024") }
            limits.maxResponseBytes = size
        }
        return limits
    }

    static func unknownKey(_ key: String, among known: [String], at path: String, file: String) -> ConfigurationError {
        let suggestion = Spelling.closest(to: key, in: known).map { "; did you mean '\($0)'?" } ?? ""
        return ConfigurationError("\(file): unknown key '\(key)' at \(path)\(suggestion)")
    }
}

/// How the consensus weighs its sources: as configured, or as learned from the forecast archive.
public enum WeightsMode: String, Sendable, CaseIterable {
    /// Learned per field and lead time from the archive (the v2 merge); the configured rule while there is too little history.
    case auto
    /// The configured weights (1 each unless `weight` or `--weights ID=W` says otherwise): the v1 merge.
    case equal
}
