import FoundationEssentials
import IsobarCore

/// What adding a city did.
public enum CityAddition: Sendable, Equatable {
    /// Added at this 1-based position.
    case added(position: Int)
    /// Already in the list (within about 100 m) at this position.
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

    /// Adds a place at the end of the list, unless one within about 100 m is there already.
    public func addCity(_ place: Place, now: Date) async throws(UserDataError) -> CityAddition {
        try await write { connection throws(StoreError) in try Self.insertCity(place, now: now, connection) }
    }

    /// Removes the city at a 1-based position; returns the place removed, or nil when there is none.
    public func removeCity(at position: Int) async throws(UserDataError) -> Place? {
        try await write { connection throws(StoreError) in
            let rows = try connection.query("SELECT \(Self.columns), position FROM cities ORDER BY position")
            guard position >= 1, position <= rows.count else { return nil }
            let row = rows[position - 1]
            try connection.query("DELETE FROM cities WHERE position = ?", [row[6]])
            return Self.place(row)
        }
    }

    /// Moves the city at 1-based position `from` to position `to`, the others closing up; nil when either is out of range.
    public func moveCity(from: Int, to: Int) async throws(UserDataError) -> Place? {
        try await write { connection throws(StoreError) in
            let rows = try connection.query("SELECT \(Self.columns), position FROM cities ORDER BY position")
            guard from >= 1, from <= rows.count, to >= 1, to <= rows.count else { return nil }
            var order = rows.map { $0[6] }
            order.insert(order.remove(at: from - 1), at: to - 1)
            // Out of the way first (positions are unique), then numbered 1…n in the new order.
            try connection.query("UPDATE cities SET position = -position")
            for (index, old) in order.enumerated() {
                guard let old = old.int else { continue }
                try connection.query("UPDATE cities SET position = ? WHERE position = ?", [.integer(Int64(index + 1)), .integer(Int64(-old))])
            }
            return Self.place(rows[from - 1])
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

    static func insertCity(_ place: Place, now: Date, _ connection: Connection) throws(StoreError) -> CityAddition {
        let existing = try connection.query("""
            SELECT (SELECT count(*) FROM cities c2 WHERE c2.position <= c.position) FROM cities c
            WHERE round(latitude, 3) = round(?, 3) AND round(longitude, 3) = round(?, 3)
            """, [.real(place.coordinate.latitude), .real(place.coordinate.longitude)])
        if let position = existing.first?.first?.int { return .alreadyThere(position: position) }
        try connection.query("""
            INSERT INTO cities(position, \(columns), added_at) VALUES ((SELECT coalesce(max(position), 0) + 1 FROM cities), ?, ?, ?, ?, ?, ?, ?)
            """, values(place) + [.real(now.timeIntervalSince1970)])
        let count = try connection.query("SELECT count(*) FROM cities").first?.first?.int ?? 0
        return .added(position: count)
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
