import Foundation
import IsobarConsensus
import IsobarCore
import IsobarStore
import Synchronization
import Testing

/// A streamed import: batch by batch in one transaction, all kept at the end or none when the source refuses.
@Suite struct ArchiveImportStreamTests {
    static func step(_ hour: Int) -> ArchivedRecord {
        .step(ArchivedStep(provider: "open-meteo", latitude: 53.9, longitude: 27.57, issuedAt: Date(timeIntervalSince1970: 1_795_856_400),
                           validAt: Date(timeIntervalSince1970: 1_795_856_400 + Double(hour) * 3_600), periodHours: 1, condition: nil,
                           values: ["temperature": Double(hour)]))
    }

    /// A source handing over `batches` in turn, then `last`.
    static func source(_ batches: [ArchiveImportBatch], then last: ArchiveImportBatch) -> @Sendable () -> ArchiveImportBatch {
        let handed = Mutex(0)
        return {
            handed.withLock { index in
                defer { index += 1 }
                return index < batches.count ? batches[index] : last
            }
        }
    }

    @Test func batchesAreAllKeptAtTheEnd() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        let batches = (0..<3).map { batch in ArchiveImportBatch.records((0..<4).map { Self.step(batch * 4 + $0) }) }
        let count = try await store.importArchive(batches: Self.source(batches + [.records([Self.step(0)])], then: .end))
        #expect(count == ArchiveImportCount(steps: 12, observations: 0))
        #expect(try await store.archiveStats().steps == 12)
    }

    @Test func aRefusalAfterBatchesKeepsNothing() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        let batches = (0..<3).map { batch in ArchiveImportBatch.records((0..<4).map { Self.step(batch * 4 + $0) }) }
        let count = try await store.importArchive(batches: Self.source(batches, then: .refused))
        #expect(count == nil)
        #expect(try await store.archiveStats().steps == 0)
        // The store still takes writes afterwards.
        #expect(try await store.importArchive(batches: Self.source(batches, then: .end))?.steps == 12)
    }
}
