import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

/// A command that fetched leaves the cache with an empty WAL, so the next command (most often answered from the cache)
/// reads no WAL back; a command answered from the cache writes nothing and leaves it so.
@Suite(.serialized) struct CacheWALTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    private func walSize(_ cache: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: cache + "/isobar.sqlite-wal"))?[.size] as? Int
    }

    @Test func aCommandThatFetchedLeavesAnEmptyWALAndAHitKeepsItSo() async throws {
        let server = try minskServer()
        let cache = temporaryDirectory("wal-cache")
        let arguments = ["compare", "Minsk", "--config", try liveConfiguration(server), "--cache-dir", cache, "--format", "jsonl"]
        let fetched = await runCLI(arguments, environment: ["TEST_OWM_KEY": sentinelKey], transport: curl)
        #expect(fetched.code == 0, "\(fetched.stdout)\(fetched.stderr)")
        #expect(server.requests.count > 0)
        #expect(walSize(cache) == 0, "the answers were folded into the file")

        let requests = server.requests.count
        let cached = await runCLI(arguments, environment: ["TEST_OWM_KEY": sentinelKey], transport: curl)
        #expect(cached.code == 0, "\(cached.stdout)\(cached.stderr)")
        #expect(server.requests.count == requests, "the second run is answered from the cache")
        #expect(walSize(cache) == 0)
        #expect(try parseLines(cached).filter { (try? $0.string("type")) == "provider_result" }.count == 2, "nothing was lost")
    }

    @Test func aCommandThatFailsAfterWritingStillLeavesAnEmptyWAL() async throws {
        let server = try minskServer()
        let cache = temporaryDirectory("wal-reset-cache")
        // The local breakers are reset (a write), then the shared store cannot be reached: the command fails.
        let run = await runCLI(["providers", "reset", "--config", try liveConfiguration(server), "--cache-dir", cache,
                                "--shared-store", "redis://127.0.0.1:1"], environment: ["TEST_OWM_KEY": sentinelKey])
        #expect(run.code == ExitCode.configuration.rawValue, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.hasPrefix("isobar: ") && !run.stderr.contains(sentinelKey))
        #expect(FileManager.default.fileExists(atPath: cache + "/isobar.sqlite"))
        #expect(walSize(cache) == 0, "the file was written, and finished although the command failed")
    }
}
