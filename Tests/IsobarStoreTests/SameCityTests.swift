import Foundation
import IsobarCore
@testable import IsobarStore
import Testing

/// A place at the given point, named after it.
private func spot(_ latitude: Double, _ longitude: Double) -> Place {
    Place(name: "\(latitude),\(longitude)", coordinate: Coordinate(latitude: latitude, longitude: longitude)!)
}

@Suite struct SameCityTests {
    @Test func aPlaceWithin100MetresOfACityIsThatCity() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        _ = try await store.cities(seed: [], now: Sample.now)
        #expect(try await store.addCity(spot(10.0, 20.0), now: Sample.now) == .added(position: 1))
        // 56 m north, across the edge of a 0.001° cell.
        #expect(try await store.addCity(spot(10.0005, 20), now: Sample.now) == .alreadyThere(position: 1))
        #expect(try await store.addCity(spot(9.9996, 20.0004), now: Sample.now) == .alreadyThere(position: 1))
        // 133 m north: another city.
        #expect(try await store.addCity(spot(10.0012, 20), now: Sample.now) == .added(position: 2))
        // Between them, nearer the second: that one.
        #expect(try await store.addCity(spot(10.0008, 20), now: Sample.now) == .alreadyThere(position: 2))
        #expect(try await store.cities(seed: [], now: Sample.now) == [spot(10.0, 20.0), spot(10.0012, 20)])
        // Coordinates name a city by the same rule.
        #expect(try await store.removeCity(.coordinate(Coordinate(latitude: 10.0008, longitude: 20)!)) == .removed(spot(10.0012, 20), position: 2))
        #expect(try await store.removeCity(.coordinate(Coordinate(latitude: 10.0010, longitude: 20)!)) == .noCity(cities: [spot(10.0, 20.0)]))
    }

    @Test func placesMoreThan100MetresApartAreTwoCitiesEvenInOneCell() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        _ = try await store.cities(seed: [], now: Sample.now)
        // Both round to 10.000,20.000, 124 m apart.
        #expect(try await store.addCity(spot(10.0004, 20.0004), now: Sample.now) == .added(position: 1))
        #expect(try await store.addCity(spot(9.9996, 19.9996), now: Sample.now) == .added(position: 2))
        #expect(Coordinate(latitude: 10.0004, longitude: 20.0004)!.metres(to: Coordinate(latitude: 9.9996, longitude: 19.9996)!) > 100)
    }

    @Test func aFileFromBeforeTheRuleKeepsItsCitiesAndTakesTheRule() async throws {
        let directory = freshDirectory()
        let path = directory + "/" + UserDataStore.fileName
        do {
            let old = try Connection(path: path, busyTimeoutMilliseconds: 1000)
            for migration in UserDataStore.migrations.prefix(3) { try old.execute(migration) }
            try old.execute("""
                INSERT INTO cities(position, name, latitude, longitude, added_at) VALUES (1, '10.0004,20.0004', 10.0004, 20.0004, 0);
                INSERT INTO facts(key, value) VALUES ('cities_seeded', '0');
                PRAGMA user_version = 3;
                """)
        }
        let store = try await UserDataStore.open(directory: directory)
        #expect(try await store.cities(seed: [Sample.minsk], now: Sample.now) == [spot(10.0004, 20.0004)])
        #expect(try await store.addCity(spot(9.9996, 19.9996), now: Sample.now) == .added(position: 2))
        #expect(try await store.addCity(spot(10.0009, 20.0004), now: Sample.now) == .alreadyThere(position: 1))
        #expect(try await store.integrityCheck() == "ok")
    }
}
