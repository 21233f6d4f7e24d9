extension Store {
    /// `migrations[n]` upgrades the schema from version n to n + 1; released ones are never edited.
    static let migrations = [
        """
        CREATE TABLE cache(provider TEXT NOT NULL, kind TEXT NOT NULL, place_key TEXT NOT NULL,
                           fetched_at REAL NOT NULL, payload TEXT NOT NULL, PRIMARY KEY(provider, kind, place_key));
        CREATE TABLE rate_events(provider TEXT NOT NULL, at REAL NOT NULL, cost REAL NOT NULL);
        CREATE INDEX rate_events_by_provider ON rate_events(provider, at);
        CREATE TABLE cooldowns(provider TEXT PRIMARY KEY, until REAL NOT NULL, reason TEXT NOT NULL);
        CREATE TABLE breakers(provider TEXT PRIMARY KEY, failures INTEGER NOT NULL, opened_at REAL);
        CREATE TABLE fetch_locks(lock_key TEXT PRIMARY KEY, holder_pid INTEGER NOT NULL, acquired_at REAL NOT NULL);
        """,
        // A call counts until it is settled (its answer came back), or until its command's deadline if it never is.
        """
        ALTER TABLE rate_events ADD COLUMN deadline REAL;
        ALTER TABLE rate_events ADD COLUMN settled_at REAL;
        """,
        // Favourites and settings moved to the user's own file (`UserDataStore`); these tables stay for the one-time import.
        """
        CREATE TABLE favourites(position INTEGER PRIMARY KEY, name TEXT NOT NULL, admin_area TEXT, country_code TEXT,
                                latitude REAL NOT NULL, longitude REAL NOT NULL, timezone TEXT, added_at REAL NOT NULL);
        CREATE UNIQUE INDEX favourites_by_coordinates ON favourites(round(latitude, 3), round(longitude, 3));
        CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE geocoding(provider TEXT NOT NULL, query TEXT NOT NULL, fetched_at REAL NOT NULL, payload TEXT NOT NULL,
                               PRIMARY KEY(provider, query));
        """,
        // Fetch locks become leases: held by a random owner token until they expire, meaningful in any process on any machine.
        """
        DROP TABLE fetch_locks;
        CREATE TABLE leases(lease_key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at REAL NOT NULL);
        """,
        // HTTP caching: an answer's own lifetime and must-revalidate flag, and the validators and body of each request's last
        // full answer for conditional requests (keyed by provider and redacted URL).
        """
        ALTER TABLE cache ADD COLUMN lifetime_s REAL;
        ALTER TABLE cache ADD COLUMN must_revalidate INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE http_validations(request_key TEXT PRIMARY KEY, etag TEXT, last_modified TEXT, body TEXT NOT NULL,
                                      stored_at REAL NOT NULL, headers TEXT NOT NULL DEFAULT '');
        """,
        // The ledger's window queries read only the calls still counting: indexed by provider and the instant a call stops
        // counting (its settling time, else its deadline, else its grant), so a window reads only the calls that may count in it.
        // And each provider's cost over every call kept, maintained by triggers: while it leaves room under the smallest
        // limit, no window can be full, and the windows need not be summed.
        """
        CREATE INDEX rate_events_by_counts_until ON rate_events(provider, coalesce(settled_at, deadline, at), cost);
        CREATE TABLE rate_totals(provider TEXT PRIMARY KEY, cost REAL NOT NULL);
        INSERT INTO rate_totals(provider, cost) SELECT provider, total(cost) FROM rate_events GROUP BY provider;
        CREATE TRIGGER rate_events_added AFTER INSERT ON rate_events BEGIN
            INSERT INTO rate_totals(provider, cost) VALUES (new.provider, new.cost)
            ON CONFLICT(provider) DO UPDATE SET cost = cost + excluded.cost;
        END;
        CREATE TRIGGER rate_events_removed AFTER DELETE ON rate_events BEGIN
            UPDATE rate_totals SET cost = cost - old.cost WHERE provider = old.provider;
        END;
        CREATE TRIGGER rate_events_changed AFTER UPDATE OF provider, cost ON rate_events BEGIN
            UPDATE rate_totals SET cost = cost - old.cost WHERE provider = old.provider;
            INSERT INTO rate_totals(provider, cost) VALUES (new.provider, new.cost)
            ON CONFLICT(provider) DO UPDATE SET cost = cost + excluded.cost;
        END;
        """,
        // Fewer pages written per call: no index on grant times (the window index above serves every query of a call's
        // windows; only pruning reads calls by grant time, a sweep of a table pruning keeps to calls a window can still
        // see), and a lease is one row of one b-tree instead of a row and its key's index entry.
        """
        DROP INDEX IF EXISTS rate_events_by_provider;
        CREATE TABLE leases_by_key(lease_key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at REAL NOT NULL) WITHOUT ROWID;
        INSERT INTO leases_by_key(lease_key, owner, expires_at) SELECT lease_key, owner, expires_at FROM leases;
        DROP TABLE leases;
        ALTER TABLE leases_by_key RENAME TO leases;
        """,
        // The process holding each lease (see `LeaseHolder`): a later command takes over the lease of one that has ended.
        """
        ALTER TABLE leases ADD COLUMN holder TEXT;
        """,
        // What each breaker's last failure said, so that a skipped call names the real cause, not only a count.
        """
        ALTER TABLE breakers ADD COLUMN last_failure TEXT;
        """,
    ]

    /// The cache's layout.
    static let schema = Schema(label: "the cache", migrations: migrations)

    /// Opens the cache file at `path` (or `:memory:`), in WAL mode for a file, and brings its schema up to date.
    static func connect(_ path: String) throws(StoreError) -> Connection {
        try schema.connect(path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }
}
