import Foundation
import IsobarCLI
import IsobarCore
import IsobarTestKit
import Testing

/// City names of `cities --demo --format jsonl`, in order.
func cityNames(_ environment: [String: String], _ extra: [String] = []) async throws -> [String] {
    let run = await runCLI(["cities", "--demo", "--format", "jsonl"] + extra, environment: environment)
    // Cities the demo has no recordings for answer with no provider (exit 2 or 3); the list itself is what matters here.
    #expect([0, 2, 3].contains(run.code), "\(run.stderr)")
    return try parseLines(run).map { try $0.member("place").string("name") }
}

/// The place `isobar home --format jsonl` shows.
func homeName(_ environment: [String: String]) async throws -> String? {
    let run = await runCLI(["home", "--demo", "--format", "jsonl"], environment: environment)
    return try parseLines(run).last?.member("place").string("name")
}

@Suite struct UserDataPlaceTests {
    @Test func citiesAndHomeSurviveDeletingTheCacheAndCacheDirDoesNotChangeThem() async throws {
        let cache = temporaryDirectory("cache")
        let environment = ["XDG_DATA_HOME": temporaryDirectory("data"), "XDG_CACHE_HOME": cache]
        #expect(await runCLI(["cities", "add", "Tokyo", "--demo"], environment: environment).code == 0)
        #expect(await runCLI(["home", "set", "London", "--demo"], environment: environment).code == 0)
        #expect(await runCLI(["cache", "stats"], environment: environment).code == 0)
        #expect(FileManager.default.fileExists(atPath: cache + "/isobar/isobar.sqlite"))
        try FileManager.default.removeItem(atPath: cache)
        #expect(try await cityNames(environment) == ["Minsk", "Moscow", "Tokyo"])
        #expect(try await homeName(environment) == "London")
        #expect(try await cityNames(environment, ["--cache-dir", temporaryDirectory("other-cache")]) == ["Minsk", "Moscow", "Tokyo"])
    }

    @Test(arguments: ["a file in the way", "/proc"])
    func aDataFolderThatCannotBeMadeFailsLoudlyAndSavesNothing(_ kind: String) async throws {
        var unusable = "/proc"
        if kind != "/proc" {
            unusable = temporaryDirectory("blocked") + "/a-file"
            try Data("x".utf8).write(to: URL(fileURLWithPath: unusable))
        }
        // The cache is unusable too: it falls back to memory, the user's data never does.
        let environment = ["XDG_DATA_HOME": unusable, "XDG_CACHE_HOME": unusable]
        let message = "cannot make the folder for your cities and home, "
        expectOneLineError(await runCLI(["cities", "add", "Tokyo", "--demo"], environment: environment), code: .configuration, containing: message)
        expectOneLineError(await runCLI(["cities", "add", "Tokyo", "--demo", "--format", "jsonl"], environment: environment),
                           code: .configuration, containing: message)
        expectOneLineError(await runCLI(["home", "set", "London", "--demo"], environment: environment), code: .configuration, containing: message)
        expectOneLineError(await runCLI(["cities", "--demo"], environment: environment), code: .configuration, containing: message)
        expectOneLineError(await runCLI(["search", "Tokyo", "--add", "--demo"], environment: environment), code: .configuration, containing: message)
    }

    @Test func aDamagedPlacesFileIsAClearErrorNeverAReset() async throws {
        let data = temporaryDirectory("data")
        let environment = ["XDG_DATA_HOME": data]
        #expect(await runCLI(["cities", "add", "Tokyo", "--demo"], environment: environment).code == 0)
        let file = data + "/isobar/places.sqlite"
        #expect(try await waitUntilClosed(file))
        let garbage = Data(repeating: 0x42, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: file))
        for command in [["cities", "--demo"], ["cities", "add", "London", "--demo"], ["home", "--demo"], ["home", "set", "London", "--demo"]] {
            expectOneLineError(await runCLI(command, environment: environment), code: .configuration,
                               containing: "\(file): the file is damaged (file is not a database); it was left as it is")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == garbage)
        #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/isobar") == ["places.sqlite"])
    }

    @Test func aDamagedCacheIsRebuiltWithoutTouchingCitiesAndHome() async throws {
        let cache = temporaryDirectory("cache")
        let environment = ["XDG_DATA_HOME": temporaryDirectory("data"), "XDG_CACHE_HOME": cache]
        #expect(await runCLI(["cities", "add", "Tokyo", "--demo"], environment: environment).code == 0)
        #expect(await runCLI(["home", "set", "London", "--demo"], environment: environment).code == 0)
        #expect(await runCLI(["cache", "stats"], environment: environment).code == 0)
        // The file is damaged as a crash or a bad disk would leave it: garbage, and no journal beside it. (Whether the last
        // command's connection has closed yet is not this test's subject: on a busy machine it can take a while.)
        _ = try await waitUntilClosed(cache + "/isobar/isobar.sqlite")
        for journal in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: cache + "/isobar/isobar.sqlite" + journal) }
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: cache + "/isobar/isobar.sqlite"))
        let stats = await runCLI(["cache", "stats"], environment: environment)
        #expect(stats.code == 0, "\(stats.stderr)")
        #expect(stats.stderr.contains("was damaged; moved it to"))
        #expect(try await cityNames(environment) == ["Minsk", "Moscow", "Tokyo"])
        #expect(try await homeName(environment) == "London")
    }

    @Test(.enabled(if: ScratchMount.available)) func aFullDiskRefusesTheCityLoudlyAndKeepsTheOthers() async throws {
        let disk = try #require(ScratchMount(kilobytes: 1024))
        let environment = ["XDG_DATA_HOME": disk.path + "/data", "XDG_CACHE_HOME": disk.path + "/cache"]
        #expect(try await cityNames(environment) == ["Minsk", "Moscow"])
        let file = disk.path + "/data/isobar/places.sqlite"
        #expect(try await waitUntilClosed(file))
        let filler = disk.fill()
        for format in ["table", "jsonl"] {
            expectOneLineError(await runCLI(["cities", "add", "Tokyo", "--demo", "--format", format], environment: environment),
                               code: .configuration, containing: "\(file): the disk is full")
        }
        try FileManager.default.removeItem(atPath: filler)
        #expect(try await cityNames(environment) == ["Minsk", "Moscow"])
    }

    @Test(.enabled(if: ScratchMount.available)) func aReadOnlyDiskRefusesTheCityLoudly() async throws {
        let disk = try #require(ScratchMount(kilobytes: 1024))
        let environment = ["XDG_DATA_HOME": disk.path + "/data", "XDG_CACHE_HOME": disk.path + "/cache"]
        #expect(try await cityNames(environment) == ["Minsk", "Moscow"])
        #expect(try await waitUntilClosed(disk.path + "/data/isobar/places.sqlite"))
        #expect(try await disk.remountReadOnly())
        for command in [["cities", "add", "Tokyo", "--demo"], ["home", "set", "London", "--demo"]] {
            expectOneLineError(await runCLI(command, environment: environment), code: .configuration,
                               containing: "\(disk.path)/data/isobar/places.sqlite: ")
        }
    }
}
