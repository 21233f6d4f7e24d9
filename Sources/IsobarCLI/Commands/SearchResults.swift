import FoundationEssentials
import IsobarCore
import IsobarPlaces
import IsobarRender

/// One line of `isobar search`: the place, and how the text typed matched it.
struct SearchRow {
    /// The place found.
    var place: Place
    /// How it matched: a `MatchKind` (`exact_name`, `exact_alternate`, `prefix`, `typo`), `coordinates`, or the geocoder's id.
    var match: String
    /// The name that matched, as written (`São Paulo`, `Москва`), when the match was by name.
    var matchedName: String?
    /// Whether `matchedName` is an alternate name rather than the place's own.
    var matchedAlternate = false
    /// Inhabitants, when the gazetteer knows them.
    var population: Int?
    /// For coordinates: the nearest city and its distance.
    var nearest: NearbyPlace?

    /// A gazetteer match.
    init(_ match: PlaceMatch) {
        place = match.place
        self.match = match.kind.description
        matchedName = match.matchedName
        matchedAlternate = match.matchedAlternate
        population = match.population > 0 ? match.population : nil
    }

    /// A place found another way (`coordinates`, a geocoder).
    init(place: Place, match: String, nearest: NearbyPlace? = nil) {
        self.place = place
        self.match = match
        self.nearest = nearest
    }

    /// `"Sao Paulo" ← name "São Paulo"`, `"Mosk" ← alternate name "Moskva" (prefix)`, `0.3 km from Minsk`.
    func matchedText(query: String) -> String {
        guard let matchedName else {
            guard let nearest else { return match }
            return "\(match), \(Self.kilometres(nearest.distanceKilometres)) km from \(nearest.place.label)"
        }
        let which = matchedAlternate ? "alternate name" : "name"
        let how = match == MatchKind.prefix.description || match == MatchKind.typo.description ? " (\(match))" : ""
        return "\"\(query)\" ← \(which) \"\(matchedName)\"\(how)"
    }

    /// The JSON members after `rank` and `place`: `match`, `matched`, `matched_alternate`, `population`, `nearest`.
    var jsonMembers: [(String, JSONOutput)] {
        var members: [(String, JSONOutput)] = [("match", .string(match)), ("matched", .string(matchedName))]
        members.append(("matched_alternate", matchedName == nil ? .null : .bool(matchedAlternate)))
        members.append(("population", population.map(JSONOutput.integer) ?? .null))
        if let nearest {
            members.append(("nearest", .object([
                ("name", .string(nearest.place.name)), ("country_code", .string(nearest.place.countryCode)),
                ("distance_km", .number((nearest.distanceKilometres * 10).rounded() / 10)),
            ])))
        }
        return members
    }

    /// A distance with one decimal.
    static func kilometres(_ value: Double) -> String { JSONOutput.format((value * 10).rounded() / 10) }
}

extension SearchRow {
    /// The columns of the `search` table, each row with its rank; `query` is what was typed.
    static func columns(query: String) -> TableColumns<TableLayouts.Search, (offset: Int, element: SearchRow)> {
        TableColumns([
            ColumnSpec(.number, "#") { String($0.offset + 1) },
            ColumnSpec(.place, "Place", left: true) { $0.element.place.name },
            ColumnSpec(.adminArea, "Admin area", short: "Admin", left: true) { $0.element.place.adminArea ?? "" },
            ColumnSpec(.country, "Country", short: "CC", left: true) { $0.element.place.countryCode ?? "" },
            ColumnSpec(.latitude, "Latitude", short: "Lat") { JSONOutput.format($0.element.place.coordinate.latitude) },
            ColumnSpec(.longitude, "Longitude", short: "Lon") { JSONOutput.format($0.element.place.coordinate.longitude) },
            ColumnSpec(.zone, "Time zone", short: "Zone", left: true) { $0.element.place.timeZoneIdentifier ?? "" },
            ColumnSpec(.population, "Population", short: "Pop.") { $0.element.population.map(String.init) ?? "" },
            ColumnSpec(.matched, "Matched", left: true) { $0.element.matchedText(query: query) },
        ])
    }
}
