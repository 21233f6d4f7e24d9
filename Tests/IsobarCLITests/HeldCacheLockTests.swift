import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
@testable import IsobarStore
import IsobarTestKit
import Testing

/// A command while another process holds the cache's write lock: it answers, within its deadline, without waiting for the lock.
@Suite(.tags(.realTime)) struct HeldCacheLockTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    @Test func aCommandWaitsForACacheLockHeldElsewhereOnceAndAnswers() async throws {
        let server = try providerServer()
        let cache = temporaryDirectory("held-lock")
        let environment = ["XDG_CACHE_HOME": cache]
        let config = try temporaryConfiguration("""
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)"}]}
        """)
        #expect(await runCLI(["compare", "Minsk", "--config", config], environment: environment, transport: curl).code == 0)
        let holder = try Connection(path: cache + "/isobar/isobar.sqlite", busyTimeoutMilliseconds: 0)
        try holder.execute("BEGIN IMMEDIATE")
        let run = await runCLI(["compare", "Minsk", "--config", config, "--refresh", "--json", "--verbose"], environment: environment, transport: curl)
        // Still held: the command did not get the lock, and did not need it to answer.
        #expect(throws: StoreError.self) { try Connection(path: cache + "/isobar/isobar.sqlite", busyTimeoutMilliseconds: 0).execute("BEGIN IMMEDIATE") }
        try holder.execute("COMMIT")
        #expect(run.code == 0, "\(run.stderr)")
        #expect(try resultLine(try parseLines(run), provider: "open-meteo").string("status") == "ok")
        // Every step that writes (the lease, the permit, the answer) found the lock held; only the first waited for it (1 s),
        // the others tried once more and went on. Waiting 5 s at each, as before, would use up a 10 s deadline.
        let locked = run.stderr.split(separator: "\n").filter { $0.contains("locked") }
        let waited = locked.filter { !$0.contains("not waited for again") }
        #expect(locked.count >= 2, "\(run.stderr)")
        #expect(waited.count == 1, "\(run.stderr)")
    }
}
