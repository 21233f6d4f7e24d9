import Foundation
import IsobarCore
import IsobarEngine
@testable import IsobarStore
import Testing

/// The files under `directory` this process holds open (other tests' files are not counted).
private func openFiles(under directory: String) -> Int {
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return descriptors.filter { descriptor in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor))?.hasPrefix(directory) == true
    }.count
}

@Suite struct StoreFilesClosedTests {
    @Test func aStoreLetGoClosesEveryFileItOpened() async throws {
        let directory = freshDirectory()
        do {
            let first = try await Store.open(directory: directory, warn: noWarnings)
            try await first.store(CacheEntry(fetchedAt: Date(timeIntervalSince1970: 1_795_856_400), payload: "x"), for: key("k"))
        }
        for _ in 0..<20 {
            let store = try await Store.open(directory: directory, warn: noWarnings)
            _ = try await store.entry(for: key("k"))
        }
        for _ in 0..<20 {
            let store = try await Store.open(directory: directory, warn: noWarnings)
            try await store.store(CacheEntry(fetchedAt: Date(timeIntervalSince1970: 1_795_856_400), payload: "y"), for: key("k"))
        }
        // The threads close their connections as they end, just after the stores go: wait for that, not for a time.
        var after = openFiles(under: directory)
        for _ in 0..<500 where after > 0 {
            try await Task.sleep(for: .milliseconds(10))
            after = openFiles(under: directory)
        }
        #expect(after == 0, "\(after) files of the folder still open after 41 stores came and went")
    }
}
