import FoundationEssentials
import IsobarCore

/// What adding a city did.
public enum CityAddition: Sendable, Equatable {
    /// Added at this 1-based position.
    case added(position: Int)
    /// Already in the list (a city within `UserDataStore.sameCityMetres`, the nearest one) at this position.
    case alreadyThere(position: Int)
}

extension UserDataStore {
    /// The cities in order; the first call on a new file seeds them with `seed` (once: removing them all does not bring them back).
    public func cities(seed: [Place], now: Date) async throws(UserDataError) -> [Place] {
        let seeded = try await read { connection throws(StoreError) in try Self.fact("cities_seeded", connection) != nil }
        guard !seeded else { return try await read { connection throws(StoreError) in try Self.cities(connection) } }
        return try await write { connection throws(StoreError) in
            if try Self.fact("cities_seeded", connection) == nil {
                for place in seed { _ = try Self.insertCity(place, now: now, connection) }
                try Self.setFact("cities_seeded", "\(now.timeIntervalSince1970)", connection)
            }
            return try Self.cities(connection)
        }
    }

    /// Adds a place at the end of the list, unless a city within `sameCityMetres` (100 m) is there already.
    public func addCity(_ place: Place, now: Date) async throws(UserDataError) -> CityAddition {
        try await write { connection throws(StoreError) in try Self.insertCity(place, now: now, connection) }
    }

    /// Removes the city `city` names, looked for in the list as it is inside the write transaction that removes it.
    public func removeCity(_ city: CityReference) async throws(UserDataError) -> CityRemoval {
        try await write { connection throws(StoreError) in
            let rows = try Self.cityRows(connection)
            let cities = rows.map(\.place)
            guard let index = city.index(in: cities) else { return .noCity(cities: cities) }
            try connection.query("DELETE FROM cities WHERE position = ?", [.integer(rows[index].position)])
            return .removed(cities[index], position: index + 1)
        }
    }

    /// Moves the city `city` names to where `destination` is (a number: that position once the city has moved; a city: the
    /// position that one has), the others closing up; both are looked for inside the one write transaction that moves it.
    public func moveCity(_ city: CityReference, to destination: CityReference) async throws(UserDataError) -> CityMove {
        try await write { connection throws(StoreError) in
            let rows = try Self.cityRows(connection)
            let cities = rows.map(\.place)
            guard let from = city.index(in: cities) else { return .noCity(cities: cities) }
            guard let to = destination.index(in: cities) else { return .noDestination(cities: cities) }
            var order = rows.map(\.position)
            order.insert(order.remove(at: from), at: to)
            // A row whose place cannot be read (not in the list) is numbered after the others, never left out.
            let listed = Set(order)
            let unread = try connection.query("SELECT position FROM cities ORDER BY position").compactMap { $0.first?.int }.map(Int64.init)
            order += unread.filter { !listed.contains($0) }
            // Out of the way first (positions are unique), then numbered 1…n in the new order.
            try connection.query("UPDATE cities SET position = -position")
            for (index, old) in order.enumerated() {
                try connection.query("UPDATE cities SET position = ? WHERE position = ?", [.integer(Int64(index + 1)), .integer(-old)])
            }
            return .moved(cities[from], from: from + 1, to: to + 1)
        }
    }

    /// The home place, if one is set.
    public func home() async throws(UserDataError) -> Place? {
        try await read { connection throws(StoreError) in
            try connection.query("SELECT \(Self.columns) FROM home").first.flatMap(Self.place)
        }
    }

    /// Sets the home place, replacing the one set before.
    public func setHome(_ place: Place, now: Date) async throws(UserDataError) {
        try await write { connection throws(StoreError) in try Self.storeHome(place, now: now, connection) }
    }

    /// Unsets the home place; returns the one that was set, or nil when none was.
    @discardableResult
    public func unsetHome() async throws(UserDataError) -> Place? {
        try await write { connection throws(StoreError) in
            let home = try connection.query("SELECT \(Self.columns) FROM home").first.flatMap(Self.place)
            try connection.query("DELETE FROM home")
            return home
        }
    }

    /// The columns that make a place, in the order `place(_:)` reads them.
    static let columns = "name, admin_area, country_code, latitude, longitude, timezone"

    static func cities(_ connection: Connection) throws(StoreError) -> [Place] {
        try connection.query("SELECT \(columns) FROM cities ORDER BY position").compactMap(place)
    }

    /// The cities in order with the position each has in the table (numbers with gaps, unlike the user's 1…n).
    private static func cityRows(_ connection: Connection) throws(StoreError) -> [(place: Place, position: Int64)] {
        try connection.query("SELECT \(columns), position FROM cities ORDER BY position").compactMap { row in
            guard let place = place(row), let position = row[6].int else { return nil }
            return (place, Int64(position))
        }
    }

    /// Two places at most this far apart are one city: adding the second finds the first, and coordinates name it.
    public static let sameCityMetres = 100.0

    /// The index of the city in `cities` nearest to `coordinate`, when it is within `sameCityMetres`.
    static func sameCity(as coordinate: Coordinate, in cities: [Place]) -> Int? {
        let distances = cities.map { $0.coordinate.metres(to: coordinate) }
        guard let nearest = distances.indices.min(by: { distances[$0] < distances[$1] }), distances[nearest] <= sameCityMetres else { return nil }
        return nearest
    }

    static func insertCity(_ place: Place, now: Date, _ connection: Connection) throws(StoreError) -> CityAddition {
        let cities = try Self.cities(connection)
        if let index = sameCity(as: place.coordinate, in: cities) { return .alreadyThere(position: index + 1) }
        try connection.query("""
            INSERT INTO cities(position, \(columns), added_at) VALUES ((SELECT coalesce(max(position), 0) + 1 FROM cities), ?, ?, ?, ?, ?, ?, ?)
            """, values(place) + [.real(now.timeIntervalSince1970)])
        return .added(position: cities.count + 1)
    }

    static func storeHome(_ place: Place, now: Date, _ connection: Connection) throws(StoreError) {
        try connection.query("INSERT OR REPLACE INTO home(id, \(columns), set_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?)",
                             values(place) + [.real(now.timeIntervalSince1970)])
    }

    static func fact(_ key: String, _ connection: Connection) throws(StoreError) -> String? {
        try connection.query("SELECT value FROM facts WHERE key = ?", [.text(key)]).first?.first?.text
    }

    static func setFact(_ key: String, _ value: String, _ connection: Connection) throws(StoreError) {
        try connection.query("INSERT OR REPLACE INTO facts(key, value) VALUES (?, ?)", [.text(key), .text(value)])
    }

    private static func values(_ place: Place) -> [SQLValue] {
        [.text(place.name), place.adminArea.map(SQLValue.text) ?? .null, place.countryCode.map(SQLValue.text) ?? .null,
         .real(place.coordinate.latitude), .real(place.coordinate.longitude), place.timeZoneIdentifier.map(SQLValue.text) ?? .null]
    }

    static func place(_ row: [SQLValue]) -> Place? {
        guard let name = row[0].text, let latitude = row[3].double, let longitude = row[4].double,
              let coordinate = Coordinate(latitude: latitude, longitude: longitude) else { return nil }
        return Place(name: name, adminArea: row[1].text, countryCode: row[2].text, coordinate: coordinate, timeZoneIdentifier: row[5].text)
    }
}
