import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

/// A cache on a disk that went read-only: the command says so, keeps its cache in memory, and its rate limits still hold.
@Suite struct ReadOnlyCacheCLITests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    @Test(.enabled(if: ScratchMount.available)) func aBatchOverAReadOnlyCacheWarnsAndSendsNoMoreThanTheLimit() async throws {
        let disk = try #require(ScratchMount(kilobytes: 1024))
        let server = try providerServer()
        let config = try temporaryConfiguration("""
        {"providers": [{"id": "openweathermap", "type": "openweathermap", "api_key_env": "TEST_OWM_KEY", "base_url": "\(server.baseURL)",
                        "rate_limits": [{"limit": 2, "per_s": 60}]}]}
        """)
        let environment = ["XDG_CACHE_HOME": disk.path + "/cache", "TEST_OWM_KEY": "k"]
        // An earlier command made the cache (and left its -wal and -shm); then the disk went read-only.
        let first = await runCLI(["now", "53.9,27.57", "--config", config], environment: environment, transport: curl)
        #expect(first.code == 0, "\(first.stderr)")
        #expect(try await disk.remountReadOnly())
        let before = server.requests.count
        let places = (0..<8).map { "5\($0).5,27.5" }.joined(separator: "\n") + "\n"
        let run = await runCLI(["batch", try batchInput(places), "--config", config, "--deadline", "60"], environment: environment,
                               transport: curl)
        #expect(server.requests.count - before == 2)
        let warning = "isobar: warning: cannot use the cache \(disk.path)/cache/isobar/isobar.sqlite (it cannot be written: "
            + "Read-only file system); using a temporary in-memory cache\n"
        #expect(run.stderr.hasPrefix(warning), "\(run.stderr)")
        let summary = try #require(try parseLines(run).last)
        #expect(try summary.int("requests") == 2, "\(run.stdout)")
        #expect(try summary.int("ok") == 2 && summary.int("failed") == 6, "\(run.stdout)")
        // The file can still be looked at, and a command that would change it says it cannot.
        let stats = await runCLI(["cache", "stats", "--config", config], environment: environment)
        #expect(stats.code == 0, "\(stats.stderr)")
        #expect(stats.stdout.contains("\(disk.path)/cache/isobar/isobar.sqlite"), "\(stats.stdout)")
        let providers = await runCLI(["providers", "--config", config, "--format", "jsonl"], environment: environment)
        #expect(providers.code == 0 && providers.stderr.isEmpty, "\(providers.stderr)")
        expectOneLineError(await runCLI(["cache", "clear", "--config", config], environment: environment), code: .configuration,
                           containing: "cannot use the cache \(disk.path)/cache/isobar/isobar.sqlite (it cannot be written: ")
    }
}
