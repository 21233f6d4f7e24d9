import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRedis
import IsobarTestKit
import Synchronization
import Testing

/// A clock that notes every sleep asked of it and returns at once.
final class SleepLog: TimeSource {
    private let slept = Mutex<[Double]>([])
    /// The sleeps asked so far, in seconds.
    var sleeps: [Double] { slept.withLock { $0 } }
    func now() -> Date { t0 }
    func sleep(seconds: Double) async throws { slept.withLock { $0.append(seconds) } }
}

@Suite struct LeaseBackoffTests {
    @Test func stepsDoubleFromFiveMillisecondsToATenthOfASecond() {
        let longest = (0..<10).map { LeaseBackoff.seconds(attempt: $0, random: 1) }
        #expect(longest.map { ($0 * 1000).rounded() } == [5, 10, 20, 40, 80, 100, 100, 100, 100, 100])
        let shortest = (0..<10).map { LeaseBackoff.seconds(attempt: $0, random: 0) }
        #expect(zip(shortest, longest).allSatisfy { abs($0 - $1 / 2) < 1e-12 }, "each wait is drawn from the upper half of its step")
    }

    @Test func oddAttemptsAndRandomsStayWithinBounds() {
        #expect(LeaseBackoff.seconds(attempt: -3, random: 1) == LeaseBackoff.firstSeconds)
        #expect(LeaseBackoff.seconds(attempt: Int.max, random: 2) == LeaseBackoff.longestSeconds)
        #expect(LeaseBackoff.seconds(attempt: 0, random: -1) == LeaseBackoff.firstSeconds / 2)
    }

    @Test(.enabled(if: redisInstalled, redisMissing)) func waitersForASharedLeaseBackOffWithJitter() async throws {
        let server = try RedisTestServer()
        let state = SharedStoreState(fallback: "using the local store", warn: { _ in })
        let shared = RedisStore(url: try RedisURL(parsing: server.url), timeoutMilliseconds: 2000)
        let storage = SharedStorage.compose(local: EngineStorage(MemoryStorage()), shared: shared, state: state, expectedMachines: 1,
                                            isFresh: { _, _ in false })
        let clock = SleepLog()
        for attempt in 0..<8 {
            try await storage.locks.awaitTurn("p|current|1,2", attempt: attempt, pollSeconds: 0.05, time: clock)
        }
        let sleeps = clock.sleeps
        #expect(sleeps.count == 8)
        for (attempt, slept) in sleeps.enumerated() {
            let step = min(0.1, 0.005 * Double(1 << attempt))
            #expect(slept >= step / 2 && slept <= step, "wait \(attempt): \(slept) s")
        }
        #expect(Set(sleeps.suffix(3)).count > 1, "waiters that started together would look together")
    }

    @Test func otherLocksKeepTheirFixedInterval() async throws {
        let clock = SleepLog()
        try await MemoryStorage().awaitTurn("p|current|1,2", attempt: 5, pollSeconds: 0.05, time: clock)
        #expect(clock.sleeps == [0.05])
    }
}
