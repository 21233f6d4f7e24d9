import Foundation
import IsobarCore
import IsobarEngine
@testable import IsobarStore
import Testing

@Suite struct HealthReadTests {
    @Test func theCooldownAndTheBreakerAreReadTogether() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let at = { (seconds: Double) in Date(timeIntervalSince1970: seconds) }
        let nothing = try await store.health(provider: "p", now: at(100))
        #expect(nothing.cooldown == nil)
        #expect(nothing.breaker == BreakerState())
        try await store.setCooldown(Cooldown(until: at(160), reason: "HTTP 429"), provider: "p")
        _ = try await store.recordOutcome(provider: "p", succeeded: false, threshold: 2, now: at(100))
        _ = try await store.recordOutcome(provider: "p", succeeded: false, threshold: 2, now: at(101))
        let both = try await store.health(provider: "p", now: at(120))
        #expect(both.cooldown == Cooldown(until: at(160), reason: "HTTP 429"))
        #expect(both.breaker == BreakerState(failures: 2, openedAt: at(101)))
        #expect(try await store.health(provider: "p", now: at(160)).cooldown == nil)
        #expect(try await store.health(provider: "other", now: at(120)).breaker == BreakerState())
        #expect(try await store.health(provider: "p", now: at(120)).cooldown == store.cooldown(provider: "p", now: at(120)))
    }
}
