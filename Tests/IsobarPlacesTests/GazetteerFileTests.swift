import Foundation
@testable import IsobarPlaces
import IsobarTestKit
import Testing

@Suite("Gazetteer file: laziness, missing and damaged files")
final class GazetteerFileTests {
    /// A fresh directory for this test's files, removed when the test ends.
    let directory: String
    private var written = 0

    init() throws { directory = try Fixture.temporaryDirectory() }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// A small valid file in the bundled format: two cities, one with alternates. Names are numbered
    /// 0 Minsk, 1 Минск, 2 Mińsk, 3 Baranovichi; the index lists them by folded name.
    static let sample = """
        isobar-gazetteer\t1\t1\t0\t1\t2\t4\t4
        # test file
        BY\tBLR\tBelarus
        Europe/Minsk
        625144\tMinsk\t\tBY\t04\t53.90019\t27.56653\t1742124\t0\tМинск|Mińsk
        630429\tBaranovichi\t\tBY\t02\t53.1327\t26.0139\t179000\t0\t
        3
        0
        2
        1

        """

    private func write(_ text: String) throws -> String {
        try write(Array(text.utf8))
    }

    private func write(_ bytes: [UInt8]) throws -> String {
        written += 1
        let path = directory + "/cities-\(written).tsv"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func constructingReadsNothing() throws {
        let gazetteer = Gazetteer(path: "/nonexistent/isobar/cities.tsv")
        #expect(!gazetteer.isLoaded)
        #expect(throws: GazetteerError(.missingFile, "")) { try gazetteer.search("Minsk") }
        #expect(!gazetteer.isLoaded)
    }

    @Test func badQueriesDoNotReadTheFile() throws {
        let gazetteer = Gazetteer(path: "/nonexistent/isobar/cities.tsv")
        #expect(throws: GazetteerError(.invalidQuery, "")) { try gazetteer.search("M") }
        #expect(!gazetteer.isLoaded)
    }

    @Test func readsOnFirstSearchOnly() throws {
        let path = try write(Self.sample)
        let gazetteer = Gazetteer(path: path)
        #expect(!gazetteer.isLoaded)
        #expect(try gazetteer.search("Minsk").first?.geonamesID == 625144)
        #expect(gazetteer.isLoaded)
        try FileManager.default.removeItem(atPath: path)
        #expect(try gazetteer.search("Минск").first?.matchedName == "Минск")
        #expect(try gazetteer.search("bara").first?.place.name == "Baranovichi")
    }

    @Test func missingFileMessageNamesThePath() {
        do {
            try Gazetteer(dataDirectory: "/nonexistent/config").load()
            Issue.record("no error")
        } catch {
            #expect(error.code == .missingFile)
            #expect(error.message.contains("/nonexistent/config/gazetteer/cities15000.tsv"))
        }
    }

    @Test func directoryIsUnreadable() throws {
        #expect(throws: GazetteerError(.unreadableFile, "")) { try Gazetteer(path: directory).load() }
    }

    @Test func unreadableFile() throws {
        guard getuid() != 0 else { return }  // root reads anything
        let path = try write(Self.sample)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
        #expect(throws: GazetteerError(.unreadableFile, "")) { try Gazetteer(path: path).load() }
    }

    @Test(arguments: [
        ("", "the file is empty"),
        ("hello world\n", "not an Isobar gazetteer file"),
        ("{\"json\": true}", "not an Isobar gazetteer file"),
        ("isobar-gazetteer\t2\t0\t0\t0\t0\t0\t0\n", "format version 2"),
        ("isobar-gazetteer\t1\tx\t0\t0\t0\t0\t0\n", "bad counts"),
    ])
    func damagedHeaders(text: String, problem: String) throws {
        let gazetteer = Gazetteer(path: try write(text))
        do {
            try gazetteer.load()
            Issue.record("accepted")
        } catch {
            #expect(error.code == .corruptFile)
            #expect(error.message.contains(problem))
        }
        #expect(!gazetteer.isLoaded)
    }

    @Test func truncatedFilesAreCorrupt() throws {
        let bytes = Array(Self.sample.utf8)
        for length in stride(from: 1, to: bytes.count - 1, by: 7) {
            let gazetteer = Gazetteer(path: try write(Array(bytes.prefix(length))))
            #expect(throws: GazetteerError(.corruptFile, "")) { try gazetteer.load() }
        }
        #expect(throws: Never.self) { try Gazetteer(path: try write(bytes)).load() }
    }

    @Test(arguments: [
        ("625144\tMinsk\t\tBY\t04\t53.90019\t27.56653\t1742124\t0\tМинск|Mińsk", "625144\tMinsk\t\tBY\t04\t93.9\t27.56653\t1742124\t0\tМинск|Mińsk"),
        ("625144\tMinsk\t\tBY\t04\t53.90019\t27.56653\t1742124\t0\tМинск|Mińsk", "625144\tMinsk\t\tBY\t04\t53.90019\t27.56653\t1742124\t7\tМинск|Mińsk"),
        ("625144\tMinsk\t\tBY\t04\t53.90019\t27.56653\t1742124\t0\tМинск|Mińsk", "625144\tMinsk\tBY\t04\t53.90019\t27.56653\t1742124\t0\tМинск|Mińsk"),
        ("625144\tMinsk\t\tBY\t04\t53.90019\t27.56653\t1742124\t0\tМинск|Mińsk", "625144\tMinsk\t\tBY\t04\t53.90019\t27.56653\tmany\t0\tМинск|Mińsk"),
        ("625144\tMinsk\t\tBY\t04\t53.90019\t27.56653\t1742124\t0\tМинск|Mińsk", "625144\tMinsk\t\tBY\t04\t53.90019\t27.56653\t1742124\t0\tМинск||Mińsk"),
        ("625144\tMinsk\t\tBY\t04\t53.90019\t27.56653\t1742124\t0\tМинск|Mińsk", "625144\tMinsk\t\tBY\t04\t53.90019\t27.56653\t1742124\t0\tМинск"),
        ("\n3\n0\n2\n1\n", "\n3\n0\n2\n9\n"),
        ("\n3\n0\n2\n1\n", "\n3\n0\n2\n1\nextra\n"),
        // Counts no file of this size can hold are refused before anything is allocated for them.
        ("isobar-gazetteer\t1\t1\t0\t1\t2\t4\t4", "isobar-gazetteer\t1\t1\t0\t1\t4000000000\t4\t4"),
        ("isobar-gazetteer\t1\t1\t0\t1\t2\t4\t4", "isobar-gazetteer\t1\t1\t0\t70000\t2\t4\t4"),
    ])
    func damagedLines(original: String, damaged: String) throws {
        let text = Self.sample.replacingOccurrences(of: original, with: damaged)
        #expect(text != Self.sample)
        #expect(throws: GazetteerError(.corruptFile, "")) { try Gazetteer(path: try write(text)).load() }
    }

    @Test func randomGarbageNeverCrashes() throws {
        var generator = SeededGenerator(seed: 7)
        let valid = Array(Self.sample.utf8)
        for _ in 0..<200 {
            var bytes = valid
            for _ in 0..<3 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            let gazetteer = Gazetteer(path: try write(bytes))
            // Either a clean error or a gazetteer that searches without crashing.
            if (try? gazetteer.load()) != nil { _ = try? gazetteer.search("Minsk") }
        }
    }

    @Test func failedLoadIsRetried() throws {
        let gazetteer = Gazetteer(dataDirectory: directory)
        #expect(throws: GazetteerError(.missingFile, "")) { try gazetteer.load() }
        try FileManager.default.createDirectory(atPath: directory + "/gazetteer", withIntermediateDirectories: true)
        try Data(Self.sample.utf8).write(to: URL(fileURLWithPath: gazetteer.path))
        #expect(try gazetteer.search("Minsk").count == 1)
    }

    @Test func concurrentFirstSearchesShareOneLoad() async throws {
        let gazetteer = Gazetteer(path: try write(Self.sample))
        let results = try await withThrowingTaskGroup(of: Int?.self) { group in
            for index in 0..<16 {
                group.addTask { try gazetteer.search(index.isMultiple(of: 2) ? "Minsk" : "Bara", limit: 1).first?.geonamesID }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.filter { $0 == 625144 }.count == 8)
        #expect(results.filter { $0 == 630429 }.count == 8)
        #expect(gazetteer.isLoaded)
    }

    @Test func bundledFileLoads() throws {
        let gazetteer = Gazetteer(path: Fixture.gazetteerPath)
        #expect(try gazetteer.cityCount() > 30_000)
    }
}

