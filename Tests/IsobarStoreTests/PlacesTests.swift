import Foundation
import IsobarCore
import IsobarEngine
@testable import IsobarStore
import Testing

@Suite struct PlacesTests {
    let now = Date(timeIntervalSince1970: 1_795_856_400)
    let minsk = Place(name: "Minsk", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!)
    let paris = Place(name: "Paris", countryCode: "FR", coordinate: Coordinate(latitude: 48.8566, longitude: 2.3522)!,
                      timeZoneIdentifier: "Europe/Paris")
    let london = Place(name: "London", coordinate: Coordinate(latitude: 51.5074, longitude: -0.1278)!)

    @Test func favouritesAreSeededOnceAddedOnceAndRemovedByPosition() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        #expect(try await store.favourites(seed: [minsk, paris], now: now) == [minsk, paris])
        #expect(try await store.removeFavourite(at: 1) == minsk)
        #expect(try await store.removeFavourite(at: 5) == nil)
        #expect(try await store.favourites(seed: [minsk, paris], now: now) == [paris])
        let nearParis = Place(name: "Paris centre", coordinate: Coordinate(latitude: 48.8567, longitude: 2.3523)!)
        #expect(try await store.addFavourite(nearParis, now: now) == .alreadyThere(position: 1))
        #expect(try await store.addFavourite(london, now: now) == .added(position: 2))
        #expect(try await store.favourites(seed: [], now: now) == [paris, london])
    }

    @Test func settingsAndGeocodingAnswersRoundTrip() async throws {
        let store = try Store.inMemory()
        #expect(try await store.setting("home") == nil)
        try await store.setSetting("home", "minsk")
        try await store.setSetting("home", "paris")
        #expect(try await store.setting("home") == "paris")
        #expect(try await store.geocoded(provider: "p", query: "minsk") == nil)
        let answer = CacheEntry(fetchedAt: now, payload: "[]")
        try await store.storeGeocoded(provider: "p", query: "minsk", entry: answer)
        #expect(try await store.geocoded(provider: "p", query: "minsk") == answer)
        #expect(try await store.geocoded(provider: "q", query: "minsk") == nil)
    }
}
