import Foundation
import IsobarCore
import IsobarEngine
import IsobarStore
import IsobarTestKit
import Testing

/// A value-type cache: never one backend with another part, and none of the one-step capabilities.
private struct ValueCache: ResponseCache {
    func entry(for key: CacheKey) async throws(StorageError) -> CacheEntry? { nil }
    func store(_ entry: CacheEntry, for key: CacheKey) async throws(StorageError) {}
    func removeEntry(for key: CacheKey) async throws(StorageError) {}
}

/// What each storage part says of itself decides which one-step paths the pipeline takes; these were dynamic casts.
@Suite struct StoragePartTests {
    @Test func theStoreIsOneBackendThatReadsHealthAndCacheWithItsLeasesAndQueuesWrites() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let storage = EngineStorage(store)
        #expect(storage.cache.backendIdentity == ObjectIdentifier(store))
        #expect(storage.ledger.backendIdentity == ObjectIdentifier(store))
        #expect(storage.locks.backendIdentity == ObjectIdentifier(store))
        #expect(storage.cooldowns.asHealthStore?.backendIdentity == ObjectIdentifier(store))
        #expect(storage.locks.asLeaseLookup?.backendIdentity == ObjectIdentifier(store))
        #expect(storage.cache.asQueuedWriting != nil)
    }

    @Test func memoryStorageIsOneBackendWithoutTheOneStepReads() {
        let memory = MemoryStorage()
        let storage = EngineStorage(memory)
        #expect(storage.cache.backendIdentity == ObjectIdentifier(memory))
        #expect(storage.cooldowns.asHealthStore == nil)
        #expect(storage.locks.asLeaseLookup == nil)
        #expect(storage.cache.asQueuedWriting == nil)
    }

    @Test func twoObjectsAreTwoBackendsAndAValueIsNone() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let memory = MemoryStorage()
        #expect((store as any ResponseCache).backendIdentity != (memory as any ResponseCache).backendIdentity)
        #expect(ValueCache().backendIdentity == nil)
        #expect(ValueCache().asLeaseLookup == nil)
        #expect(ValueCache().asQueuedWriting == nil)
    }
}
