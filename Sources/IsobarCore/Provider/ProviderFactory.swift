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
    /// An e-mail address or URL where the provider can reach whoever runs Isobar, for providers whose terms ask for one.
    public var contact: String?

    /// The program and its arguments, for providers that are outside programs (`exec`).
    public var command: [String]?
    /// `models`: the weather models to ask for in one request, each a source of its own, where the provider offers several.
    public var models: [String]?

    /// Creates settings.
    public init(id: String, type: String, baseURL: RequestURL? = nil, geocodingURL: RequestURL? = nil, apiKey: String? = nil,
                apiKeyVariable: String? = nil, forecastDays: Int? = nil, isReplay: Bool = false, contact: String? = nil,
                command: [String]? = nil, models: [String]? = nil) {
        self.id = id
        self.type = type
        self.baseURL = baseURL
        self.geocodingURL = geocodingURL
        self.apiKey = apiKey
        self.apiKeyVariable = apiKeyVariable
        self.forecastDays = forecastDays
        self.isReplay = isReplay
        self.contact = contact
        self.command = command
        self.models = models
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

    /// Creates a context.
    public init(settings: ProviderSettings, environment: [String: String] = [:], time: any TimeSource = SystemTime(),
                transport: any Transport, log: @escaping @Sendable (String) -> Void = { _ in }, deadline: Date? = nil) {
        self.settings = settings
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
    /// The environment variable a contact is read from when the entry sets no `contact`; nil when the type needs no contact.
    public let contactVariable: String?
    /// Builds the provider; may ask the provider about itself first, and may fail with a reason.
    public let make: @Sendable (ProviderContext) async throws(ProviderError) -> any WeatherProvider
    /// Its geocoder for a context, when it has one and can use it (e.g. only with a key).
    public let geocoder: @Sendable (ProviderContext) -> (any Geocoding)?

    /// Declares an adapter type.
    public init(type: String, summary: String, keyVariable: String? = nil, contactVariable: String? = nil,
                make: @escaping @Sendable (ProviderContext) async throws(ProviderError) -> any WeatherProvider,
                geocoder: @escaping @Sendable (ProviderContext) -> (any Geocoding)? = { _ in nil }) {
        self.type = type
        self.summary = summary
        self.keyVariable = keyVariable
        self.contactVariable = contactVariable
        self.make = make
        self.geocoder = geocoder
    }
}
