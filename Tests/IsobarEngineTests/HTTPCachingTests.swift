import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Synchronization
import Testing

/// A provider that asks `/<id>?key=…` (the key a secret) and reads a temperature from the body; optionally bound to honour
/// its HTTP lifetime even beyond the configured one.
struct CachingFakeProvider: WeatherProvider {
    let id: String
    var honoursHTTPExpiry = false
    var displayName: String { id.uppercased() }
    var capabilities: ProviderCapabilities {
        var capabilities = ProviderCapabilities(kinds: [.current], horizonDays: 1, stepHours: 1, quantities: [.temperature],
                                                requiresAPIKey: true, geocoding: false)
        capabilities.honoursHTTPExpiry = honoursHTTPExpiry
        return capabilities
    }

    static let secret = "SECRET-KEY-51c9"

    func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        let url = RequestURL(string: "https://fake.test")!.appending(path: "/\(id)", query: [QueryItem("key", Self.secret)])
        let response = try await context.transport.send(HTTPRequest(url: url, secretQueryNames: ["key"], origin: displayName))
        if let failure = ProviderError.forStatus(response, provider: displayName, serverMessage: nil, now: context.time.now()) {
            throw failure
        }
        guard let temperature = Double(String(decoding: response.body, as: UTF8.self)) else {
            throw ProviderError(.badResponse(path: "$"), "\(displayName) sent no temperature")
        }
        var sample = WeatherSample(time: context.time.now(), periodHours: 1)
        sample.temperatureC = temperature
        return WeatherReport(providerID: id, place: request.place, fetchedAt: context.time.now(), current: sample)
    }
}

/// An origin server with one resource: answers `304` when the request's validators match, else `200` with the body and headers.
final class ConditionalOrigin: Transport {
    struct Resource: Sendable {
        var body = "20"
        var status = 200
        var headers: [HTTPHeader] = []
        var notModifiedHeaders: [HTTPHeader] = []
    }

    private let state = Mutex<(resource: Resource, requests: [HTTPRequest], bytes: [Int])>((Resource(), [], []))

    /// Changes what the server answers.
    func update(_ change: (inout Resource) -> Void) { state.withLock { change(&$0.resource) } }

    /// Every request received, in order.
    var requests: [HTTPRequest] { state.withLock { $0.requests } }
    /// The body bytes of every answer, in order.
    var bodyBytes: [Int] { state.withLock { $0.bytes } }

    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        state.withLock { state in
            state.requests.append(request)
            let resource = state.resource
            let header = { (name: String) in resource.headers.first { $0.name.lowercased() == name.lowercased() }?.value }
            let tagMatches = request.headers.contains { $0.name == "If-None-Match" && $0.value == header("ETag") }
            let dateMatches = request.headers.contains { $0.name == "If-Modified-Since" && $0.value == header("Last-Modified") }
            let response = resource.status == 200 && (tagMatches || dateMatches)
                ? HTTPResponse(status: 304, headers: resource.notModifiedHeaders, body: [])
                : HTTPResponse(status: resource.status, headers: resource.headers, body: Array(resource.body.utf8))
            state.bytes.append(response.body.count)
            return response
        }
    }
}

/// Validators kept in memory, remembering every key they were asked to keep.
final class KeyLoggingValidators: HTTPValidatorStore {
    let base = MemoryStorage()
    private let keys = Mutex<[String]>([])

    var storedKeys: [String] { keys.withLock { $0 } }

    func validation(for key: String) async throws(StorageError) -> HTTPValidation? { try await base.validation(for: key) }

    func storeValidation(_ validation: HTTPValidation, for key: String) async throws(StorageError) {
        keys.withLock { $0.append(key) }
        try await base.storeValidation(validation, for: key)
    }

    func removeValidation(for key: String) async throws(StorageError) { try await base.removeValidation(for: key) }
}

@Suite("HTTP caching through the engine")
struct HTTPCachingTests {
    let clock = ManualClock()
    let origin = ConditionalOrigin()
    let storage = MemoryStorage()
    var options = EngineOptions()
    var provider = CachingFakeProvider(id: "a")

    init() { options.retryBaseDelaySeconds = 0 }

    /// One run of the engine over the origin, with a configured time to live of `ttl` seconds.
    func run(ttl: Double = 600, maxStale: Double = 86_400) async -> Result<WeatherReport, ProviderError> {
        let binding = ProviderBinding(provider: provider, transport: origin, policy: policy(currentTTL: ttl, maxStale: maxStale))
        let engine = Engine(consensus: Consensus(), bindings: [binding], storage: EngineStorage(storage), options: options, time: clock,
                            random: { $0.lowerBound })
        for event in await engine.collect(WeatherRequest(place: Fixture.place, kinds: [.current])) {
            switch event {
            case .result(_, let result): return .success(result.report)
            case .failure(_, _, let error): return .failure(error)
            case .consensus: break
            }
        }
        return .failure(ProviderError(.unavailable, "no event"))
    }

    func headers(_ pairs: (String, String)...) -> [HTTPHeader] { pairs.map { HTTPHeader($0.0, $0.1) } }

    func conditionalHeaders(_ request: HTTPRequest?) -> [String] {
        (request?.headers ?? []).filter { $0.name.hasPrefix("If-") }.map { "\($0.name): \($0.value)" }
    }

    // MARK: Lifetimes


    @Test func maxAgeShortensTheConfiguredLifetime() async throws {
        origin.update { $0.headers = headers(("Cache-Control", "max-age=60")) }
        #expect(try await run(ttl: 600).get().freshness == .fresh)
        clock.advance(by: 59)
        #expect(try await run(ttl: 600).get().freshness == .cached(ageSeconds: 59))
        clock.advance(by: 2)
        #expect(try await run(ttl: 600).get().freshness == .fresh)
        #expect(origin.requests.count == 2)
    }

    @Test func ageIsTakenOffMaxAge() async throws {
        origin.update { $0.headers = headers(("Cache-Control", "max-age=100"), ("Age", "80")) }
        _ = await run()
        clock.advance(by: 30)
        #expect(try await run().get().freshness == .fresh)
        #expect(origin.requests.count == 2)
    }

    @Test func aLongerMaxAgeOrExpiresNeverLengthensTheConfiguredLifetime() async throws {
        origin.update { $0.headers = headers(("Cache-Control", "max-age=86400")) }
        _ = await run(ttl: 600)
        clock.advance(by: 601)
        #expect(try await run(ttl: 600).get().freshness == .fresh)
        origin.update { $0.headers = headers(("Expires", "Sun, 01 Jan 2040 00:00:00 GMT")) }
        clock.advance(by: 601)
        #expect(try await run(ttl: 600).get().freshness == .fresh)
        #expect(origin.requests.count == 3)
    }

    @Test mutating func aProviderBoundByItsTermsHonoursALongerExpires() async throws {
        provider.honoursHTTPExpiry = true
        let expires = HTTPDateText.format(clock.now().addingTimeInterval(7200))
        origin.update { $0.headers = headers(("Expires", expires)) }
        _ = await run(ttl: 600)
        clock.advance(by: 7000)
        #expect(try await run(ttl: 600).get().freshness == .cached(ageSeconds: 7000))
        clock.advance(by: 201)
        #expect(try await run(ttl: 600).get().freshness == .fresh)
        #expect(origin.requests.count == 2)
    }

    @Test mutating func maxAgeOptionReplacesTheLifetimeButNeverStretchesMustRevalidate() async throws {
        origin.update { $0.headers = headers(("Cache-Control", "max-age=60")) }
        _ = await run()
        clock.advance(by: 120)
        options.maxAgeSeconds = 3600
        #expect(try await run().get().freshness == .cached(ageSeconds: 120))
        origin.update { $0.headers = headers(("Cache-Control", "max-age=60, must-revalidate")) }
        options.readCache = false
        _ = await run()
        options.readCache = true
        clock.advance(by: 120)
        #expect(try await run().get().freshness == .fresh)
        #expect(origin.requests.count == 3)
    }

    // MARK: no-store

    @Test func noStoreIsDeliveredButNeverKeptAndDropsWhatWasKept() async throws {
        origin.update { $0.headers = headers(("ETag", "\"v1\"")) }
        _ = await run()
        #expect(try await storage.validation(for: "a GET https://fake.test/a") != nil)
        clock.advance(by: 1000)
        origin.update { state in
            state.body = "21"
            state.headers = headers(("Cache-Control", "no-store"), ("ETag", "\"v2\""))
        }
        let report = try await run().get()
        #expect(report.current?.temperatureC == 21)
        #expect(report.freshness == .fresh)
        #expect(try await storage.entry(for: cacheKey(.current, provider: "a")) == nil)
        #expect(try await storage.validation(for: "a GET https://fake.test/a") == nil)
        clock.advance(by: 1)
        #expect(try await run().get().freshness == .fresh)
        #expect(origin.requests.count == 3)
        // Nothing was kept to revalidate with.
        #expect(conditionalHeaders(origin.requests.last).isEmpty)
    }

    // MARK: must-revalidate and no-cache

    @Test(arguments: ["max-age=60, must-revalidate", "no-cache", "max-age=60, proxy-revalidate"])
    func mustRevalidateIsNeverServedStaleOnFailure(_ field: String) async throws {
        origin.update { $0.headers = headers(("Cache-Control", field)) }
        _ = try await run().get()
        clock.advance(by: 120)
        origin.update { $0.status = 503 }
        let error = try #require(await run().error)
        #expect(error.code == .unavailable)
        #expect(origin.requests.count == 2 + EngineOptions().maxRetries)
    }

    @Test func withoutMustRevalidateTheSameFailureIsCoveredStale() async throws {
        origin.update { $0.headers = headers(("Cache-Control", "max-age=60")) }
        _ = await run()
        clock.advance(by: 120)
        origin.update { $0.status = 503 }
        #expect(try await run().get().freshness == .stale(ageSeconds: 120, because: "A is unavailable (HTTP 503)"))
    }

    @Test mutating func offlineStillShowsAMustRevalidateAnswerLabelledStale() async throws {
        origin.update { $0.headers = headers(("Cache-Control", "max-age=60, must-revalidate")) }
        _ = await run()
        clock.advance(by: 120)
        options.offline = true
        #expect(try await run().get().freshness == .stale(ageSeconds: 120, because: "offline"))
        #expect(origin.requests.count == 1)
    }

    // MARK: Revalidation

    @Test func anETagIsSentBackAndA304RefreshesTheEntryWithoutABody() async throws {
        origin.update { $0.headers = headers(("ETag", "\"v1\"")) }
        let first = try await run().get()
        #expect(conditionalHeaders(origin.requests.first).isEmpty)
        clock.advance(by: 700)
        let second = try await run().get()
        #expect(conditionalHeaders(origin.requests.last) == ["If-None-Match: \"v1\""])
        #expect(origin.bodyBytes == [2, 0])
        #expect(second.current?.temperatureC == first.current?.temperatureC)
        #expect(second.freshness == .fresh)
        #expect(second.caching?.revalidated == true)
        // The entry's lifetime starts again: within 600 s of the 304 nothing is asked.
        clock.advance(by: 599)
        #expect(try await run().get().freshness == .cached(ageSeconds: 599))
        #expect(origin.requests.count == 2)
    }

    @Test func lastModifiedIsSentBackAsIfModifiedSinceAndA304RefreshesTheEntry() async throws {
        let modified = "Fri, 27 Nov 2026 12:00:00 GMT"
        origin.update { $0.headers = headers(("Last-Modified", modified)) }
        _ = await run()
        clock.advance(by: 700)
        let second = try await run().get()
        #expect(conditionalHeaders(origin.requests.last) == ["If-Modified-Since: \(modified)"])
        #expect(origin.bodyBytes == [2, 0])
        #expect(second.current?.temperatureC == 20)
        clock.advance(by: 599)
        #expect(try await run().get().freshness == .cached(ageSeconds: 599))
        #expect(origin.requests.count == 2)
    }

    @Test func aChangedResourceIsFetchedWholeAndItsNewValidatorKept() async throws {
        origin.update { $0.headers = headers(("ETag", "\"v1\"")) }
        _ = await run()
        origin.update { state in
            state.body = "25"
            state.headers = headers(("ETag", "\"v2\""))
        }
        clock.advance(by: 700)
        #expect(try await run().get().current?.temperatureC == 25)
        clock.advance(by: 700)
        _ = await run()
        #expect(conditionalHeaders(origin.requests.last) == ["If-None-Match: \"v2\""])
        #expect(origin.bodyBytes == [2, 2, 0])
    }

    @Test func a304KeepsTheStoredMaxAgeUnlessItSendsItsOwn() async throws {
        origin.update { $0.headers = headers(("ETag", "\"v1\""), ("Cache-Control", "max-age=60")) }
        _ = await run()
        clock.advance(by: 61)
        _ = await run()
        // The 304 carried no Cache-Control: the stored max-age=60 still holds.
        clock.advance(by: 61)
        #expect(try await run().get().freshness == .fresh)
        #expect(origin.requests.count == 3)
        origin.update { $0.notModifiedHeaders = headers(("Cache-Control", "max-age=300")) }
        clock.advance(by: 61)
        _ = await run()
        clock.advance(by: 200)
        #expect(try await run().get().freshness == .cached(ageSeconds: 200))
        #expect(origin.requests.count == 4)
    }

    @Test mutating func refreshAsksAgainWithTheKeptValidators() async throws {
        origin.update { $0.headers = headers(("ETag", "\"v1\"")) }
        _ = await run()
        options.readCache = false
        let report = try await run().get()
        #expect(conditionalHeaders(origin.requests.last) == ["If-None-Match: \"v1\""])
        #expect(origin.bodyBytes == [2, 0])
        #expect(report.freshness == .fresh)
        #expect(report.caching?.revalidated == true)
    }

    @Test mutating func recordingSendsNoValidatorsButKeepsTheNewOnes() async throws {
        origin.update { $0.headers = headers(("ETag", "\"v1\"")) }
        _ = await run()
        options.readCache = false
        options.sendsValidators = false
        _ = await run()
        #expect(conditionalHeaders(origin.requests.last).isEmpty)
        #expect(origin.bodyBytes == [2, 2])
        options.readCache = true
        options.sendsValidators = true
        clock.advance(by: 700)
        _ = await run()
        #expect(conditionalHeaders(origin.requests.last) == ["If-None-Match: \"v1\""])
    }

    @Test func aBodyThatFailsToDecodeIsNeverConfirmedByA304() async throws {
        origin.update { state in
            state.body = "not a temperature"
            state.headers = headers(("ETag", "\"bad\""))
        }
        #expect(try #require(await run().error).code == .badResponse(path: "$"))
        clock.advance(by: 1)
        _ = await run()
        #expect(origin.requests.count == 2)
        #expect(origin.requests.allSatisfy { conditionalHeaders($0).isEmpty })
    }

    @Test func validatorsAreKeptUnderTheRedactedURLAndNeverWithASecretInTheBody() async throws {
        let validators = KeyLoggingValidators()
        let fetch = FetchStep(provider: provider, transport: origin, time: clock, validators: validators)
        origin.update { $0.headers = headers(("ETag", "\"v1\"")) }
        _ = try await fetch.answer(providerCall(clock: clock))
        #expect(validators.storedKeys == ["a GET https://fake.test/a"])
        #expect(validators.storedKeys.allSatisfy { !$0.contains(CachingFakeProvider.secret) })
        origin.update { $0.body = "20 \(CachingFakeProvider.secret)" }
        origin.update { $0.headers = headers(("ETag", "\"v2\"")) }
        _ = await Result.of { () async throws(ProviderError) in try await fetch.answer(providerCall(clock: clock)) }
        #expect(validators.storedKeys.count == 1)
    }
}

/// Formats instants as IMF-fixdate, for test headers.
enum HTTPDateText {
    static func format(_ date: Date) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let seconds = Int(date.timeIntervalSince1970)
        let local = LocalDate(date, utcOffsetSeconds: 0)
        let (year, month, day) = local.components
        let clock = seconds % 86_400
        let pad = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return "\(local.weekdayName), \(pad(day)) \(months[month - 1]) \(year) "
            + "\(pad(clock / 3600)):\(pad(clock / 60 % 60)):\(pad(clock % 60)) GMT"
    }
}
