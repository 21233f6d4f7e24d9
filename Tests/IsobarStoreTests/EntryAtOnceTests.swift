import Foundation
import IsobarCore
import IsobarEngine
@testable import IsobarStore
import IsobarTestKit
import Testing

/// The cache read a fresh hit makes on its caller's thread: answered at once when a connection there can, never waiting.
@Suite struct EntryAtOnceTests {
    private let entry = CacheEntry(fetchedAt: Date(timeIntervalSince1970: 1_800_000_000), payload: "kept", lifetimeSeconds: 60)

    private func read(_ store: Store, _ key: CacheKey) -> CacheEntry?? {
        guard case .answered(let found) = store.entryAtOnce(for: key) else { return nil }
        return .some(found)
    }

    @Test func aStoredEntryAndAMissingOneAreBothAnsweredAtOnce() async throws {
        let directory = freshDirectory()
        let writer = try await Store.open(directory: directory, warn: noWarnings)
        try await writer.store(entry, for: key("1,2"))
        let reader = try await Store.open(directory: directory, warn: noWarnings)
        #expect(read(reader, key("1,2")) == .some(entry))
        #expect(read(reader, key("3,4")) == .some(nil))
        // Read on the caller's thread: the store started none of its own.
        #expect(reader.threadsStarted == 0)
    }

    @Test func anAnswerQueuedToBeKeptIsReadAsIfItWere() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        await store.storeSoon(entry, for: key("1,2"), failed: { Issue.record("\($0.message)") })
        #expect(read(store, key("1,2")) == .some(entry))
        await store.flushQueuedWrites()
        #expect(read(store, key("1,2")) == .some(entry))
    }

    @Test func aStoreWhoseReadsAllGoToItsThreadWouldWait() async throws {
        let directory = freshDirectory()
        let writer = try await Store.open(directory: directory, warn: noWarnings)
        try await writer.store(entry, for: key("1,2"))
        let slow = try await Store.open(directory: directory, options: Store.Options(artificialDelayPerJob: .milliseconds(1)),
                                        warn: noWarnings)
        guard case .wouldWait = slow.entryAtOnce(for: key("1,2")) else {
            Issue.record("a store without readers on the caller's thread answered at once")
            return
        }
        #expect(try await slow.entry(for: key("1,2")) == entry)
    }

    @Test func aStoreInMemoryWouldWait() async throws {
        let store = try Store.inMemory()
        try await store.store(entry, for: key("1,2"))
        guard case .wouldWait = store.entryAtOnce(for: key("1,2")) else {
            Issue.record("an in-memory store answered at once")
            return
        }
    }
}
