import IsobarCore
@testable import IsobarRedis
import Testing

struct GCRAWindowTests {
    @Test func tenPerTwoSecondsIsABurstOfFiveThenOneEveryHalfSecond() {
        let window = GCRAWindow(RateLimit(limit: 10, perSeconds: 2))
        #expect(window.burst == 5)
        #expect(window.intervalMilliseconds == 500)
        #expect(window.most(inSeconds: 2) == 9)
    }

    @Test(arguments: [1.0, 2, 3, 4, 5, 10, 11, 60, 600, 10_000])
    func neverLetsMoreThanTheLimitThroughInAWindow(_ limit: Double) {
        for seconds in [1.0, 2, 60, 86_400] {
            let window = GCRAWindow(RateLimit(limit: limit, perSeconds: seconds))
            #expect(window.burst >= 1)
            #expect(window.most(inSeconds: seconds) <= max(limit, 2), "\(limit) per \(seconds) s")
            if limit >= 3 { #expect(window.most(inSeconds: seconds) < limit, "one call of slack for \(limit) per \(seconds) s") }
        }
    }

    @Test func sha1MatchesKnownDigests() {
        #expect(SHA1.hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(SHA1.hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(SHA1.hex(String(repeating: "a", count: 1000)) == "291e9a6c66994949b57ba5e650361e98fc36b1ba")
    }

    @Test func anAPIKeyScopeNeitherHoldsNorRevealsTheKey() {
        let scope = RedisStore.scope(apiKey: "0123456789abcdef0123456789abcdef")
        #expect(scope.count == 16)
        #expect(!scope.contains("0123456789abcdef"))
        #expect(scope != RedisStore.scope(apiKey: "0123456789abcdef0123456789abcdee"))
    }
}
