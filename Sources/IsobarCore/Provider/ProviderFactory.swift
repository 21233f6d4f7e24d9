import FoundationEssentials

/// One provider's entry of the configuration, as an adapter sees it: only what every adapter may use.
public struct ProviderSettings: Sendable {
    /// Id shown in output and used with `--providers`.
    public var id: String
    /// Adapter type, e.g. `open-meteo`.
    public var type: String
    /// Base URL replacing the adapter's default.
    public var baseURL: RequestURL?
    /// Base URL of the provider's geocoding service, where it has a separate host.
    public var geocodingURL: RequestURL?
    /// The API key (from the configuration file or the environment), when there is one.
    public var apiKey: String?
    /// Where the key is looked for, for "not configured" messages.
    public var apiKeyVariable: String?
    /// Days of forecast to ask for, where the provider lets you choose.
    public var forecastDays: Int?
    /// True when answers are replayed from recordings (no key is needed then).
    public var isReplay: Bool
    /// The options of its type, as its factory read them from the entry.
    public var options: ProviderOptions
    /// The user's configuration file, where the entry's options are set (the file read, or where `isobar setup` writes one),
    /// for messages that say where to change them; nil when unknown.
    public var configurationFile: String?
    /// True when `configurationFile` exists (the entry was read from it).
    public var configurationFileExists = true

    /// Creates settings.
    public init(id: String, type: String, baseURL: RequestURL? = nil, geocodingURL: RequestURL? = nil, apiKey: String? = nil,
                apiKeyVariable: String? = nil, forecastDays: Int? = nil, isReplay: Bool = false, options: ProviderOptions = ProviderOptions(),
                configurationFile: String? = nil) {
        self.id = id
        self.type = type
        self.baseURL = baseURL
        self.geocodingURL = geocodingURL
        self.apiKey = apiKey
        self.apiKeyVariable = apiKeyVariable
        self.forecastDays = forecastDays
        self.isReplay = isReplay
        self.options = options
        self.configurationFile = configurationFile
    }
}

/// Everything a provider is built with.
public struct ProviderContext: Sendable {
    /// Its configuration entry.
    public var settings: ProviderSettings
    /// The process environment.
    public var environment: [String: String]
    /// The clock.
    public var time: any TimeSource
    /// The transport it will be handed (for adapters that discover their capabilities at build time).
    public var transport: any Transport
    /// Where an adapter writes notes for people (stderr under `--verbose`).
    public var log: @Sendable (String) -> Void
    /// When anything the adapter asks while it is built (a plug-in's `describe`) must have ended: the command's deadline, on
    /// the system clock; nil leaves the adapter's own limit.
    public var deadline: Date?
    /// The directory of Isobar's bundled data (station lists and the like), when it was found.
    public var dataDirectory: String?

    /// Creates a context.
    public init(settings: ProviderSettings, environment: [String: String] = [:], time: any TimeSource = SystemTime(),
                transport: any Transport, log: @escaping @Sendable (String) -> Void = { _ in }, deadline: Date? = nil,
                dataDirectory: String? = nil) {
        self.settings = settings
        self.dataDirectory = dataDirectory
        self.environment = environment
        self.time = time
        self.transport = transport
        self.log = log
        self.deadline = deadline
    }
}

/// Finds places by name: declared by adapters whose provider offers it.
public protocol Geocoding: Sendable {
    /// Id used to cache its answers, e.g. `open-meteo`.
    var id: String { get }
    /// The key its answers are cached under (its id unless it says otherwise).
    var cacheKey: String { get }
    /// Up to `limit` places matching `name`, best first.
    func search(_ name: String, limit: Int, context: FetchContext) async throws(ProviderError) -> [Place]
}

extension Geocoding {
    /// Answers are cached under the id.
    public var cacheKey: String { id }
}

/// How an adapter type is built: declared by the adapter, listed once in the registry.
public struct ProviderFactory: Sendable {
    /// The `type` value in the configuration, e.g. `open-meteo`.
    public let type: String
    /// One line for help.
    public let summary: String
    /// The environment variable the key is read from unless the entry names another; nil when the type needs no key.
    public let keyVariable: String?
    /// The keys of its own a configuration entry of this type may have, besides the ones every entry may have.
    public let optionKeys: [String]
    /// Reads its own options from an entry (called for every entry of the type, so that a missing option can be refused).
    public let readOptions: @Sendable (OptionSource) throws(OptionError) -> ProviderOptions
    /// The environment variable a contact is read from when the entry sets no `contact`; nil when the type needs no contact.
    public let contactVariable: String?
    /// The kinds its providers give, known before one is built: weather, alerts or both. A type that gives no weather is
    /// never in the built-in default configuration; it is added by an entry of its own.
    public let kinds: Set<DataKind>
    /// Builds the provider; may ask the provider about itself first, and may fail with a reason.
    public let make: @Sendable (ProviderContext) async throws(ProviderError) -> any WeatherProvider
    /// Its geocoder for a context, when it has one and can use it (e.g. only with a key).
    public let geocoder: @Sendable (ProviderContext) -> (any Geocoding)?

    /// Declares an adapter type.
    public init(type: String, summary: String, keyVariable: String? = nil, optionKeys: [String] = [],
                readOptions: @escaping @Sendable (OptionSource) throws(OptionError) -> ProviderOptions = { _ in ProviderOptions() },
                contactVariable: String? = nil, kinds: Set<DataKind> = DataKind.weather,
                make: @escaping @Sendable (ProviderContext) async throws(ProviderError) -> any WeatherProvider,
                geocoder: @escaping @Sendable (ProviderContext) -> (any Geocoding)? = { _ in nil }) {
        self.type = type
        self.summary = summary
        self.keyVariable = keyVariable
        self.optionKeys = optionKeys
        self.readOptions = readOptions
        self.contactVariable = contactVariable
        self.kinds = kinds
        self.make = make
        self.geocoder = geocoder
    }
}
