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
        // The forecast archive: every live answer's steps and every observation, values as a JSON object by quantity.
        """
        CREATE TABLE archive_steps(provider TEXT NOT NULL, latitude REAL NOT NULL, longitude REAL NOT NULL,
                                   issued_at INTEGER NOT NULL, valid_at INTEGER NOT NULL, period_hours REAL NOT NULL,
                                   condition TEXT, fields TEXT NOT NULL,
                                   PRIMARY KEY(latitude, longitude, provider, valid_at, issued_at)) WITHOUT ROWID;
        CREATE INDEX archive_steps_by_valid_time ON archive_steps(valid_at);
        CREATE TABLE archive_observations(source TEXT NOT NULL, station TEXT NOT NULL, latitude REAL NOT NULL,
                                          longitude REAL NOT NULL, observed_at INTEGER NOT NULL, condition TEXT,
                                          fields TEXT NOT NULL,
                                          PRIMARY KEY(latitude, longitude, source, observed_at)) WITHOUT ROWID;
        CREATE INDEX archive_observations_by_time ON archive_observations(observed_at);
        """,
        // The stored skill record: every archived step is folded in once (`folded`: 0 waiting, 1 folded, 2 no observation
        // near its valid time, waiting for one to arrive), and the record's decayed sums kept per group and member.
        """
        ALTER TABLE archive_steps ADD COLUMN folded INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX archive_steps_waiting ON archive_steps(latitude, longitude, valid_at) WHERE folded = 0;
        CREATE INDEX archive_steps_unobserved ON archive_steps(latitude, longitude, valid_at) WHERE folded = 2;
        CREATE TABLE skill(latitude REAL NOT NULL, longitude REAL NOT NULL, basis TEXT NOT NULL, field TEXT NOT NULL,
                           lead TEXT NOT NULL, kind TEXT NOT NULL, member TEXT NOT NULL, as_of REAL NOT NULL,
                           count INTEGER NOT NULL, sums TEXT NOT NULL,
                           PRIMARY KEY(latitude, longitude, basis, field, lead, kind, member)) WITHOUT ROWID;
        """,
        // Two places are one city when they are within 100 m of each other, judged as a city is added; cells of 0.001° kept
        // two places 55 m apart on either side of a cell's edge, and refused a place 120 m from another in the same cell.
        """
        DROP INDEX cities_by_coordinates;
        """,
    ]

    /// The user's file's layout.
    static let schema = Schema(label: "your cities and home", migrations: migrations)
}
