import FoundationEssentials
import IsobarCore
#if canImport(Glibc)
import Glibc
#endif

/// What the one-time import of cities and home from an older Isobar's cache file did.
public enum CacheImport: Sendable, Equatable {
    /// Done before (from this file or another): nothing read.
    case doneBefore
    /// Done now: how many cities were added (those already here are kept, never replaced) and whether the home was taken.
    case imported(cities: Int, home: Bool)
    /// The old file exists but cannot be read (why, in one line); nothing was changed, and the next call tries again.
    case unreadable(String)
}

extension UserDataStore {
    /// Imports, once in this file's life, the cities and home an older Isobar kept in its cache file at `cachePath`.
    ///
    /// Cities already here stay, in their order; the old ones not here yet (none within 100 m) follow. The old home is taken
    /// only when none is set. The old file is only read. A missing file counts as done (there is nothing to import).
    public func importFromCache(_ cachePath: String, now: Date) async throws(UserDataError) -> CacheImport {
        let done = try await read { connection throws(StoreError) in try Self.fact("imported_from_cache", connection) != nil }
        guard !done else { return .doneBefore }
        return try await write { connection throws(StoreError) in
            guard try Self.fact("imported_from_cache", connection) == nil else { return .doneBefore }
            let old: OldPlaces
            do throws(StoreError) {
                old = try OldPlaces(cachePath)
            } catch {
                return .unreadable("cannot read the cities an older isobar kept in \(cachePath): \(error.cause)")
            }
            var added = 0
            for place in old.cities {
                if case .added = try Self.insertCity(place, now: now, connection) { added += 1 }
            }
            if old.seeded, try Self.fact("cities_seeded", connection) == nil {
                try Self.setFact("cities_seeded", "\(now.timeIntervalSince1970)", connection)
            }
            var tookHome = false
            if let home = old.home, try connection.query("SELECT 1 FROM home").isEmpty {
                try Self.storeHome(home, now: now, connection)
                tookHome = true
            }
            try Self.setFact("imported_from_cache", "\(cachePath) at \(now.timeIntervalSince1970)", connection)
            return .imported(cities: added, home: tookHome)
        }
    }
}

/// The cities, home and seeded flag an older Isobar kept in the `favourites` and `settings` tables of its cache file.
private struct OldPlaces {
    var cities: [Place] = []
    var home: Place?
    var seeded = false

    /// Reads them from the file at `path`, opened read-only; a missing file or one without those tables holds none.
    init(_ path: String) throws(StoreError) {
        guard access(path, F_OK) == 0 else { return }
        let connection = try Connection(path: path, busyTimeoutMilliseconds: Store.busyTimeoutMilliseconds, readOnly: true)
        let tables = Set(try connection.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.first?.text })
        if tables.contains("favourites") {
            cities = try connection.query("SELECT \(UserDataStore.columns) FROM favourites ORDER BY position").compactMap(UserDataStore.place)
        }
        guard tables.contains("settings") else { return }
        seeded = try !connection.query("SELECT 1 FROM settings WHERE key = 'favourites_seeded'").isEmpty
        if let text = try connection.query("SELECT value FROM settings WHERE key = 'home'").first?.first?.text {
            home = Self.decodeHome(text)
        }
    }

    /// The home setting: a JSON array holding one place object.
    private static func decodeHome(_ text: String) -> Place? {
        // An unreadable old home is no home: the import goes on with the cities.
        (try? JSONDocument(parsing: text).rootValue.elements().first).flatMap { try? PlaceJSON.place($0) }
    }
}
