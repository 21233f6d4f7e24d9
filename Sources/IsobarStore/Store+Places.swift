import FoundationEssentials
import IsobarCore
import IsobarEngine

/// What adding a favourite did.
public enum FavouriteAddition: Sendable, Equatable {
    /// Added at this 1-based position.
    case added(position: Int)
    /// Already in the list at this position.
    case alreadyThere(position: Int)
}

extension Store {
    /// The favourites in order; the first call on a new store seeds them with `seed` (once: removing them does not bring them back).
    public func favourites(seed: [Place], now: Date) async throws(StoreError) -> [Place] {
        try await write { connection throws(StoreError) in
            let seeded = try connection.query("SELECT value FROM settings WHERE key = 'favourites_seeded'").first != nil
            if !seeded {
                for place in seed { _ = try Self.insertFavourite(place, now: now, connection) }
                try connection.query("INSERT INTO settings(key, value) VALUES ('favourites_seeded', '1')")
            }
            return try connection.query("""
                SELECT name, admin_area, country_code, latitude, longitude, timezone FROM favourites ORDER BY position
                """).compactMap(Self.place)
        }
    }

    /// Adds a place at the end of the list, unless one within about 100 m is there already.
    public func addFavourite(_ place: Place, now: Date) async throws(StoreError) -> FavouriteAddition {
        try await write { connection throws(StoreError) in
            try Self.insertFavourite(place, now: now, connection)
        }
    }

    /// Removes the favourite at a 1-based position; returns the place removed, or nil when there is none.
    public func removeFavourite(at position: Int) async throws(StoreError) -> Place? {
        try await write { connection throws(StoreError) in
            let rows = try connection.query("""
                SELECT name, admin_area, country_code, latitude, longitude, timezone, position FROM favourites ORDER BY position
                """)
            guard position >= 1, position <= rows.count else { return nil }
            let row = rows[position - 1]
            try connection.query("DELETE FROM favourites WHERE position = ?", [row[6]])
            return Self.place(row)
        }
    }

    /// A setting's value.
    public func setting(_ key: String) async throws(StoreError) -> String? {
        try await read { connection throws(StoreError) in
            try connection.query("SELECT value FROM settings WHERE key = ?", [.text(key)]).first?.first?.text
        }
    }

    /// Sets a setting.
    public func setSetting(_ key: String, _ value: String) async throws(StoreError) {
        try await write { connection throws(StoreError) in
            try connection.query("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)", [.text(key), .text(value)])
        }
    }

    /// A cached geocoding answer.
    public func geocoded(provider: String, query: String) async throws(StoreError) -> CacheEntry? {
        try await read { connection throws(StoreError) in
            guard let row = try connection.query("SELECT fetched_at, payload FROM geocoding WHERE provider = ? AND query = ?",
                                                 [.text(provider), .text(query)]).first,
                  let time = row[0].double, let payload = row[1].text else { return nil }
            return CacheEntry(fetchedAt: Date(timeIntervalSince1970: time), payload: payload)
        }
    }

    /// Stores a geocoding answer.
    public func storeGeocoded(provider: String, query: String, entry: CacheEntry) async throws(StoreError) {
        try await write { connection throws(StoreError) in
            try connection.query("INSERT OR REPLACE INTO geocoding(provider, query, fetched_at, payload) VALUES (?, ?, ?, ?)",
                                 [.text(provider), .text(query), .real(entry.fetchedAt.timeIntervalSince1970), .text(entry.payload)])
        }
    }

    private static func insertFavourite(_ place: Place, now: Date, _ connection: Connection) throws(StoreError) -> FavouriteAddition {
        let existing = try connection.query("""
            SELECT (SELECT count(*) FROM favourites f2 WHERE f2.position <= f.position) FROM favourites f
            WHERE round(latitude, 3) = round(?, 3) AND round(longitude, 3) = round(?, 3)
            """, [.real(place.coordinate.latitude), .real(place.coordinate.longitude)])
        if let position = existing.first?.first?.int { return .alreadyThere(position: position) }
        try connection.query("""
            INSERT INTO favourites(position, name, admin_area, country_code, latitude, longitude, timezone, added_at)
            VALUES ((SELECT coalesce(max(position), 0) + 1 FROM favourites), ?, ?, ?, ?, ?, ?, ?)
            """, [.text(place.name), place.adminArea.map(SQLValue.text) ?? .null, place.countryCode.map(SQLValue.text) ?? .null,
                  .real(place.coordinate.latitude), .real(place.coordinate.longitude),
                  place.timeZoneIdentifier.map(SQLValue.text) ?? .null, .real(now.timeIntervalSince1970)])
        let count = try connection.query("SELECT count(*) FROM favourites").first?.first?.int ?? 0
        return .added(position: count)
    }

    private static func place(_ row: [SQLValue]) -> Place? {
        guard let name = row[0].text, let latitude = row[3].double, let longitude = row[4].double,
              let coordinate = Coordinate(latitude: latitude, longitude: longitude) else { return nil }
        return Place(name: name, adminArea: row[1].text, countryCode: row[2].text, coordinate: coordinate, timeZoneIdentifier: row[5].text)
    }
}
