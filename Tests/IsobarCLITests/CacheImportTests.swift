import Foundation
import IsobarCLI
@testable import IsobarStore
import Testing

@Suite struct CacheImportTests {
    /// Puts cities and a home in the cache file at `directory/isobar/isobar.sqlite`, as an older Isobar kept them.
    func oldCache(_ directory: String, cities: [(String, Double, Double)], home: String?) async throws {
        let store = try await Store.open(directory: directory + "/isobar", warn: { Issue.record("unexpected warning: \($0)") })
        try await store.write { connection throws(StoreError) in
            for (index, city) in cities.enumerated() {
                try connection.query("""
                    INSERT INTO favourites(position, name, latitude, longitude, added_at) VALUES (?, ?, ?, ?, 0)
                    """, [.integer(Int64(index + 1)), .text(city.0), .real(city.1), .real(city.2)])
            }
            try connection.query("INSERT INTO settings(key, value) VALUES ('favourites_seeded', '1')")
            if let home { try connection.query("INSERT INTO settings(key, value) VALUES ('home', ?)", [.text(home)]) }
        }
    }

    @Test func citiesAndHomeInAnOlderCacheMoveOnceWithANoteAndOutliveIt() async throws {
        let cache = temporaryDirectory("old-cache")
        let data = temporaryDirectory("data")
        try await oldCache(cache, cities: [("Minsk", 53.9, 27.5667), ("Tokyo", 35.6895, 139.6917)],
                           home: #"[{"name":"London","admin_area":"England","country_code":"GB","latitude":51.5085,"longitude":-0.1257,"timezone":"Europe/London"}]"#)
        let environment = ["XDG_CACHE_HOME": cache, "XDG_DATA_HOME": data]
        let first = await runCLI(["cities", "--demo", "--format", "jsonl"], environment: environment)
        #expect(first.code == 0, "\(first.stderr)")
        #expect(first.stderr == "isobar: note: moved 2 cities and your home from the cache (\(cache)/isobar/isobar.sqlite) to "
                + "\(data)/isobar/places.sqlite, where clearing the cache cannot lose them\n")
        #expect(try parseLines(first).map { try $0.member("place").string("name") } == ["Minsk", "Tokyo"])
        let second = await runCLI(["cities", "add", "Paris", "--demo"], environment: environment)
        #expect(!second.stderr.contains("moved"))
        try FileManager.default.removeItem(atPath: cache)
        #expect(try await cityNames(environment) == ["Minsk", "Tokyo", "Paris"])
        #expect(try await homeName(environment) == "London")
    }

    @Test func cacheDirNeverChangesWhoseCitiesYouSee() async throws {
        let other = temporaryDirectory("other-cache")
        try await oldCache(other, cities: [("Tokyo", 35.6895, 139.6917)], home: nil)
        let environment = ["XDG_DATA_HOME": temporaryDirectory("data")]
        #expect(try await cityNames(environment, ["--cache-dir", other + "/isobar"]) == ["Minsk", "Moscow"])
        #expect(try await cityNames(environment) == ["Minsk", "Moscow"])
    }
}
