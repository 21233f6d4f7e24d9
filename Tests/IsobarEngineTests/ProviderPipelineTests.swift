import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Synchronization
import Testing

/// A provider that asks its transport for `/<id>` and reads a temperature from the body; HTTP failures map as adapters map them.
struct HTTPFakeProvider: WeatherProvider {
    let id: String
    var displayName: String { id.uppercased() }
    var capabilities: ProviderCapabilities {
        ProviderCapabilities(kinds: [.current, .hourly], horizonDays: 2, stepHours: 1, quantities: [.temperature],
                             requiresAPIKey: false, geocoding: false)
    }

    func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        let response = try await context.transport.send(HTTPRequest(url: RequestURL(string: "https://fake.test/\(id)")!, origin: displayName))
        if let failure = ProviderError.forStatus(response, provider: displayName, serverMessage: nil, now: Fixture.midnightUTC) {
            throw failure
        }
        var sample = WeatherSample(time: Fixture.midnightUTC, periodHours: 1)
        sample.temperatureC = Double(String(decoding: response.body, as: UTF8.self))
        return WeatherReport(providerID: id, place: request.place, fetchedAt: Fixture.midnightUTC, current: sample,
                             hourly: [sample])
    }
}

/// Scripted HTTP answers per provider path, counting requests.
final class ScriptedServer: Transport {
    private let script = Mutex<[String: [HTTPResponse]]>([:])
    private let counts = Mutex<[String: Int]>([:])

    /// Answers `path` with these responses in turn, the last one repeating.
    func script(_ path: String, _ responses: [HTTPResponse]) { script.withLock { $0[path] = responses } }

    func count(_ path: String) -> Int { counts.withLock { $0[path, default: 0] } }

    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        let path = request.url.path
        counts.withLock { $0[path, default: 0] += 1 }
        return script.withLock { script in
            guard var responses = script[path], !responses.isEmpty else { return HTTPResponse(status: 404, body: []) }
            let next = responses.count > 1 ? responses.removeFirst() : responses[0]
            script[path] = responses
            return next
        }
    }
}

func ok(_ temperature: Double) -> HTTPResponse { HTTPResponse(status: 200, body: Array(String(temperature).utf8)) }
func status(_ code: Int, _ headers: [HTTPHeader] = []) -> HTTPResponse { HTTPResponse(status: code, headers: headers, body: []) }

/// An engine over fake HTTP providers sharing one storage, clock and server.
struct Harness {
    let clock = ManualClock()
    let server = ScriptedServer()
    let storage: MemoryStorage
    let diagnostics = DiagnosticLog()
    var options = EngineOptions()

    /// A harness over `storage` (another engine's, to share what it keeps), or over empty storage of its own.
    init(storage: MemoryStorage = MemoryStorage()) {
        self.storage = storage
        options.retryBaseDelaySeconds = 0
    }

    func engine(_ policies: [(String, ProviderPolicy)]) -> Engine<Consensus> {
        Engine(consensus: Consensus(), bindings: policies.map { ProviderBinding(provider: HTTPFakeProvider(id: $0.0), transport: server, policy: $0.1) },
               storage: EngineStorage(storage), options: options, time: clock, diagnostics: diagnostics, random: { $0.lowerBound })
    }

    /// Runs once and returns each provider's report or error.
    func run(_ policies: [(String, ProviderPolicy)]) async -> [String: Result<WeatherReport, ProviderError>] {
        var results: [String: Result<WeatherReport, ProviderError>] = [:]
        for event in await engine(policies).collect(WeatherRequest(place: Fixture.place, kinds: [.current])) {
            switch event {
            case .result(_, let result): results[result.report.providerID] = .success(result.report)
            case .failure(_, let id, let error): results[id] = .failure(error)
            case .consensus: break
            }
        }
        return results
    }
}

func policy(currentTTL: Double = 600, limits: [RateLimit] = [], maxStale: Double = 86_400) -> ProviderPolicy {
    ProviderPolicy(rateLimits: limits, currentTTLSeconds: currentTTL, forecastTTLSeconds: 3600, maxStaleSeconds: maxStale)
}

extension Result where Success == WeatherReport, Failure == ProviderError {
    var report: WeatherReport? { if case .success(let report) = self { report } else { nil } }
    var error: ProviderError? { if case .failure(let error) = self { error } else { nil } }
}

@Suite struct CacheTests {
    @Test func secondRunWithinTheTTLAsksNobodyAndAfterItOnlyTheStaleProvider() async throws {
        let harness = Harness()
        harness.server.script("/a", [ok(1)])
        harness.server.script("/b", [ok(2)])
        let providers = [("a", policy(currentTTL: 600)), ("b", policy(currentTTL: 60))]
        let first = await harness.run(providers)
        #expect(first["a"]?.report?.freshness == .fresh)
        harness.clock.advance(by: 30)
        let second = await harness.run(providers)
        #expect(harness.server.count("/a") == 1 && harness.server.count("/b") == 1)
        #expect(second["a"]?.report?.freshness == .cached(ageSeconds: 30))
        #expect(second["b"]?.report?.current?.temperatureC == 2)
        harness.clock.advance(by: 100)
        let third = await harness.run(providers)
        #expect(harness.server.count("/a") == 1)
        #expect(harness.server.count("/b") == 2)
        #expect(third["b"]?.report?.freshness == .fresh)
        #expect(third["a"]?.report?.freshness == .cached(ageSeconds: 130))
    }

    @Test func refreshSkipsReadingAndOfflineNeverAsks() async throws {
        var harness = Harness()
        harness.server.script("/a", [ok(1)])
        _ = await harness.run([("a", policy())])
        harness.options.readCache = false
        _ = await harness.run([("a", policy())])
        #expect(harness.server.count("/a") == 2)
        harness.options.readCache = true
        harness.options.offline = true
        harness.clock.advance(by: 7200)
        let offline = await harness.run([("a", policy()), ("b", policy())])
        #expect(harness.server.count("/a") == 2)
        #expect(offline["a"]?.report?.freshness == .stale(ageSeconds: 7200, because: "offline"))
        #expect(offline["b"]?.error?.reason == .offline)
        #expect(offline["b"].map { ProviderOutcome($0.error!) } == .skipped)
    }

    @Test func maxAgeOverridesTheTTL() async throws {
        var harness = Harness()
        harness.server.script("/a", [ok(1)])
        _ = await harness.run([("a", policy(currentTTL: 600))])
        harness.clock.advance(by: 120)
        harness.options.maxAgeSeconds = 60
        _ = await harness.run([("a", policy(currentTTL: 600))])
        #expect(harness.server.count("/a") == 2)
    }

    @Test func aFailingProviderIsServedStaleWithinMaxStaleAndFailsBeyondIt() async throws {
        let harness = Harness()
        harness.server.script("/a", [ok(1), status(503)])
        harness.server.script("/b", [ok(2)])
        _ = await harness.run([("a", policy()), ("b", policy())])
        harness.clock.advance(by: 7200)
        let stale = await harness.run([("a", policy()), ("b", policy())])
        guard case .stale(let age, let because)? = stale["a"]?.report?.freshness else {
            Issue.record("expected a stale answer, got \(String(describing: stale["a"]))")
            return
        }
        #expect(age == 7200)
        #expect(because.contains("HTTP 503"))
        #expect(stale["a"]?.report?.current?.temperatureC == 1)
        harness.clock.advance(by: 86_400)
        let expired = await harness.run([("a", policy()), ("b", policy())])
        #expect(expired["a"]?.error?.code == .unavailable)
        #expect(expired["b"]?.report?.current?.temperatureC == 2)
    }
}

@Suite struct ResilienceTests {
    @Test func serverErrorsAreRetriedTwiceOtherClientErrorsNever() async throws {
        let harness = Harness()
        harness.server.script("/a", [status(503), status(502), ok(5)])
        harness.server.script("/b", [status(400)])
        harness.server.script("/c", [status(500)])
        let results = await harness.run([("a", policy()), ("b", policy()), ("c", policy())])
        #expect(results["a"]?.report?.current?.temperatureC == 5)
        #expect(harness.server.count("/a") == 3)
        #expect(results["b"]?.error?.code == .badRequest)
        #expect(harness.server.count("/b") == 1)
        #expect(results["c"]?.error?.code == .unavailable)
        #expect(harness.server.count("/c") == 3)
    }

    @Test func backoffUsesFullJitterWithinTheCeiling() async throws {
        let drawn = Mutex<[ClosedRange<Double>]>([])
        var harness = Harness()
        harness.options.retryBaseDelaySeconds = 0.5
        harness.server.script("/a", [status(503)])
        let engine = Engine(consensus: Consensus(), bindings: [ProviderBinding(provider: HTTPFakeProvider(id: "a"), transport: harness.server, policy: policy())],
                            storage: EngineStorage(harness.storage), options: harness.options, time: harness.clock,
                            random: { range in drawn.withLock { $0.append(range) }; return 0 })
        _ = await engine.collect(WeatherRequest(place: Fixture.place, kinds: [.current]))
        #expect(drawn.withLock { $0 } == [0...0.5, 0...1.0, 0...2.0])
    }

    /// Each command tries three times (two retries); the breaker counts the command once, so it takes five failing
    /// commands (fifteen attempts), not five attempts, to open it.
    @Test func breakerOpensAfterFiveFailingCommandsAndTheNextCommandSkipsAtOnce() async throws {
        let harness = Harness()
        #expect(harness.options.maxRetries == 2)
        harness.server.script("/a", [status(503)])
        for command in 1...5 {
            let failed = await harness.run([("a", policy())])
            #expect(failed["a"]?.error?.code == .unavailable)
            #expect(failed["a"]?.error?.reason != .breakerOpen, "command \(command) was skipped")
            #expect(harness.server.count("/a") == 3 * command)
            #expect(try await harness.storage.breaker(provider: "a").failures == command)
        }
        let skipped = await harness.run([("a", policy())])
        #expect(harness.server.count("/a") == 15)
        #expect(skipped["a"]?.error?.reason == .breakerOpen)
        #expect(skipped["a"].map { ProviderOutcome($0.error!) } == .skipped)
        // Half-open after 60 s: one attempt goes through, and a success closes the breaker.
        harness.clock.advance(by: 61)
        harness.server.script("/a", [ok(3)])
        let recovered = await harness.run([("a", policy())])
        #expect(recovered["a"]?.report?.current?.temperatureC == 3)
        let breaker = try await harness.storage.breaker(provider: "a")
        #expect(breaker.failures == 0 && breaker.openedAt == nil)
    }

    /// Retry sits outside the rate limit: each attempt the provider sees takes a permit of its own.
    @Test func everyAttemptTakesAPermit() async throws {
        var harness = Harness()
        harness.options.readCache = false
        let window = RateLimit(limit: 3, perSeconds: 3600)
        harness.server.script("/a", [status(503), status(502), ok(6)])
        let first = await harness.run([("a", policy(limits: [window]))])
        #expect(first["a"]?.report?.current?.temperatureC == 6)
        #expect(harness.server.count("/a") == 3)
        #expect(try await harness.storage.usage(provider: "a", windows: [window], now: harness.clock.now()) == [3])
        // The window is full: the next command is refused (and served the answer just cached, marked stale).
        let second = await harness.run([("a", policy(limits: [window]))])
        #expect(harness.server.count("/a") == 3)
        guard case .stale(_, let because)? = second["a"]?.report?.freshness else {
            Issue.record("expected a stale answer, got \(String(describing: second["a"]))")
            return
        }
        #expect(because.hasPrefix("A: rate limit reached"))
    }

    /// Storage that fails at every call never stops an answer; each part that failed is reported.
    @Test func storageFailingEverywhereStillAnswersAndReportsEachPart() async throws {
        let harness = Harness()
        let failing = InstrumentedStorage.failingEverywhere()
        harness.server.script("/a", [ok(8)])
        let engine = Engine(consensus: Consensus(), bindings: [ProviderBinding(provider: HTTPFakeProvider(id: "a"), transport: harness.server,
                                                       policy: policy(limits: [RateLimit(limit: 10, perSeconds: 60)]))],
                            storage: EngineStorage(failing), time: harness.clock, diagnostics: harness.diagnostics)
        let events = await engine.collect(WeatherRequest(place: Fixture.place, kinds: [.current]))
        #expect(events.first?.report?.current?.temperatureC == 8)
        #expect(events.first?.report?.freshness == .fresh)
        #expect(harness.server.count("/a") == 1)
        let counts = harness.diagnostics.counts
        #expect(Set(counts.keys) == [.cache, .ledger, .health, .lock])
        #expect(harness.diagnostics.diagnostics.allSatisfy { $0.message.hasSuffix(InstrumentedStorage.failureMessage) })
    }

    @Test func aShortRetryAfterIsWaitedOutByTheNextEngineSharingTheStorage() async throws {
        let first = Harness()
        first.server.script("/a", [status(429, [HTTPHeader("Retry-After", "3")])])
        let limited = await first.run([("a", policy())])
        #expect(limited["a"]?.error.map(ProviderOutcome.init) == .rateLimited)
        #expect(first.server.count("/a") == 1)
        // A second engine (its own clock, the same storage) waits for the cooldown, then asks.
        let second = Harness(storage: first.storage)
        second.server.script("/a", [ok(7)])
        let task = Task { await second.run([("a", policy())]) }
        // The deadline, the lease's renewal and the cooldown.
        await waitForSleepers(second.clock, 3)
        #expect(second.server.count("/a") == 0)
        second.clock.advance(by: 3)
        let results = await task.value
        #expect(results["a"]?.report?.current?.temperatureC == 7)
        #expect(second.server.count("/a") == 1)
    }

    @Test func aRetryAfterOfADayPausesTheProviderForAnHourAtMost() async throws {
        let first = Harness()
        first.server.script("/a", [status(429, [HTTPHeader("Retry-After", "86400")])])
        let results = await first.run([("a", policy())])
        #expect(results["a"]?.error?.code == .rateLimited(retryAfterSeconds: 3600))
        #expect(results["a"]?.error?.message.contains("asked to wait 1 d (Retry-After); paused for 1 h") == true)
        let second = Harness(storage: first.storage)
        second.server.script("/a", [ok(1)])
        let paused = await second.run([("a", policy())])
        #expect(paused["a"]?.error?.reason == .cooldownWait)
        #expect(second.server.count("/a") == 0)
        let cooldown = try await first.storage.cooldown(provider: "a", now: first.clock.now())
        #expect(try #require(cooldown).until <= first.clock.now().addingTimeInterval(3600))
    }

    @Test func rateLimitWaitsWithinTheDeadlineAndRefusesBeyondIt() async throws {
        var harness = Harness()
        harness.options.readCache = false
        harness.server.script("/a", [ok(1)])
        let tight = [("a", policy(limits: [RateLimit(limit: 1, perSeconds: 5)]))]
        _ = await harness.run(tight)
        let task = Task { await harness.run(tight) }
        // The deadline, the lease's renewal and the wait for a permit.
        await waitForSleepers(harness.clock, 3)
        #expect(harness.server.count("/a") == 1)
        harness.clock.advance(by: 5)
        #expect(await task.value["a"]?.report != nil)
        #expect(harness.server.count("/a") == 2)

        let hourly = [("a", policy(limits: [RateLimit(limit: 2, perSeconds: 3600)]))]
        // With an answer in the cache, a refused permit serves it, marked stale with the reason.
        let served = await harness.run(hourly)
        guard case .stale(_, let because)? = served["a"]?.report?.freshness else {
            Issue.record("expected a stale answer, got \(String(describing: served["a"]))")
            return
        }
        #expect(because == "A: rate limit reached; a call frees up at 2026-11-28 10:00 UTC")
        // With nothing cached, it is reported rate limited, with the time it frees up.
        // The answer filled both slots, current conditions and forecast.
        #expect(try await harness.storage.clear() == 2)
        let refused = await harness.run(hourly)
        #expect(harness.server.count("/a") == 2)
        guard case .rateLimited(let retryAfter)? = refused["a"]?.error?.code else {
            Issue.record("expected rate_limited, got \(String(describing: refused["a"]))")
            return
        }
        #expect(retryAfter.map { $0 > 3000 && $0 <= 3600 } == true)
        #expect(refused["a"]?.error?.message.contains("frees up at") == true)
    }

    @Test func aCachedAnswerIsServedStaleWhenTheDeadlineEndsASlowProvider() async throws {
        var harness = Harness()
        harness.server.script("/a", [ok(4)])
        _ = await harness.run([("a", policy(currentTTL: 60))])
        harness.clock.advance(by: 600)
        harness.options.timeoutSeconds = 2
        let clock = harness.clock
        let slowTransport = SlowTransport(clock: clock)
        let engine = Engine(consensus: Consensus(), bindings: [ProviderBinding(provider: HTTPFakeProvider(id: "a"), transport: slowTransport, policy: policy(currentTTL: 60))],
                            storage: EngineStorage(harness.storage), options: harness.options, time: clock)
        let task = Task { await engine.collect(WeatherRequest(place: Fixture.place, kinds: [.current])) }
        // The deadline, the lease's renewal and the transport.
        await waitForSleepers(clock, 3)
        clock.advance(by: 2)
        let events = await task.value
        guard case .result(_, let result) = events.first else {
            Issue.record("expected the stale answer, got \(String(describing: events.first))")
            return
        }
        let report = result.report
        #expect(report.current?.temperatureC == 4)
        guard case .stale(let age, let because) = report.freshness else {
            Issue.record("expected stale, got \(report.freshness)")
            return
        }
        #expect(age == 602)
        #expect(because.contains("deadline"))
    }

    @Test func theDeadlineEndsASlowProvider() async throws {
        var harness = Harness()
        harness.options.timeoutSeconds = 2
        let clock = harness.clock
        let slow = FakeProvider("slow", kinds: [.current]) { _, _ throws(ProviderError) in
            do { try await clock.sleep(seconds: 60) } catch { throw ProviderError(.cancelled, "cancelled") }
            throw ProviderError(.unavailable, "never reached")
        }
        let engine = Engine(consensus: Consensus(), bindings: [ProviderBinding(provider: slow, transport: harness.server, policy: policy())],
                            storage: EngineStorage(harness.storage), options: harness.options, time: clock)
        let task = Task { await engine.collect(WeatherRequest(place: Fixture.place, kinds: [.current])) }
        // The deadline, the lease's renewal and the provider.
        await waitForSleepers(clock, 3)
        clock.advance(by: 2)
        let events = await task.value
        guard case .failure(_, _, let error) = events.first else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.reason == .deadline)
        #expect(error.message == "SLOW: no answer within the 2 s deadline")
    }
}

/// A transport that answers only after a minute on the manual clock.
struct SlowTransport: Transport {
    let clock: ManualClock

    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        do { try await clock.sleep(seconds: 60) } catch { throw ProviderError(.cancelled, "cancelled") }
        return ok(1)
    }
}

/// Yields until `count` tasks sleep on the clock; records an issue instead of hanging when they never do.
func waitForSleepers(_ clock: ManualClock, _ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
    for _ in 0..<2_000_000 {
        if clock.sleeperCount >= count { return }
        await Task.yield()
    }
    Issue.record("\(count) sleepers never came", sourceLocation: sourceLocation)
}
