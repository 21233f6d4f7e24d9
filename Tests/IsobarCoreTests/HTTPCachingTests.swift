import FoundationEssentials
import IsobarCore
import Testing

@Suite("HTTPCaching")
struct HTTPCachingTests {
    /// `Sat, 28 Nov 2026 09:00:00 GMT`.
    static let now = Date(timeIntervalSince1970: 1_795_856_400)

    private func reading(_ headers: [(String, String)], status: Int = 200) -> HTTPCaching {
        HTTPCaching(HTTPResponse(status: status, headers: headers.map { HTTPHeader($0.0, $0.1) }, body: []), receivedAt: Self.now)
    }

    @Test func noHeadersSayNothing() {
        #expect(reading([]) == HTTPCaching())
        #expect(reading([("Content-Type", "application/json")]) == HTTPCaching())
    }

    @Test(arguments: [
        ("max-age=600", 600.0), ("public, max-age=60", 60), ("MAX-AGE=30, private", 30), ("max-age=\"45\"", 45),
        (" max-age = 20 ", 20), ("max-age=0", 0), ("max-age=soon", 0), ("max-age", 0), ("s-maxage=5, max-age=90", 90),
        ("max-age=90, max-age=30", 30),
    ])
    func maxAgeGivesTheLifetime(field: String, lifetime: Double) {
        #expect(reading([("Cache-Control", field)]).lifetimeSeconds == lifetime)
    }

    @Test func sMaxAgeAloneIsForSharedCachesAndIgnored() {
        #expect(reading([("Cache-Control", "s-maxage=5, public")]).lifetimeSeconds == nil)
    }

    @Test func ageIsTakenOffTheLifetimeNeverBelowZero() {
        #expect(reading([("Cache-Control", "max-age=100"), ("Age", "30")]).lifetimeSeconds == 70)
        #expect(reading([("Cache-Control", "max-age=100"), ("Age", "500")]).lifetimeSeconds == 0)
        #expect(reading([("Cache-Control", "max-age=100"), ("Age", "junk")]).lifetimeSeconds == 100)
    }

    @Test func expiresCountsFromTheServersDateAndYieldsToMaxAge() {
        let expires = ("Expires", "Sat, 28 Nov 2026 10:00:00 GMT")
        #expect(reading([expires, ("Date", "Sat, 28 Nov 2026 09:30:00 GMT")]).lifetimeSeconds == 1800)
        // Without Date, from when it arrived.
        #expect(reading([expires]).lifetimeSeconds == 3600)
        #expect(reading([expires, ("Cache-Control", "max-age=60")]).lifetimeSeconds == 60)
        // In the past, or not a date at all: already expired.
        #expect(reading([("Expires", "Sat, 28 Nov 2026 08:00:00 GMT")]).lifetimeSeconds == 0)
        #expect(reading([("Expires", "0")]).lifetimeSeconds == 0)
    }

    @Test func noStoreNoCacheAndMustRevalidate() {
        #expect(reading([("Cache-Control", "no-store")]).noStore)
        #expect(!reading([("Cache-Control", "no-store")]).mustRevalidate)
        let noCache = reading([("Cache-Control", "no-cache, max-age=600")])
        #expect(noCache.mustRevalidate && noCache.lifetimeSeconds == 0 && !noCache.noStore)
        let must = reading([("Cache-Control", "max-age=60, must-revalidate")])
        #expect(must.mustRevalidate && must.lifetimeSeconds == 60)
        // Several Cache-Control fields count together.
        let split = reading([("Cache-Control", "max-age=60"), ("cache-control", "no-store")])
        #expect(split.noStore && split.lifetimeSeconds == 60)
    }

    @Test func aNotModifiedAnswerIsMarkedRevalidated() {
        #expect(reading([], status: 304).revalidated)
        #expect(!reading([]).revalidated)
    }

    @Test func combiningKeepsTheStrictest() {
        let long = HTTPCaching(lifetimeSeconds: 600, revalidated: true)
        let short = HTTPCaching(lifetimeSeconds: 60, mustRevalidate: true, revalidated: false)
        #expect(long.combined(with: short) == HTTPCaching(lifetimeSeconds: 60, mustRevalidate: true, revalidated: false))
        #expect(long.combined(with: HTTPCaching(noStore: true, revalidated: true))
            == HTTPCaching(lifetimeSeconds: 600, noStore: true, revalidated: true))
        #expect(HTTPCaching().combined(with: HTTPCaching()).lifetimeSeconds == nil)
    }
}
