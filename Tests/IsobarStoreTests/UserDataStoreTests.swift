import Foundation
import IsobarCore
@testable import IsobarStore
import Testing

/// Places the user-data tests keep and move.
enum Sample {
    static let now = Date(timeIntervalSince1970: 1_795_856_400)
    static let minsk = Place(name: "Minsk", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!)
    static let paris = Place(name: "Paris", countryCode: "FR", coordinate: Coordinate(latitude: 48.8566, longitude: 2.3522)!,
                             timeZoneIdentifier: "Europe/Paris")
    static let london = Place(name: "London", coordinate: Coordinate(latitude: 51.5074, longitude: -0.1278)!)
    static let tokyo = Place(name: "Tokyo", adminArea: "Tokyo", countryCode: "JP", coordinate: Coordinate(latitude: 35.6895, longitude: 139.6917)!,
                             timeZoneIdentifier: "Asia/Tokyo")
}

@Suite struct UserDataStoreTests {
    @Test func citiesAreSeededOnceAddedOnceRemovedAndMoved() async throws {
        let directory = freshDirectory() + "/data/isobar"
        let store = try await UserDataStore.open(directory: directory)
        #expect(store.path == directory + "/places.sqlite")
        #expect(try await store.cities(seed: [Sample.minsk, Sample.paris], now: Sample.now) == [Sample.minsk, Sample.paris])
        #expect(try await store.removeCity(.number(1)) == .removed(Sample.minsk, position: 1))
        #expect(try await store.removeCity(.number(5)) == .noCity(cities: [Sample.paris]))
        #expect(try await store.cities(seed: [Sample.minsk, Sample.paris], now: Sample.now) == [Sample.paris])
        let nearParis = Place(name: "Paris centre", coordinate: Coordinate(latitude: 48.8567, longitude: 2.3523)!)
        #expect(try await store.addCity(nearParis, now: Sample.now) == .alreadyThere(position: 1))
        #expect(try await store.addCity(Sample.london, now: Sample.now) == .added(position: 2))
        #expect(try await store.addCity(Sample.tokyo, now: Sample.now) == .added(position: 3))
        #expect(try await store.moveCity(.number(3), to: .number(1)) == .moved(Sample.tokyo, from: 3, to: 1))
        #expect(try await store.cities(seed: [], now: Sample.now) == [Sample.tokyo, Sample.paris, Sample.london])
        #expect(try await store.moveCity(.coordinate(Sample.tokyo.coordinate), to: .number(3)) == .moved(Sample.tokyo, from: 1, to: 3))
        #expect(try await store.cities(seed: [], now: Sample.now) == [Sample.paris, Sample.london, Sample.tokyo])
        let three = [Sample.paris, Sample.london, Sample.tokyo]
        #expect(try await store.moveCity(.number(4), to: .number(1)) == .noCity(cities: three))
        #expect(try await store.moveCity(.number(1), to: .number(0)) == .noDestination(cities: three))
        #expect(try await store.moveCity(.first { $0.name == "London" }, to: .first { $0.name == "Paris" }) == .moved(Sample.london, from: 2, to: 1))
        #expect(try await store.moveCity(.number(1), to: .number(2)) == .moved(Sample.london, from: 1, to: 2))
        // A second opening sees the same list: it lives in the file.
        let again = try await UserDataStore.open(directory: directory)
        #expect(try await again.cities(seed: [Sample.minsk], now: Sample.now) == [Sample.paris, Sample.london, Sample.tokyo])
        #expect(try await again.integrityCheck() == "ok")
    }

    @Test func emptyingTheListNeverBringsTheSeedBackAndNamesNoCityInIt() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        #expect(try await store.cities(seed: [Sample.minsk], now: Sample.now) == [Sample.minsk])
        #expect(try await store.removeCity(.first { $0.name == "Minsk" }) == .removed(Sample.minsk, position: 1))
        #expect(try await store.cities(seed: [Sample.minsk], now: Sample.now).isEmpty)
        #expect(try await store.moveCity(.number(1), to: .number(1)) == .noCity(cities: []))
        #expect(try await store.removeCity(.number(1)) == .noCity(cities: []))
    }

    @Test func homeIsSetReplacedAndUnset() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        #expect(try await store.home() == nil)
        #expect(try await store.unsetHome() == nil)
        try await store.setHome(Sample.minsk, now: Sample.now)
        try await store.setHome(Sample.paris, now: Sample.now)
        #expect(try await store.home() == Sample.paris)
        #expect(try await store.unsetHome() == Sample.paris)
        #expect(try await store.home() == nil)
    }
}

@Suite struct UserDataFailureTests {
    @Test func aDamagedFileIsAnErrorAndIsLeftAsItIs() async throws {
        let directory = freshDirectory()
        let garbage = Data(repeating: 0x42, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: directory + "/places.sqlite"))
        let error = try await #require(throws: UserDataError.self) { try await UserDataStore.open(directory: directory) }
        #expect(error.code == .damaged)
        #expect(error.message.hasPrefix("cannot open your cities and home in \(directory)/places.sqlite: the file is damaged"))
        #expect(!error.message.contains("\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/places.sqlite")) == garbage)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["places.sqlite"])
    }

    @Test func aFullFileRefusesTheCityAndKeepsTheOthers() async throws {
        let directory = freshDirectory()
        // SQLite's page limit stands in for a full disk: the file may not grow past a few pages.
        let store = try await UserDataStore.open(directory: directory, options: .init(maxPageCount: 16))
        var saved: [Place] = []
        var failure: UserDataError?
        for index in 0..<100 {
            let place = Place(name: String(repeating: "n", count: 400) + "\(index)",
                              coordinate: Coordinate(latitude: Double(index) / 10, longitude: 10)!)
            do {
                _ = try await store.addCity(place, now: Sample.now)
                saved.append(place)
            } catch {
                failure = error
                break
            }
        }
        let error = try #require(failure)
        #expect(error.code == .full)
        #expect(error.message.hasPrefix("cannot save your cities and home to \(directory)/places.sqlite: the disk is full"))
        #expect(!saved.isEmpty)
        let reopened = try await UserDataStore.open(directory: directory)
        #expect(try await reopened.cities(seed: [], now: Sample.now) == saved)
    }

    @Test func aLockHeldPastTheTimeoutIsAnErrorAndNothingIsSaved() async throws {
        let directory = freshDirectory()
        let store = try await UserDataStore.open(directory: directory, options: .init(busyTimeoutMilliseconds: 100))
        _ = try await store.cities(seed: [Sample.minsk], now: Sample.now)
        let holder = try Connection(path: store.path, busyTimeoutMilliseconds: 0)
        try holder.execute("BEGIN IMMEDIATE")
        let error = try await #require(throws: UserDataError.self) { try await store.addCity(Sample.paris, now: Sample.now) }
        #expect(error.code == .locked)
        #expect(error.message.contains("\(directory)/places.sqlite: another process kept it locked for more than 100 ms"))
        try holder.execute("ROLLBACK")
        #expect(try await store.cities(seed: [], now: Sample.now) == [Sample.minsk])
        #expect(try await store.addCity(Sample.paris, now: Sample.now) == .added(position: 2))
    }

    @Test func aFolderThatCannotBeMadeIsAnError() async throws {
        let blocker = freshDirectory() + "/a-file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let inTheWay = try await #require(throws: UserDataError.self) { try await UserDataStore.open(directory: blocker + "/isobar") }
        #expect(inTheWay.message == "cannot make the folder for your cities and home, \(blocker): Not a directory")
        // /proc refuses new folders to everyone, root included.
        let proc = try await #require(throws: UserDataError.self) { try await UserDataStore.open(directory: "/proc/isobar") }
        #expect(proc.message.hasPrefix("cannot make the folder for your cities and home, /proc/isobar: "))
    }

    @Test func aFileFromANewerIsobarIsRefused() async throws {
        let directory = freshDirectory()
        _ = try await UserDataStore.open(directory: directory)
        let connection = try Connection(path: directory + "/places.sqlite", busyTimeoutMilliseconds: 1000)
        try connection.execute("PRAGMA user_version = 99")
        let error = try await #require(throws: UserDataError.self) { try await UserDataStore.open(directory: directory) }
        #expect(error.code == .newer)
        #expect(error.message.contains("schema version 99, newer than this build's \(UserDataStore.schemaVersion)"))
    }
}
