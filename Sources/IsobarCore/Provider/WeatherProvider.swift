import FoundationEssentials

/// A kind of data a provider can give.
public enum DataKind: String, Sendable, CaseIterable, Hashable {
    /// Conditions now.
    case current
    /// Forecast steps.
    case hourly
    /// Forecast days.
    case daily
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
    /// The kinds of data wanted.
    public var kinds: Set<DataKind>

    /// Creates a request.
    public init(place: Place, kinds: Set<DataKind> = Set(DataKind.allCases)) {
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
    /// Why it cannot be asked `request` at all as configured (a key or contact its terms need is missing), or nil when it
    /// can: the engine then fails it at once, before its cache, breaker or rate limit, and nothing is sent or counted.
    func unusableReason(for request: WeatherRequest) -> ProviderError?
}

extension WeatherProvider {
    /// One call per fetch unless the provider says otherwise.
    public func callCost(of request: WeatherRequest) -> Double { 1 }

    /// One source: the provider itself, its own family.
    public var sources: [SourceIdentity] { [SourceIdentity(id: id, name: displayName)] }

    /// Usable unless the provider says otherwise.
    public func unusableReason(for request: WeatherRequest) -> ProviderError? { nil }

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
