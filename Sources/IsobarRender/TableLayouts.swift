import IsobarCore

/// How each table narrows on a narrow terminal: what is shortened first, what is left out, and in which order, each step
/// naming its column by key (the columns themselves, with their headers, short headers and cells, are `TableColumns`).
public enum TableLayouts: Sendable {
    /// The columns of `compare`: the row labels, one per provider, then the consensus, its spread and its confidence.
    public enum Compare: Hashable, Sendable { case label, provider(Int), consensus, spread, confidence }
    /// The columns of the daily forecast.
    public enum Daily: Hashable, Sendable { case day, condition, max, min, precipitation, chance, wind, gusts, sources, confidence }
    /// The columns of the hourly forecast.
    public enum Hourly: Hashable, Sendable { case time, condition, temperature, precipitation, chance, wind, gusts, dewPoint, uv, sources, confidence }
    /// The columns of the days' sun, UV and moon.
    public enum Sun: Hashable, Sendable { case day, uv, sunrise, sunset, daylight, moon }
    /// The columns of `cities`.
    public enum Cities: Hashable, Sendable { case number, city, now, condition, providers, from }
    /// The columns of `search`.
    public enum Search: Hashable, Sendable { case number, place, adminArea, country, latitude, longitude, zone, population, matched }
    /// The columns of `cache stats`.
    public enum CacheStats: Hashable, Sendable { case provider, kind, entries, oldest, newest }

    /// `compare`: row labels shortened, provider names as initials (each provider's short header), long conditions shortened,
    /// a spread with an outlier without the spread of every value (`1.6*`), then Confidence and Spread left out.
    public static func compare<Row>(_ columns: TableColumns<Compare, Row>, units: UnitSystem) -> [Narrowing] {
        let providers = columns.columns.compactMap { column -> Compare? in
            if case .provider = column.key { return column.key }
            return nil
        }
        var labels = ["Observed at": "Observed"]
        for quantity in Quantity.allCases where quantity.dimension != .direction {
            let unit = units.symbol(for: quantity)
            labels["\(quantity.label) (\(unit))"] = "\(Abbreviation.quantity(quantity)) \(unit)"
        }
        let initialled = providers.filter { columns.columns[columns.index($0)].shortHeader != nil }
        let legend = initialled.map { key in
            let column = columns.columns[columns.index(key)]
            return "\(column.shortHeader ?? "") = \(column.header)"
        }
        return [
            columns.cells([.label]) { labels[$0] ?? $0 },
            columns.shortHeaders(initialled + [.confidence], legend: legend.isEmpty ? nil : legend.joined(separator: ", ")),
            columns.cells(providers + [.consensus], Abbreviation.condition),
            columns.cells([.spread], Abbreviation.spreadWithoutAllValues),
            columns.truncate(.spread, minimum: 7),
            columns.drop(.confidence), columns.drop(.spread),
        ] + (providers + [.consensus]).map { columns.truncate($0, minimum: 7) } + [columns.truncate(.label, minimum: 9)]
    }

    /// Daily forecast: ranges left out (gusts first, temperatures last), short days, conditions and headers, then
    /// Sources, Conf., Gusts, Chance and Wind left out, then long conditions cut.
    public static func daily<Row>(_ columns: TableColumns<Daily, Row>) -> [Narrowing] {
        let ranges: [Narrowing] = [[.gusts], [.wind], [.chance], [.precipitation], [.max, .min]].map {
            columns.cells($0, loses: "ranges", Abbreviation.withoutRange)
        }
        return ranges + [
            columns.cells([.day], Abbreviation.dayWithoutMonth), columns.cells([.condition], Abbreviation.condition),
            columns.shortHeaders([.precipitation, .gusts, .sources]),
            columns.shortHeaders([.chance], legend: "PoP = chance of precipitation"),
            columns.drop(.sources), columns.drop(.confidence), columns.drop(.gusts), columns.drop(.chance), columns.drop(.wind),
            columns.shortHeaders([.condition]), columns.truncate(.condition, minimum: 7), columns.drop(.precipitation),
        ]
    }

    /// Hourly forecast: ranges left out (UV and dew point first, temperature last), short conditions and headers, then
    /// Sources, Conf., UV, Dew pt, Gusts, Chance and Wind left out.
    public static func hourly<Row>(_ columns: TableColumns<Hourly, Row>) -> [Narrowing] {
        let ranges: [Narrowing] = [[.uv], [.dewPoint], [.gusts], [.wind], [.chance], [.precipitation], [.temperature]].map {
            columns.cells($0, loses: "ranges", Abbreviation.withoutRange)
        }
        return ranges + [
            columns.cells([.condition], Abbreviation.condition),
            columns.shortHeaders([.precipitation, .gusts, .dewPoint, .sources]),
            columns.shortHeaders([.chance], legend: "PoP = chance of precipitation"),
            columns.drop(.sources), columns.drop(.confidence), columns.drop(.uv), columns.drop(.dewPoint), columns.drop(.gusts),
            columns.drop(.chance), columns.drop(.wind), columns.shortHeaders([.condition]), columns.truncate(.condition, minimum: 7),
            columns.drop(.precipitation),
        ]
    }

    /// Sun, UV and moon by day: ranges left out, short days, then the moon's lit share, Daylight and the moon left out.
    public static func sun<Row>(_ columns: TableColumns<Sun, Row>) -> [Narrowing] { [
        columns.cells([.uv], loses: "ranges", Abbreviation.withoutRange), columns.cells([.day], Abbreviation.dayWithoutMonth),
        columns.cells([.moon], loses: "lit shares", { String($0.prefix { $0 != "," }) }), columns.drop(.daylight), columns.drop(.moon),
    ] }

    /// `cities`: short conditions, long names cut, then From and Providers left out.
    public static func cities<Row>(_ columns: TableColumns<Cities, Row>) -> [Narrowing] { [
        columns.cells([.condition], Abbreviation.condition), columns.shortHeaders([.providers]), columns.truncate(.city, minimum: 14),
        columns.drop(.from), columns.drop(.providers), columns.truncate(.city, minimum: 8), columns.truncate(.condition, minimum: 7),
    ] }

    /// `search`: short headers, long text cut, Population then Matched left out, then Time zone and Admin area.
    public static func search<Row>(_ columns: TableColumns<Search, Row>) -> [Narrowing] { [
        columns.shortHeaders([.adminArea, .country, .latitude, .longitude, .zone, .population]),
        columns.truncate(.matched, minimum: 16), columns.truncate(.adminArea, minimum: 14), columns.drop(.population), columns.drop(.matched),
        columns.truncate(.zone, minimum: 14), columns.truncate(.place, minimum: 14), columns.drop(.zone), columns.drop(.adminArea),
        columns.truncate(.place, minimum: 8),
    ] }

    /// `cache stats`: long provider ids cut, then Oldest left out.
    public static func cacheStats<Row>(_ columns: TableColumns<CacheStats, Row>) -> [Narrowing] {
        [columns.truncate(.provider, minimum: 10), columns.drop(.oldest), columns.truncate(.provider, minimum: 6)]
    }
}
