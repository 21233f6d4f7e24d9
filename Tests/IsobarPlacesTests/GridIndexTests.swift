import Foundation
import IsobarCore
@testable import IsobarPlaces
import IsobarTestKit
import Testing

@Suite("Spatial index file: missing and damaged files are clear errors, never crashes")
final class GridIndexTests {
    /// A fresh directory for this test's files, removed when the test ends.
    let directory: String
    /// The bundled index, as made by scripts/make-gazetteer.py.
    let original: [UInt8]
    private var written = 0
    private let minsk = Coordinate(latitude: 53.9, longitude: 27.5667)!

    init() throws {
        directory = try Fixture.temporaryDirectory()
        original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixture.configDirectory + "/gazetteer/cities15000.grid")))
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// A gazetteer over the bundled file with `bytes` as its index.
    private func gazetteer(index bytes: [UInt8]) throws -> Gazetteer {
        written += 1
        let path = directory + "/index-\(written).grid"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return Gazetteer(path: Fixture.gazetteerPath, indexPath: path)
    }

    /// The error naming `coordinate` raises with this index, if any.
    private func failure(_ bytes: [UInt8], at coordinate: Coordinate? = nil) throws -> GazetteerError? {
        let gazetteer = try gazetteer(index: bytes)
        do throws(GazetteerError) {
            _ = try gazetteer.place(at: coordinate ?? minsk, plainName: "x")
            return nil
        } catch {
            return error
        }
    }

    private func field(_ number: Int) -> Int { Int(original.littleEndianUInt32(at: 8 + 4 * number)) }

    private func with(_ bytes: [UInt8], uint32 value: UInt32, at offset: Int) -> [UInt8] {
        var changed = bytes
        for byte in 0..<4 { changed[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
        return changed
    }

    @Test func theBundledIndexIsWhole() throws {
        #expect(try failure(original) == nil)
        #expect(field(3) == 34_006)
    }

    @Test func aMissingIndexSaysHowToMakeIt() throws {
        let gazetteer = Gazetteer(path: Fixture.gazetteerPath, indexPath: directory + "/absent.grid")
        #expect(throws: GazetteerError(.missingFile, "")) { try gazetteer.place(at: self.minsk, plainName: "x") }
        do throws(GazetteerError) {
            _ = try gazetteer.nearest(to: minsk, withinKilometres: 25)
        } catch {
            #expect(error.message.contains("scripts/make-gazetteer.py"))
        }
    }

    @Test func aDirectoryIsNotAnIndex() throws {
        let gazetteer = Gazetteer(path: Fixture.gazetteerPath, indexPath: directory)
        #expect(throws: GazetteerError(.unreadableFile, "")) { try gazetteer.nearest(to: self.minsk, withinKilometres: 25) }
    }

    @Test func wrongHeadersAreRefusedWithTheReason() throws {
        var wrongMagic = original
        wrongMagic[0] = UInt8(ascii: "X")
        let cases: [([UInt8], String)] = [
            ([], "shorter than its 64-byte header"),
            (Array("isobar-gazetteer\t1\n".utf8), "shorter than its 64-byte header"),
            (wrongMagic, "not an Isobar place index"),
            (with(original, uint32: 2, at: 8), "format version 2"),
            (with(original, uint32: 90, at: 12), "180 × 360"),
            (with(original, uint32: 1, at: 36), "sections do not fit"),
            (with(original, uint32: UInt32(original.count + 16), at: 44), "its header says"),
            (with(original, uint32: UInt32.max, at: 32), "sections do not fit"),
        ]
        for (bytes, reason) in cases {
            let error = try #require(try failure(bytes))
            #expect(error.code == .corruptFile, "\(reason)")
            #expect(error.message.contains("is damaged"), "\(error.message)")
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }

    @Test func everyTruncationIsAClearError() throws {
        var generator = SeededGenerator(seed: 2026)
        let lengths = [1, 63, 64, 65, field(7), field(8) - 1, field(8), original.count - 16, original.count - 1]
            + (0..<20).map { _ in Int.random(in: 0..<original.count, using: &generator) }
        for length in lengths {
            let error = try #require(try failure(Array(original.prefix(length))), "\(length) bytes")
            #expect(error.code == .corruptFile)
        }
    }

    @Test func damagedCellsAndEntriesAreCaught() throws {
        let cells = field(7)
        let entries = field(8)
        var outside = original
        // Every cell says its cities start past the end of the entries.
        for offset in stride(from: cells, to: entries, by: 4) { outside = with(outside, uint32: UInt32.max, at: offset) }
        #expect(try failure(outside)?.message.contains("points outside") == true)
        var moved = original
        // Every city moved to 0,0: each is then outside its cell.
        for offset in stride(from: entries, to: original.count, by: 16) { moved = with(with(moved, uint32: 0, at: offset), uint32: 0, at: offset + 4) }
        #expect(try failure(moved)?.message.contains("outside its cell") == true)
        var shifted = original
        // Every line offset one byte off: no line starts there.
        for offset in stride(from: entries + 8, to: original.count, by: 16) {
            shifted = with(shifted, uint32: original.littleEndianUInt32(at: offset) + 1, at: offset)
        }
        #expect(try failure(shifted)?.message.contains("points at no line") == true)
        var zones = original
        // Every zone number past the end of the zone list.
        for offset in stride(from: entries + 14, to: original.count, by: 16) { zones[offset] = 0xFF; zones[offset + 1] = 0xFF }
        #expect(try failure(zones)?.code == .corruptFile)
    }

    @Test func aDamagedZoneListIsCaught() throws {
        let zones = field(5)..<(field(5) + field(6))
        var unended = original
        // No name ends: every newline of the list overwritten.
        for offset in zones where unended[offset] == 0x0A { unended[offset] = UInt8(ascii: "x") }
        #expect(try failure(unended)?.message.contains("is not in its zone list") == true)
        var blank = original
        // Every name empty.
        for offset in zones { blank[offset] = 0x0A }
        #expect(try failure(blank)?.message.contains("is not in its zone list") == true)
        var truncated = original
        // The last name without its newline: the zones before it are still read.
        truncated[zones.upperBound - 1] = UInt8(ascii: "x")
        #expect(try failure(truncated) == nil)
    }

    @Test func oddRadiiAreHarmless() throws {
        let gazetteer = try gazetteer(index: original)
        #expect(try gazetteer.nearest(to: minsk, withinKilometres: -1) == nil)
        #expect(try gazetteer.nearest(to: minsk, withinKilometres: .nan) == nil)
        #expect(try gazetteer.nearest(to: minsk, withinKilometres: 0)?.place.name == nil)
        #expect(try gazetteer.nearest(to: minsk, withinKilometres: .infinity)?.place.name == "Minsk")
    }

    @Test func anIndexForAnotherGazetteerIsRefused() throws {
        let error = try #require(try failure(with(original, uint32: UInt32(field(4) + 1), at: 24)))
        #expect(error.code == .corruptFile)
        #expect(error.message.contains("another gazetteer file"))
    }

    @Test func randomDamageNeverCrashes() throws {
        var generator = SeededGenerator(seed: 1_600_004)
        let places = [minsk, Coordinate(latitude: 35.6895, longitude: 139.6917)!, Coordinate(latitude: -16.4, longitude: -179.9)!]
        for _ in 0..<120 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            for place in places {
                // Either an answer or a GazetteerError: anything else would end the test process.
                _ = try failure(bytes, at: place)
            }
        }
    }
}
