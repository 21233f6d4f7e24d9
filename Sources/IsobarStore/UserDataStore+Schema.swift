extension UserDataStore {
    /// `migrations[n]` upgrades the user's file from version n to n + 1; released ones are never edited.
    static let migrations = [
        """
        CREATE TABLE cities(position INTEGER PRIMARY KEY, name TEXT NOT NULL, admin_area TEXT, country_code TEXT,
                            latitude REAL NOT NULL, longitude REAL NOT NULL, timezone TEXT, added_at REAL NOT NULL);
        CREATE UNIQUE INDEX cities_by_coordinates ON cities(round(latitude, 3), round(longitude, 3));
        CREATE TABLE home(id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL, admin_area TEXT, country_code TEXT,
                          latitude REAL NOT NULL, longitude REAL NOT NULL, timezone TEXT, set_at REAL NOT NULL);
        CREATE TABLE facts(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """,
    ]

    /// The user's file's layout.
    static let schema = Schema(label: "your cities and home", migrations: migrations)
}
