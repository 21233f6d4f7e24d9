import IsobarCore

/// How a place matched a query, best first.
public enum MatchKind: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The query is the place's name (ignoring case, diacritics and punctuation).
    case exactName
    /// The query is one of the place's alternate names.
    case exactAlternate
    /// The query begins the place's name or one of its alternates.
    case prefix
    /// The query is one edit away from the place's name or one of its alternates.
    case typo

    /// Better kinds sort first.
    public static func < (lhs: MatchKind, rhs: MatchKind) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `exact_name`, `exact_alternate`, `prefix` or `typo`.
    public var description: String {
        switch self {
        case .exactName: "exact_name"
        case .exactAlternate: "exact_alternate"
        case .prefix: "prefix"
        case .typo: "typo"
        }
    }
}

/// A gazetteer city that matched a search, with how it matched.
public struct PlaceMatch: Sendable, Hashable {
    /// The place: name, admin1 name when known, country code, coordinate and time zone (no UTC offset).
    public var place: Place
    /// The admin1 code from GeoNames, e.g. `TX`, `ENG`, `04`; empty when GeoNames gives none.
    public var adminCode: String
    /// Inhabitants, as GeoNames counts them.
    public var population: Int
    /// The GeoNames id, e.g. 625144 for Minsk.
    public var geonamesID: Int
    /// The name or alternate name that matched, as written in the gazetteer, e.g. `Москва`.
    public var matchedName: String
    /// How the query matched.
    public var kind: MatchKind

    /// Whether the name that matched is an alternate name rather than the place's own.
    public var matchedAlternate: Bool { matchedName != place.name }

    /// Creates a match.
    public init(place: Place, adminCode: String, population: Int, geonamesID: Int, matchedName: String, kind: MatchKind) {
        self.place = place
        self.adminCode = adminCode
        self.population = population
        self.geonamesID = geonamesID
        self.matchedName = matchedName
        self.kind = kind
    }
}
