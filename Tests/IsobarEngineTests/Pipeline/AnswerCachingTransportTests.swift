import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Testing

@Suite("AnswerCachingTransport")
struct AnswerCachingTransportTests {
    let clock = ManualClock()
    let storage = MemoryStorage()
    let request = HTTPRequest(url: RequestURL(string: "https://fake.test/v1/forecast?past_days=30&apikey=SECRET")!, secretQueryNames: ["apikey"],
                              origin: "P")
    /// A source whose answers stay fresh for an hour.
    let policy = ProviderPolicy(rateLimits: [], currentTTLSeconds: 600, forecastTTLSeconds: 3_600)

    func transport(_ origin: any Transport, readCache: Bool = true, offline: Bool = false, maxAge: Double? = nil) -> AnswerCachingTransport {
        AnswerCachingTransport(base: origin, cache: storage, storageKey: "p@1", name: "P",
                               rules: .init(freshness: FreshnessRule(policy: policy, honoursHTTPExpiry: false, maxAgeSeconds: maxAge),
                                            readCache: readCache, offline: offline),
                               time: clock, diagnostics: DiagnosticLog())
    }

    func body(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func aKeptAnswerWithinItsLifetimeAsksNobody() async throws {
        let origin = StubTransport(status: 200, body: "first")
        let first = transport(origin)
        #expect(body(try await first.send(request)) == "first")
        await first.commit()
        clock.advance(by: 3_599)
        let second = transport(origin)
        #expect(body(try await second.send(request)) == "first")
        #expect(origin.requests.count == 1)
        #expect(second.answeredFromCache == 1)
        // Past its lifetime it is asked again.
        clock.advance(by: 2)
        let third = transport(origin)
        _ = try await third.send(request)
        #expect(origin.requests.count == 2)
        #expect(third.answeredFromCache == 0)
    }

    @Test func anAnswerIsKeptOnlyOnceCommitted() async throws {
        let origin = StubTransport(status: 200, body: "undecodable")
        _ = try await transport(origin).send(request)
        _ = try await transport(origin).send(request)
        #expect(origin.requests.count == 2)
    }

    @Test func refreshAsksAgainAndStillKeepsTheAnswer() async throws {
        let origin = StubTransport(status: 200, body: "answer")
        let first = transport(origin)
        _ = try await first.send(request)
        await first.commit()
        let refreshed = transport(origin, readCache: false)
        _ = try await refreshed.send(request)
        await refreshed.commit()
        #expect(origin.requests.count == 2)
        #expect(try await storage.entry(for: AnswerCachingTransport.key(request, storageKey: "p@1"))?.fetchedAt == clock.now())
    }

    @Test func maxAgeReplacesTheLifetime() async throws {
        let origin = StubTransport(status: 200, body: "answer")
        let first = transport(origin)
        _ = try await first.send(request)
        await first.commit()
        clock.advance(by: 7_200)
        // Two hours old: past the source's hour, within --max-age 3h.
        _ = try await transport(origin, maxAge: 10_800).send(request)
        #expect(origin.requests.count == 1)
        clock.advance(by: 1)
        // Past --max-age 2h (or sooner than the lifetime: --max-age shortens too).
        _ = try await transport(origin, maxAge: 7_200).send(request)
        #expect(origin.requests.count == 2)
    }

    @Test func offlineAnswersFromTheCacheWhateverItsAgeAndNeverSends() async throws {
        let origin = StubTransport(status: 200, body: "old")
        do throws(ProviderError) {
            _ = try await transport(origin, offline: true).send(request)
            Issue.record("expected offline with nothing cached")
        } catch {
            #expect(error.reason == .offline)
            #expect(error.message.contains("offline"))
        }
        #expect(origin.requests.isEmpty)
        let first = transport(origin)
        _ = try await first.send(request)
        await first.commit()
        clock.advance(by: 30 * 86_400)
        #expect(body(try await transport(origin, offline: true).send(request)) == "old")
        #expect(origin.requests.count == 1)
    }

    @Test func noStoreFailuresAndBodiesHoldingASecretAreNeverKept() async throws {
        for origin in [StubTransport(status: 200, body: "a", headers: [HTTPHeader("Cache-Control", "no-store")]),
                       StubTransport(status: 503, body: "busy"), StubTransport(status: 200, body: "echoed SECRET")] {
            let first = transport(origin)
            _ = try await first.send(request)
            await first.commit()
            _ = try await transport(origin).send(request)
            #expect(origin.requests.count == 2)
        }
    }

    @Test func theKeyNamesTheSourceAndTheRequestWithoutItsSecret() {
        let key = AnswerCachingTransport.key(request, storageKey: "p@1")
        #expect(key.provider == "p@1" && key.slot == .past)
        var other = request
        other.url = RequestURL(string: "https://fake.test/v1/forecast?past_days=30&apikey=OTHER")!
        #expect(AnswerCachingTransport.key(other, storageKey: "p@1") == key)
        other.url = RequestURL(string: "https://fake.test/v1/forecast?past_days=31&apikey=SECRET")!
        #expect(AnswerCachingTransport.key(other, storageKey: "p@1") != key)
        #expect(AnswerCachingTransport.key(request, storageKey: "q@1") != key)
    }
}
