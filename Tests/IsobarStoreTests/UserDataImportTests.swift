import Foundation
import IsobarCore
@testable import IsobarStore
import Testing

/// Writes a cache file as an older Isobar left it: favourites, the seeded flag and a home in its settings.
func oldCache(cities: [Place], home: Place?, seeded: Bool = true) throws -> String {
    let path = freshDirectory() + "/isobar.sqlite"
    let connection = try Connection(path: path, busyTimeoutMilliseconds: 1000)
    try connection.execute("PRAGMA journal_mode=WAL")
    for migration in Store.migrations[0..<3] { try connection.execute(migration) }
    try connection.execute("PRAGMA user_version = 3")
    for (index, place) in cities.enumerated() {
        try connection.query("""
            INSERT INTO favourites(position, name, admin_area, country_code, latitude, longitude, timezone, added_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, 0)
            """, [.integer(Int64(index + 1)), .text(place.name), place.adminArea.map(SQLValue.text) ?? .null,
                  place.countryCode.map(SQLValue.text) ?? .null, .real(place.coordinate.latitude), .real(place.coordinate.longitude),
                  place.timeZoneIdentifier.map(SQLValue.text) ?? .null])
    }
    if seeded { try connection.query("INSERT INTO settings(key, value) VALUES ('favourites_seeded', '1')") }
    if let home {
        let json = #"[{"name":"\#(home.name)","admin_area":null,"country_code":"\#(home.countryCode ?? "")","#
            + #""latitude":\#(home.coordinate.latitude),"longitude":\#(home.coordinate.longitude),"timezone":null}]"#
        try connection.query("INSERT INTO settings(key, value) VALUES ('home', ?)", [.text(json)])
    }
    return path
}

@Suite struct UserDataImportTests {
    @Test func citiesAndHomeComeOverOnceAndNeverAgain() async throws {
        let old = try oldCache(cities: [Sample.tokyo, Sample.minsk], home: Sample.london)
        let store = try await UserDataStore.open(directory: freshDirectory())
        #expect(try await store.importFromCache(old, now: Sample.now) == .imported(cities: 2, home: true))
        #expect(try await store.cities(seed: [Sample.paris], now: Sample.now) == [Sample.tokyo, Sample.minsk])
        #expect(try await store.home()?.name == "London")
        #expect(try await store.home()?.coordinate == Sample.london.coordinate)
        // Never twice, from this file or another: changes made since stay as they are.
        #expect(try await store.removeCity(.number(1)) == .removed(Sample.tokyo, position: 1))
        #expect(try await store.importFromCache(old, now: Sample.now) == .doneBefore)
        let other = try oldCache(cities: [Sample.paris], home: Sample.paris)
        #expect(try await store.importFromCache(other, now: Sample.now) == .doneBefore)
        #expect(try await store.cities(seed: [], now: Sample.now) == [Sample.minsk])
    }

    @Test func citiesAlreadyHereAndTheirHomeAreNeverReplaced() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        _ = try await store.cities(seed: [Sample.minsk], now: Sample.now)
        _ = try await store.addCity(Sample.london, now: Sample.now)
        try await store.setHome(Sample.minsk, now: Sample.now)
        let nearMinsk = Place(name: "Minsk (old)", coordinate: Coordinate(latitude: 53.9001, longitude: 27.5668)!)
        let old = try oldCache(cities: [Sample.paris, nearMinsk], home: Sample.paris)
        #expect(try await store.importFromCache(old, now: Sample.now) == .imported(cities: 1, home: false))
        #expect(try await store.cities(seed: [], now: Sample.now) == [Sample.minsk, Sample.london, Sample.paris])
        #expect(try await store.home() == Sample.minsk)
    }

    @Test func anEmptiedOldListStaysEmptyAndAMissingFileCountsAsDone() async throws {
        let emptied = try await UserDataStore.open(directory: freshDirectory())
        #expect(try await emptied.importFromCache(try oldCache(cities: [], home: nil), now: Sample.now) == .imported(cities: 0, home: false))
        #expect(try await emptied.cities(seed: [Sample.minsk], now: Sample.now).isEmpty)
        let fresh = try await UserDataStore.open(directory: freshDirectory())
        #expect(try await fresh.importFromCache(freshDirectory() + "/isobar.sqlite", now: Sample.now) == .imported(cities: 0, home: false))
        #expect(try await fresh.importFromCache(try oldCache(cities: [Sample.paris], home: nil), now: Sample.now) == .doneBefore)
        #expect(try await fresh.cities(seed: [Sample.minsk], now: Sample.now) == [Sample.minsk])
    }

    @Test func anUnreadableOldFileIsSaidAndTriedAgainLater() async throws {
        let directory = freshDirectory()
        let path = directory + "/isobar.sqlite"
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: path))
        let store = try await UserDataStore.open(directory: freshDirectory())
        let result = try await store.importFromCache(path, now: Sample.now)
        guard case .unreadable(let reason) = result else {
            Issue.record("expected unreadable, got \(result)")
            return
        }
        #expect(reason.hasPrefix("cannot read the cities an older isobar kept in \(path): "))
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: try oldCache(cities: [Sample.tokyo], home: nil), toPath: path)
        #expect(try await store.importFromCache(path, now: Sample.now) == .imported(cities: 1, home: false))
    }
}
