import Foundation
import IsobarEngine
@testable import IsobarStore
import Testing

@Suite struct StoreGeocodingTests {
    @Test func geocodingAnswersRoundTrip() async throws {
        let store = try Store.inMemory()
        let answer = CacheEntry(fetchedAt: Date(timeIntervalSince1970: 1_795_856_400), payload: "[]")
        #expect(try await store.geocoded(provider: "p", query: "minsk") == nil)
        try await store.storeGeocoded(provider: "p", query: "minsk", entry: answer)
        #expect(try await store.geocoded(provider: "p", query: "minsk") == answer)
        #expect(try await store.geocoded(provider: "q", query: "minsk") == nil)
    }
}
