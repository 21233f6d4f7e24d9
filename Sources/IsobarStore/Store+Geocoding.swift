import FoundationEssentials
import IsobarEngine

extension Store {
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
}
