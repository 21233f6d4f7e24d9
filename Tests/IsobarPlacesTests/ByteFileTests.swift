import Foundation
@testable import IsobarPlaces
import Testing

@Suite("Byte file: a file allowed in memory is read in parts first, and whole only once it is read often")
struct ByteFileTests {
    private func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "isobar-bytefile-\(UUID().uuidString)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func overwrite(_ path: String, _ text: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    @Test func theFirstReadsComeFromTheFileThenFromWhatWasReadWhole() throws {
        let path = try file("aaaaaaaa")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try ByteFile(path: path, what: "the test file", inMemoryUpTo: 1 << 20)
        #expect(bytes.read(at: 0, count: 2) == Array("aa".utf8))
        // Not read when opened: a change after opening is seen by the reads in parts.
        try overwrite(path, "bbbbbbbb")
        #expect(bytes.read(at: 2, count: 2) == Array("bb".utf8))
        for _ in 0..<ByteFile.partsBeforeReadingWhole { _ = bytes.read(at: 0, count: 1) }
        // Read whole by now: a later change is not seen, whether read by copy or in place.
        try overwrite(path, "cccccccc")
        #expect(bytes.read(at: 4, count: 4) == Array("bbbb".utf8))
        #expect(try bytes.withBytes(at: 6, count: 2) { Array($0) } == Array("bb".utf8))
    }

    @Test func aFileBeyondTheLimitIsAlwaysReadInParts() throws {
        let path = try file("aaaa")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try ByteFile(path: path, what: "the test file", inMemoryUpTo: 3)
        for _ in 0...ByteFile.partsBeforeReadingWhole { _ = bytes.read(at: 0, count: 1) }
        try overwrite(path, "dddd")
        #expect(bytes.read(at: 0, count: 4) == Array("dddd".utf8))
    }

    @Test func aFileThatShrankBeforeItIsReadWholeGivesShortReadsNotACrash() throws {
        let path = try file("aaaaaaaa")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try ByteFile(path: path, what: "the test file", inMemoryUpTo: 1 << 20)
        #expect(truncate(path, 3) == 0)
        for _ in 0...ByteFile.partsBeforeReadingWhole { _ = bytes.read(at: 0, count: 1) }
        #expect(bytes.read(at: 0, count: 3) == Array("aaa".utf8))
        #expect(bytes.read(at: 0, count: 8) == nil)
        #expect(try bytes.withBytes(at: 4, count: 4) { Array($0) } == nil)
        // Out of the size it had when opened: refused before any read.
        #expect(bytes.read(at: 6, count: 4) == nil)
    }
}
