import IsobarCore

/// How each table narrows on a narrow terminal: what is shortened first, what is left out, and in which order.
public enum TableLayouts: Sendable {
    /// `compare`: row labels shortened, provider names as initials, long conditions shortened, a spread with an outlier
    /// without the spread of every value (`1.6*`), then Confidence and Spread left out.
    public static func compare(names: [String], units: UnitSystem) -> [Narrowing] {
        let providers = Array(1...max(1, names.count))
        let consensus = names.count + 1
        let (spread, confidence) = (names.count + 2, names.count + 3)
        var labels = ["Observed at": "Observed"]
        for quantity in Quantity.allCases where quantity.dimension != .direction {
            let unit = units.symbol(for: quantity)
            labels["\(quantity.label) (\(unit))"] = "\(Abbreviation.quantity(quantity)) \(unit)"
        }
        let short = Abbreviation.initials(names)
        var headers = [confidence: "Conf."]
        var legend: [String] = []
        for (index, (name, initials)) in zip(names, short).enumerated() where name != initials {
            headers[index + 1] = initials
            legend.append("\(initials) = \(name)")
        }
        return [
            .cells([0]) { labels[$0] ?? $0 },
            .headers(headers, legend: legend.isEmpty ? nil : legend.joined(separator: ", ")),
            .cells(providers + [consensus], Abbreviation.condition),
            .cells([spread], Abbreviation.spreadWithoutAllValues),
            .truncate(spread, minimum: 7),
            .drop(confidence), .drop(spread),
        ] + (providers + [consensus]).map { .truncate($0, minimum: 7) } + [.truncate(0, minimum: 9)]
    }

    /// Daily forecast: ranges left out (gusts first, temperatures last), short days, conditions and headers, then
    /// Sources, Conf., Gusts, Chance and Wind left out, then long conditions cut.
    public static func daily(units: UnitSystem) -> [Narrowing] {
        let ranges: [Narrowing] = [[7], [6], [5], [4], [2, 3]].map { .cells($0, loses: "ranges", Abbreviation.withoutRange) }
        return ranges + [
            .cells([0], Abbreviation.dayWithoutMonth), .cells([1], Abbreviation.condition),
            .headers([4: "Pcp \(units.symbol(.precipitationAmount))", 7: "Gust \(units.symbol(.speed))", 8: "Src"]),
            .headers([5: "PoP %"], legend: "PoP = chance of precipitation"),
            .drop(8), .drop(9), .drop(7), .drop(5), .drop(6), .headers([1: "Weather"]), .truncate(1, minimum: 7), .drop(4),
        ]
    }

    /// Hourly forecast: ranges left out (UV and dew point first, temperature last), short conditions and headers, then
    /// Sources, Conf., UV, Dew pt, Gusts, Chance and Wind left out.
    public static func hourly(units: UnitSystem) -> [Narrowing] {
        let ranges: [Narrowing] = [[8], [7], [6], [5], [4], [3], [2]].map { .cells($0, loses: "ranges", Abbreviation.withoutRange) }
        return ranges + [
            .cells([1], Abbreviation.condition),
            .headers([3: "Pcp \(units.symbol(.precipitationRate))", 6: "Gust \(units.symbol(.speed))", 7: "Dew \(units.symbol(.temperature))",
                      9: "Src"]),
            .headers([4: "PoP %"], legend: "PoP = chance of precipitation"),
            .drop(9), .drop(10), .drop(8), .drop(7), .drop(6), .drop(4), .drop(5), .headers([1: "Weather"]), .truncate(1, minimum: 7),
            .drop(3),
        ]
    }

    /// Sun, UV and moon by day: ranges left out, short days, then the moon's lit share, Daylight and the moon left out.
    public static var sun: [Narrowing] { [
        .cells([1], loses: "ranges", Abbreviation.withoutRange), .cells([0], Abbreviation.dayWithoutMonth),
        .cells([5], loses: "lit shares", { String($0.prefix { $0 != "," }) }), .drop(4), .drop(5),
    ] }

    /// `cities` (#, City, Now, Condition, Providers, From): short conditions, long names cut, then From and Providers left out.
    public static var cities: [Narrowing] { [
        .cells([3], Abbreviation.condition), .headers([4: "Prov."]), .truncate(1, minimum: 14),
        .drop(5), .drop(4), .truncate(1, minimum: 8), .truncate(3, minimum: 7),
    ] }

    /// `search` (#, Place, Admin area, Country, Latitude, Longitude, Time zone, Population, Matched): short headers, long text
    /// cut, Population then Matched left out, then Time zone and Admin area.
    public static var search: [Narrowing] { [
        .headers([2: "Admin", 3: "CC", 4: "Lat", 5: "Lon", 6: "Zone", 7: "Pop."]),
        .truncate(8, minimum: 16), .truncate(2, minimum: 14), .drop(7), .drop(8), .truncate(6, minimum: 14), .truncate(1, minimum: 14),
        .drop(6), .drop(2), .truncate(1, minimum: 8),
    ] }

    /// `cache stats` (Provider, Kind, Entries, Oldest, Newest): long provider ids cut, then Oldest left out.
    public static var cacheStats: [Narrowing] { [.truncate(0, minimum: 10), .drop(3), .truncate(0, minimum: 6)] }
}
