import FoundationEssentials

/// A kind of data a provider can give.
public enum DataKind: String, Sendable, CaseIterable, Hashable {
    /// Conditions now.
    case current
    /// Forecast steps.
    case hourly
    /// Forecast days.
    case daily
    /// Official warnings in force (CAP alerts), in the report's `alerts`.
    case alerts
    /// Air quality and pollen (a provider of it answers only requests that ask for it).
    case air

    /// The kinds that are weather: current conditions, steps and days.
    public static let weather: Set<DataKind> = [.current, .hourly, .daily]
}

/// What a provider can answer and how it should be used.
public struct ProviderCapabilities: Sendable {
    /// Kinds of data it gives.
    public var kinds: Set<DataKind>
    /// How far ahead it forecasts, in days.
    public var horizonDays: Int
    /// Hours between forecast steps.
    public var stepHours: Int
    /// Quantities it fills.
    public var quantities: Set<Quantity>
    /// Whether it needs an API key.
    public var requiresAPIKey: Bool
    /// Whether it can find places by name.
    public var geocoding: Bool
    /// The provider's published limits for its free use.
    public var rateLimits: [RateLimit]
    /// How long answers stay fresh, in seconds, for current conditions and for forecasts.
    public var freshFor: (current: Double, forecast: Double)
    /// The credit its data licence asks for wherever its data is shown, e.g. `MET Norway (CC BY 4.0)`.
    public var attribution: String?
    /// True when the provider's terms require its HTTP lifetime (`Expires`, `max-age`) to be honoured even when it is longer
    /// than `freshFor` (MET Norway's); otherwise an HTTP lifetime only ever shortens it.
    public var honoursHTTPExpiry: Bool = false
    /// The most calls its service accepts at once from one client; nil when it publishes no such limit.
    public var maxConcurrentCalls: Int?
    /// The fewest seconds its terms allow between two polls of one place (MetAlerts: 600), kept across runs by the host;
    /// nil when its terms set none.
    public var pollingFloorSeconds: Double?

    /// Creates a capability declaration.
    public init(kinds: Set<DataKind>, horizonDays: Int, stepHours: Int, quantities: Set<Quantity>,
                requiresAPIKey: Bool, geocoding: Bool, rateLimits: [RateLimit] = [],
                freshFor: (current: Double, forecast: Double) = (600, 3600), attribution: String? = nil,
                maxConcurrentCalls: Int? = nil) {
        self.kinds = kinds
        self.horizonDays = horizonDays
        self.stepHours = stepHours
        self.quantities = quantities
        self.requiresAPIKey = requiresAPIKey
        self.geocoding = geocoding
        self.rateLimits = rateLimits
        self.freshFor = freshFor
        self.attribution = attribution
        self.maxConcurrentCalls = maxConcurrentCalls
    }
}

/// What is wanted from a provider.
public struct WeatherRequest: Sendable, Equatable {
    /// The place.
    public var place: Place
    /// The kinds of data wanted (weather unless alerts are asked for).
    public var kinds: Set<DataKind>

    /// Creates a request.
    public init(place: Place, kinds: Set<DataKind> = DataKind.weather) {
        self.place = place
        self.kinds = kinds
    }
}

/// A weather source: an identity, a capability declaration and one fetch that normalises its answer.
public protocol WeatherProvider: Sendable {
    /// Stable identifier, e.g. `open-meteo`.
    var id: String { get }
    /// Name for people, e.g. `Open-Meteo`.
    var displayName: String { get }
    /// What it can answer.
    var capabilities: ProviderCapabilities { get }
    /// Asks the provider through the context's transport, before its deadline, stamping times on its clock; throws `ProviderError`.
    func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport
    /// How many calls of its rate limits one fetch of `request` counts as.
    func callCost(of request: WeatherRequest) -> Double
    /// The sources its answers hold, in display order: itself, or each model it asks for (see `WeatherReport.sourceReports`).
    var sources: [SourceIdentity] { get }
    /// Where it has data.
    var coverage: Coverage { get }
    /// True when it has data for `place`: inside `coverage`, and for a source of one country, in that country when the place's
    /// country is known.
    func covers(_ place: Place) -> Bool
    /// Whether it has the key it needs, when it decides that itself rather than its configuration entry.
    var keyNeed: KeyNeed { get }
    /// The key it was handed when it decides itself whether to take one (a plug-in's), so that no output repeats it.
    var grantedKey: String? { get }
    /// Why it cannot be asked `request` at all as configured (a key or contact its terms need is missing, its program is
    /// broken), or nil when it can: the engine then fails it at once, before its cache, breaker or rate limit, and nothing is
    /// sent or counted. With no request, whether it can be used anywhere (`isobar providers`).
    func unusableReason(for request: WeatherRequest?) -> ProviderError?
    /// True when its fetch never meets the host's transport (a plug-in that fetches its data itself).
    var fetchesItself: Bool { get }
    /// The adapter that makes its answers and the transport they come through: itself over `transport`, unless it wraps another.
    func adapter(over transport: any Transport) -> (provider: any WeatherProvider, transport: any Transport)
    /// The station a report of this provider was observed at, for sources of observations; nil otherwise.
    func observationStation(of report: WeatherReport) -> String?
}

/// Whether a provider has the API key it needs.
public enum KeyNeed: Sendable, Equatable {
    /// As its capabilities and configuration entry say: it needs one when `requiresAPIKey`, read as the entry says.
    case asConfigured
    /// It has what it needs.
    case met
    /// It needs one it was not given; `advice` says what to set.
    case unmet(advice: String)
}

extension WeatherProvider {
    /// One call per fetch unless the provider says otherwise.
    public func callCost(of request: WeatherRequest) -> Double { 1 }

    /// One source: the provider itself, its own family.
    public var sources: [SourceIdentity] { [SourceIdentity(id: id, name: displayName)] }

    /// Everywhere.
    public var coverage: Coverage { .global }

    /// Inside its coverage.
    public func covers(_ place: Place) -> Bool { coverage.contains(place.coordinate) }

    /// As configured.
    public var keyNeed: KeyNeed { .asConfigured }

    /// None of its own: the configuration entry's key is the one it uses.
    public var grantedKey: String? { nil }

    /// Usable unless the provider says otherwise.
    public func unusableReason(for request: WeatherRequest?) -> ProviderError? { nil }

    /// Its fetch goes through the host's transport.
    public var fetchesItself: Bool { false }

    /// Itself over `transport`.
    public func adapter(over transport: any Transport) -> (provider: any WeatherProvider, transport: any Transport) { (self, transport) }

    /// Not a source of observations.
    public func observationStation(of report: WeatherReport) -> String? { nil }

    /// Asks the provider through `transport` on the system clock with no deadline of its own (tests, tools).
    public func fetch(_ request: WeatherRequest, transport: any Transport) async throws(ProviderError) -> WeatherReport {
        try await fetch(request, context: FetchContext(transport: transport))
    }
}

/// What one fetch is given: the transport to send through, the clock to stamp times with, and the instant to be done by.
public struct FetchContext: Sendable {
    /// The transport; a provider never creates its own.
    public var transport: any Transport
    /// The clock (the engine's, so that ages and lead times are measured on one clock).
    public var time: any TimeSource
    /// The instant the whole fetch must be over by; the transport refuses to start a request after it.
    public var deadline: Date
    /// True when only the kinds the request asks for are wanted: a provider whose one answer holds every kind may leave the
    /// others out of its report instead of decoding them (false: it may give everything it got, for the cache).
    public var onlyAskedKinds: Bool

    /// A context; by default on the system clock with no deadline, every kind the answer holds wanted.
    public init(transport: any Transport, time: any TimeSource = SystemTime(), deadline: Date = .distantFuture, onlyAskedKinds: Bool = false) {
        self.transport = transport
        self.time = time
        self.deadline = deadline
        self.onlyAskedKinds = onlyAskedKinds
    }
}
