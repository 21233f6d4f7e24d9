import Foundation
import IsobarCLI
import IsobarCore
import IsobarStore
import IsobarTestKit
import Synchronization
import Testing

/// A command stopped by a signal while it holds a fetch lease: the next command takes the lease over at once.
@Suite(.tags(.realTime), .serialized) struct InterruptedLeaseTests {
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func theNextCommandTakesOverTheLeaseOfAnInterruptedOne(signal: Int32) async throws {
        let weather = try cassetteText(provider: "openweathermap", place: "minsk", pathSuffix: "/data/2.5/weather")
        let stuck = DispatchSemaphore(value: 0)
        defer { stuck.signal() }
        let asked = Atomic<Int>(0)
        // The first request is never answered while the test runs: its command holds the lease until it is stopped.
        let server = try LoopbackServer { _ in
            guard asked.add(1, ordering: .relaxed).newValue > 1 else {
                stuck.wait()
                return .init(status: 503, "{}")
            }
            return .init(weather)
        }
        let config = try temporaryConfiguration("""
        {"providers": [{"id": "openweathermap", "type": "openweathermap", "api_key_env": "TEST_OWM_KEY", "base_url": "\(server.baseURL)",
                        "timeout_s": 600}]}
        """)
        let binary = try #require(isobarExecutable())
        let cache = temporaryDirectory("interrupted-lease")
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": cache]
        let holder = try launch(binary, ["now", "Minsk", "--config", config, "--format", "jsonl", "--timeout", "600"], environment: environment)
        try #require(await Self.arrives { server.requests.count == 1 || !holder.0.isRunning }, "the first command never asked")
        try #require(server.requests.count == 1, "the first command ended before asking")
        kill(holder.0.processIdentifier, signal)
        let stopped = await finish(holder)
        #expect(holder.0.terminationReason == .uncaughtSignal)
        #expect(stopped.code == signal)

        // The lease it left would last an hour: only taking it over lets the next command ask before its deadline. (Its
        // times are on the commands' shifted clock: see `recordingTimeShift`.)
        let store = try await Store.open(directory: cache + "/isobar", warn: { Issue.record("unexpected warning: \($0)") })
        let left = try await store.leases(now: .distantPast)
        #expect(left.count == 1)
        for lease in left { #expect(try await store.renew(lease.key, owner: lease.owner, seconds: 3600, now: lease.expiresAt)) }

        let next = try await runProcess(binary, ["now", "Minsk", "--config", config, "--format", "jsonl", "--timeout", "30"], environment: environment)
        #expect(next.code == 0, "\(next.stdout)\(next.stderr)")
        #expect(server.requests.count == 2)
        let statuses = try parseLines(next).compactMap { try $0.optionalString("provider") == nil ? nil : $0.optionalString("status") }
        #expect(statuses == ["ok"])
    }

    /// Polls `condition` every 50 ms, up to a generous while for a machine busy with the whole suite (an outcome, not a
    /// measured time).
    static func arrives(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<6000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }
}
