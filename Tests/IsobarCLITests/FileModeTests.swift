import Foundation
import IsobarCore
import Testing

/// The cache and the user's data stay private to their owner, whatever the umask.
@Suite struct FileModeTests {
    @Test func foldersAre0700AndTheirFiles0600UnderUmask022() async throws {
        let executable = try #require(isobarExecutable(), "build the isobar executable first (swift build)")
        let cacheHome = temporaryDirectory("mode-cache")
        let dataHome = temporaryDirectory("mode-data")
        let environment = ["XDG_CACHE_HOME": cacheHome, "XDG_DATA_HOME": dataHome]
        let added = try await runProcess("/bin/sh", ["-c", "umask 022 && exec \"$0\" cities add Tokyo --demo --format jsonl", executable],
                                   environment: environment)
        #expect(added.code == 0, "\(added.stderr)")
        let stats = try await runProcess("/bin/sh", ["-c", "umask 022 && exec \"$0\" cache --format jsonl", executable], environment: environment)
        #expect(stats.code == 0, "\(stats.stderr)")
        for folder in [cacheHome + "/isobar", dataHome + "/isobar"] {
            #expect(try mode(folder) == 0o700, "\(folder)")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(!files.isEmpty, "\(folder)")
            // Folders inside (the plug-ins' descriptions, in the cache) are as private as the top one.
            for file in try FileManager.default.subpathsOfDirectory(atPath: folder) {
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: folder + "/" + file, isDirectory: &isFolder)
                #expect(try mode(folder + "/" + file) == (isFolder.boolValue ? 0o700 : 0o600), "\(folder)/\(file)")
            }
        }
    }

    @Test func aDatabaseLeftReadableByOthersIsTightened() async throws {
        let executable = try #require(isobarExecutable(), "build the isobar executable first (swift build)")
        let dataHome = temporaryDirectory("mode-old")
        let folder = dataHome + "/isobar"
        let environment = ["XDG_DATA_HOME": dataHome]
        #expect(try await runProcess(executable, ["cities", "add", "Tokyo", "--demo"], environment: environment).code == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        for file in files { try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder + "/" + file) }
        #expect(try await runProcess(executable, ["cities", "add", "Minsk", "--demo"], environment: environment).code == 0)
        #expect(try mode(folder) == 0o700)
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) {
            #expect(try mode(folder + "/" + file) == 0o600, "\(file)")
        }
    }

    private func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
    }
}
