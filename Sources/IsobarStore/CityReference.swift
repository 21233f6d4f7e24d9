import IsobarCore

/// A city the user named, looked for in the list as it is when the change is made (inside its transaction), never in a copy
/// read before.
public enum CityReference: Sendable {
    /// The city at this 1-based position in the list as it is when the change is made.
    case number(Int)
    /// The city nearest to this point, when it is within `UserDataStore.sameCityMetres`.
    case coordinate(Coordinate)
    /// The first city `matches` accepts (a name, compared as the caller compares names).
    case first(where: @Sendable (Place) -> Bool)

    /// The 0-based index of the city this names in `cities`, or nil when it names none.
    func index(in cities: [Place]) -> Int? {
        switch self {
        case .number(let number): number >= 1 && number <= cities.count ? number - 1 : nil
        case .coordinate(let coordinate): UserDataStore.sameCity(as: coordinate, in: cities)
        case .first(let matches): cities.firstIndex(where: matches)
        }
    }
}

/// What removing a named city did.
public enum CityRemoval: Sendable, Equatable {
    /// This city, which was at `position`, was removed.
    case removed(Place, position: Int)
    /// The city named is not in `cities`, the list as the removal found it; nothing changed.
    case noCity(cities: [Place])
}

/// What moving a named city did.
public enum CityMove: Sendable, Equatable {
    /// This city moved from position `from` to position `to`.
    case moved(Place, from: Int, to: Int)
    /// The city named is not in `cities`, the list as the move found it; nothing changed.
    case noCity(cities: [Place])
    /// The destination names no city in `cities`, the list as the move found it; nothing changed.
    case noDestination(cities: [Place])
}
