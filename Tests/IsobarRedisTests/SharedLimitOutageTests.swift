import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRedis
import IsobarTestKit
import Testing

/// A shared limit of 6 calls a 20 s window, asked for through a server that is paused, or killed and restarted empty, in
/// between: the calls granted, by the server and locally, never pass the limit. Every step is well within one window.
@Suite(.tags(.realTime), .enabled(if: redisInstalled, redisMissing), .serialized)
struct SharedLimitOutageTests {
    let windows = [RateLimit(limit: 6, perSeconds: 20)]

    /// A ledger for one command over `server`, with `local` as its first level; `clock` decides when a failed server is tried again.
    func ledger(_ server: RedisTestServer, local: MemoryStorage, clock: ManualSeconds) throws -> any CallLedger {
        let state = SharedStoreState(retrySeconds: 5, fallback: "using the local store", seconds: clock.read, warn: { _ in })
        // Short: a paused server costs a command one timeout.
        let shared = RedisStore(url: try RedisURL(parsing: server.url), timeoutMilliseconds: 300)
        return SharedStorage.compose(local: EngineStorage(local), shared: shared, state: state, expectedMachines: 1,
                                     isFresh: { _, _ in false }).ledger
    }

    /// Asks `times` times for one call's permit; how many were granted.
    func granted(_ ledger: any CallLedger, times: Int) async throws -> Int {
        var count = 0
        for _ in 0..<times {
            let now = Date()
            let request = PermitRequest(provider: "p", windows: windows, cost: 1, deadline: now.addingTimeInterval(60))
            if case .granted = try await ledger.acquire(request, now: now) { count += 1 }
        }
        return count
    }

    @Test func callsGrantedWhileTheServerIsPausedAreChargedWhenItResumes() async throws {
        let server = try RedisTestServer()
        let local = MemoryStorage()
        let clock = ManualSeconds()
        let ledger = try ledger(server, local: local, clock: clock)
        let before = try await granted(ledger, times: 1)
        server.pause()
        let away = try await granted(ledger, times: 10)
        server.resume()
        clock.advance(10)
        let after = try await granted(ledger, times: 10)
        #expect(before == 1)
        #expect(away == 5, "granted locally while the server was paused")
        #expect(before + away + after <= 6, "\(before) + \(away) + \(after) calls in one 20 s window; the limit is 6")
    }

    @Test func aServerRestartedEmptyIsSeededFromTheLocalLedger() async throws {
        let server = try RedisTestServer()
        let local = MemoryStorage()
        let clock = ManualSeconds()
        let ledger = try ledger(server, local: local, clock: clock)
        let before = try await granted(ledger, times: 2)
        server.stop()
        let away = try await granted(ledger, times: 10)
        try server.start()
        clock.advance(10)
        let after = try await granted(ledger, times: 10)
        #expect(before == 2)
        #expect(away == 4, "granted locally while the server was down")
        #expect(before + away + after <= 6, "\(before) + \(away) + \(after) calls in one 20 s window; the limit is 6")
    }

    /// The next command on this machine, after the server came back empty: nothing owed in it, the local ledger's view alone.
    @Test func theNextCommandSeedsARestartedServerToo() async throws {
        let server = try RedisTestServer()
        let local = MemoryStorage()
        let before = try await granted(try ledger(server, local: local, clock: ManualSeconds()), times: 3)
        server.stop()
        try server.start()
        let after = try await granted(try ledger(server, local: local, clock: ManualSeconds()), times: 10)
        #expect(before == 3)
        // As the server would have said had it kept its count: the burst of 3 is spent.
        #expect(after == 0, "\(before) + \(after) calls in one 20 s window")
    }

    /// A server that kept its state and was never away is not seeded again: its own count goes on.
    @Test func aServerThatKeptItsStateIsNotChargedTwice() async throws {
        let server = try RedisTestServer()
        let local = MemoryStorage()
        let first = try await granted(try ledger(server, local: local, clock: ManualSeconds()), times: 2)
        let second = try await granted(try ledger(server, local: local, clock: ManualSeconds()), times: 10)
        #expect(first == 2)
        #expect(second == 1, "the burst of 3 was shared by both commands")
    }
}
