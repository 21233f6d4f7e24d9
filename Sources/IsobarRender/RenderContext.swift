import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// What a command shows.
public enum View: Sendable, Equatable {
    /// Current conditions side by side.
    case compare
    /// Current conditions, consensus first.
    case now
    /// Days (and hours when asked).
    case forecast(days: Int, hourly: Bool)
    /// One place in full: now, the next hours, the next days.
    case detail

    /// What the view shows: current conditions, how many days, and how many hours (nil for none).
    public var sections: (current: Bool, days: Int, hours: Int?) {
        switch self {
        case .compare, .now: (true, 0, nil)
        case .forecast(let days, let hourly): (false, days, hourly ? days * 24 : nil)
        case .detail: (true, 5, 12)
        }
    }

    /// The data kinds the view needs from providers.
    public var kinds: Set<DataKind> {
        switch self {
        case .compare, .now: [.current]
        case .forecast: [.hourly, .daily]
        case .detail: [.current, .hourly, .daily]
        }
    }
}

/// Everything a renderer needs besides the events.
public struct RenderContext: Sendable {
    /// The command's view.
    public var view: View
    /// The place asked about.
    public var place: Place
    /// Units to show.
    public var units: UnitSystem
    /// Provider ids to display names, in display order.
    public var providers: [(id: String, name: String)]
    /// The credit each provider's licence asks for, by provider id (see `ProviderCapabilities.attribution`).
    public var attributions: [String: String] = [:]

    /// The credits `providers` declare, by id.
    public static func attributions(of providers: [any WeatherProvider]) -> [String: String] {
        Dictionary(providers.flatMap { provider in
                       provider.capabilities.attribution.map { credit in provider.sources.map { ($0.id, credit) } } ?? [] },
                   uniquingKeysWith: { first, _ in first })
    }
    /// Colour allowed (a terminal, and `NO_COLOR` unset).
    public var color: Bool
    /// The moment the command started; forecast hours start here (for replays, at the recording time).
    public var now: Date
    /// What the user typed for the place.
    public var query: String = ""
    /// Other places the text could have meant.
    public var runnersUp: [Place] = []
    /// The width tables and text must fit, in terminal cells (nil: no limit).
    public var width: Int?
    /// The place's country as people say it (`Belarus`), for sentences; nil: its code.
    public var countryName: String?
    /// The configured providers in display order: each one's id, display name and the ids of its sources (its own id, or
    /// one per model), so that the failure of a provider whose sources have ids of their own is shown in their place.
    public var configured: [(id: String, name: String, sources: [String])] = []
    /// The fewest answers that make a result (`--min-providers`, else 1): with fewer, the output ends with a verdict.
    public var minimumAnswers = 1
    /// True when the data is the bundled demo's recordings (the verdict then suggests no `--demo`).
    public var isDemo = false
    /// The places the demo has recordings of, named when it is asked about another (empty outside the demo).
    public var demoPlaces: [String] = []
    /// What the air sources said and their merge, shown after the weather by `compare`; nil when no air source is configured
    /// or none answered.
    public var air: AirReport?

    /// Creates a `RenderContext` from its parts.
    public init(view: View, place: Place, units: UnitSystem, providers: [(id: String, name: String)], attributions: [String: String] = [:],
                color: Bool, now: Date, query: String = "", runnersUp: [Place] = [], width: Int? = nil, countryName: String? = nil,
                configured: [(id: String, name: String, sources: [String])] = [], minimumAnswers: Int = 1, isDemo: Bool = false) {
        self.view = view
        self.place = place
        self.units = units
        self.providers = providers
        self.attributions = attributions
        self.color = color
        self.now = now
        self.query = query
        self.runnersUp = runnersUp
        self.width = width
        self.countryName = countryName
        self.configured = configured
        self.minimumAnswers = minimumAnswers
        self.isDemo = isDemo
    }

    /// `Minsk, Minsk City, Belarus`: the place as sentences name it.
    public var spokenPlace: String { place.spokenLabel(country: countryName) }

    /// The display name of a source or provider id.
    public func name(of id: String) -> String {
        providers.first { $0.id == id }?.name ?? configured.first { $0.id == id }?.name ?? id
    }

    /// The name a failure of `id` is shown under: a provider whose sources have ids of their own lists them
    /// (`Open-Meteo (ECMWF IFS, GFS Seamless)`), so that none of them vanishes from the output.
    public func failureName(of id: String) -> String {
        let name = name(of: id)
        guard let provider = configured.first(where: { $0.id == id }), provider.sources != [id], !provider.sources.isEmpty else { return name }
        let sources = provider.sources.map { source in
            let full = self.name(of: source)
            return full.hasPrefix(name + " ") ? String(full.dropFirst(name.count + 1)) : full
        }
        return "\(name) (\(sources.joined(separator: ", ")))"
    }

    /// The sources and the configured providers of `providers`, named for display: a name two of them share gives way to their
    /// ids, so that no two columns or lines look alike.
    public static func names(of providers: [any WeatherProvider]) -> (sources: [(id: String, name: String)],
                                                                      configured: [(id: String, name: String, sources: [String])]) {
        let sources = distinct(providers.flatMap { $0.sources.map { (id: $0.id, name: $0.name) } })
        let named = distinct(providers.map { (id: $0.id, name: $0.displayName) })
        let configured = zip(providers, named).map { provider, named in (id: provider.id, name: named.name, sources: provider.sources.map(\.id)) }
        return (sources, configured)
    }

    /// The names, each one shared by two or more ids replaced by the id.
    public static func distinct(_ named: [(id: String, name: String)]) -> [(id: String, name: String)] {
        var counts: [String: Int] = [:]
        for item in named { counts[item.name, default: 0] += 1 }
        return named.map { item in (id: item.id, name: counts[item.name, default: 0] > 1 ? item.id : item.name) }
    }
}

/// Turns engine events into output.
public protocol Renderer {
    /// Handles one event as it happens.
    mutating func handle(_ event: EngineEvent<ConsensusResult>)
    /// Ends the output.
    mutating func finish()
}

/// Numbers rounded for output: three decimals at most, then the shortest form.
public enum OutputNumber: Sendable {
    /// The value in `units`, rounded to 3 decimals.
    public static func converted(_ value: Double, _ dimension: Dimension, _ units: UnitSystem) -> Double {
        round3(units.convert(value, dimension))
    }

    /// Rounds to 3 decimals.
    public static func round3(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

/// Which part of a forecast a view shows, from a reference instant.
public struct ForecastWindow: Sendable {
    /// The hour steps start from.
    public let start: Date
    /// Days shown.
    public let days: Int

    /// The window for a report: replays start at their recording time, live data at `now`.
    public init(source: DataSource, now: Date, days: Int) {
        let reference: Date
        if case .replay(let recordedAt) = source { reference = recordedAt } else { reference = now }
        start = Date(timeIntervalSince1970: (reference.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
        self.days = days
    }

    /// The window for merged data: from the earliest reference of its inputs.
    public init(reports: [WeatherReport], now: Date, days: Int) {
        let windows = reports.map { ForecastWindow(source: $0.source, now: now, days: days) }
        start = windows.map(\.start).min() ?? ForecastWindow(source: .live, now: now, days: days).start
        self.days = days
    }

    /// Steps from the start, for `days` × 24 hours.
    public func hours<T>(_ items: [T], time: (T) -> Date) -> [T] {
        let end = start.addingTimeInterval(Double(days) * 86_400)
        return items.filter { time($0) >= start && time($0) < end }
    }

    /// Local days from the start's local day, `days` of them.
    public func dates<T>(_ items: [T], utcOffsetSeconds: Int, date: (T) -> LocalDate) -> [T] {
        let first = LocalDate(start, utcOffsetSeconds: utcOffsetSeconds)
        return items.filter { date($0) >= first && date($0).daysSinceEpoch < first.daysSinceEpoch + days }
    }
}

extension DayZone {
    /// The IANA name, when the days follow one.
    public var identifier: String? {
        if case .named(let name) = self { return name }
        return nil
    }
}
