// SQLite-backed storage: cache, favourites, rate-limit ledger.
