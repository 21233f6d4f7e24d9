import Foundation
import IsobarCore
import IsobarEngine
@testable import IsobarStore
import Synchronization
import IsobarTestKit
import Testing

/// A provider answering at once and counting its calls.
private final class CountingProvider: WeatherProvider, @unchecked Sendable {
    // Safety of `@unchecked Sendable`: `calls` is guarded by `lock`.
    private let lock = NSLock()
    private var calls = 0
    let id = "counted"
    var displayName: String { "Counted" }
    var capabilities: ProviderCapabilities {
        ProviderCapabilities(kinds: [.current], horizonDays: 1, stepHours: 1, quantities: [.temperature], requiresAPIKey: false,
                             geocoding: false, rateLimits: [RateLimit(limit: 1000, perSeconds: 60)])
    }
    /// Called at each fetch, before it answers.
    let onFetch: @Sendable () -> Void
    /// How long a fetch takes.
    let delay: Duration
    var callCount: Int { lock.withLock { calls } }

    init(delay: Duration = .zero, onFetch: @escaping @Sendable () -> Void = {}) {
        self.delay = delay
        self.onFetch = onFetch
    }

    func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        lock.withLock { calls += 1 }
        onFetch()
        do {
            try await Task.sleep(for: delay)
        } catch {
            throw ProviderError(.cancelled, "cancelled", reason: .cancelled)
        }
        var sample = WeatherSample(time: context.time.now(), periodHours: 1)
        sample.temperatureC = 12
        return WeatherReport(providerID: id, place: request.place, fetchedAt: context.time.now(), current: sample)
    }
}

/// Transport never used: the provider above answers by itself.
private struct UnusedTransport: Transport {
    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        throw ProviderError(.unavailable, "no transport here")
    }
}

@Suite struct LeaseLookupTests {
    let now = Date(timeIntervalSince1970: 1_795_856_400)

    @Test func takingALeaseReadsTheEntriesAndTheHealthInTheSameWriteJob() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let kept = CacheEntry(fetchedAt: now, payload: "cached", lifetimeSeconds: 30)
        try await store.store(kept, for: key("k"))
        try await store.setCooldown(Cooldown(until: now.addingTimeInterval(60), reason: "HTTP 429"), provider: "p")
        _ = try await store.recordOutcome(provider: "p", succeeded: false, threshold: 5, now: now)
        let (writes, reads) = (store.writerJobs, store.readerJobs)
        let look = try await store.acquire("lease", owner: LeaseOwner(token: "a"), seconds: 5, now: now, reading: [key("k"), key("none")],
                                           healthOf: "p", permit: nil)
        #expect(look == LeaseLook(acquired: true, entries: [kept, nil],
                                  health: HealthReading(cooldown: Cooldown(until: now.addingTimeInterval(60), reason: "HTTP 429"),
                                                        breaker: BreakerState(failures: 1))))
        #expect(store.writerJobs == writes + 1)
        #expect(store.readerJobs == reads)
        // Held by another owner: refused, and nothing else read.
        let refused = try await store.acquire("lease", owner: LeaseOwner(token: "b"), seconds: 5, now: now, reading: [key("k")], healthOf: "p", permit: nil)
        #expect(refused == LeaseLook(acquired: false))
        // A cooldown that has ended is none; without a provider, no health is read.
        let later = try await store.acquire("other", owner: LeaseOwner(token: "b"), seconds: 5, now: now.addingTimeInterval(61),
                                            reading: [], healthOf: nil, permit: nil)
        #expect(later == LeaseLook(acquired: true, entries: [], health: nil))
        let ended = try await store.acquire("third", owner: LeaseOwner(token: "b"), seconds: 5, now: now.addingTimeInterval(61),
                                            reading: [], healthOf: "p", permit: nil)
        #expect(ended.health == HealthReading(cooldown: nil, breaker: BreakerState(failures: 1)))
    }

    @Test func writesQueuedBeforeTheLeaseAreReadAsTheyWillBe() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        _ = try await store.recordOutcome(provider: "p", succeeded: false, threshold: 1, now: now)
        let queued = CacheEntry(fetchedAt: now, payload: "queued")
        await store.storeSoon(queued, for: key("k")) { error in Issue.record("\(error)") }
        await store.recordOutcomeSoon(provider: "p", succeeded: true, threshold: 1, now: now) { error in Issue.record("\(error)") }
        let look = try await store.acquire("lease", owner: LeaseOwner(token: "a"), seconds: 5, now: now, reading: [key("k")], healthOf: "p", permit: nil)
        #expect(look.entries == [queued])
        #expect(look.health?.breaker == BreakerState())
    }

    /// The pipeline over the store, every read going to the reader's thread (a store with a delay per job reads nothing inline),
    /// so that the jobs a call makes can be counted.
    private func pipeline(_ store: Store, _ provider: CountingProvider, time: any TimeSource = SystemTime(),
                          options: EngineOptions = EngineOptions()) -> any PipelineStep {
        let binding = ProviderBinding(provider: provider, transport: UnusedTransport(), policy: ProviderPolicy(declaredBy: provider))
        return Pipeline.compose(binding, storage: EngineStorage(store), options: options, time: time, random: { $0.lowerBound },
                                diagnostics: DiagnosticLog(forward: { Issue.record("\($0)") }), slots: AsyncSemaphore(4)).step
    }

    @Test func aCallThatMissesTheCacheReadsOnceOnTheReaderAndWritesOnceBeforeItAsks() async throws {
        let store = try await Store.open(directory: freshDirectory(), options: Store.Options(artificialDelayPerJob: .microseconds(1)),
                                         warn: noWarnings)
        let writesAtFetch = Mutex<Int?>(nil)
        let provider = CountingProvider { writesAtFetch.withLock { $0 = store.writerJobs } }
        let step = pipeline(store, provider)
        let place = Place(name: "P", coordinate: Coordinate(latitude: 10, longitude: 20)!)
        let call = ProviderCall(request: WeatherRequest(place: place, kinds: [.current]), deadline: Date().addingTimeInterval(30))
        let (reads, writes) = (store.readerJobs, store.writerJobs)
        let report = try await step.answer(call)
        #expect(report.freshness == .fresh)
        #expect(provider.callCount == 1)
        // The cache read before the lease; the cache again, the cooldown with the breaker and the permit go with the lease.
        #expect(store.readerJobs == reads + 1)
        #expect(writesAtFetch.withLock { $0 } == writes + 1)
        await store.flushQueuedWrites()
        #expect(try await store.usage(provider: provider.id, windows: [RateLimit(limit: 1000, perSeconds: 60)], now: Date()) == [1])
        await store.flushQueuedWrites()
        let again = try await step.answer(call)
        #expect(again.current?.temperatureC == 12)
        #expect(provider.callCount == 1)
    }

    @Test func afterARunOfMissesTheCacheIsReadOnlyWithTheLeaseUntilAnAnswerIsFoundThere() async throws {
        let store = try await Store.open(directory: freshDirectory(), options: Store.Options(artificialDelayPerJob: .microseconds(1)),
                                         warn: noWarnings)
        let provider = CountingProvider()
        let step = pipeline(store, provider)
        func call(_ number: Int) -> ProviderCall {
            let place = Place(name: "P\(number)", coordinate: Coordinate(latitude: 10, longitude: Double(number))!)
            return ProviderCall(request: WeatherRequest(place: place, kinds: [.current]), deadline: Date().addingTimeInterval(30))
        }
        let reads = store.readerJobs
        for number in 1...CacheMissStreak.threshold {
            #expect(try await step.answer(call(number)).freshness == .fresh)
        }
        #expect(store.readerJobs == reads + CacheMissStreak.threshold)
        // Past the run, a miss costs no read before the lease.
        let next = CacheMissStreak.threshold + 1
        #expect(try await step.answer(call(next)).freshness == .fresh)
        #expect(store.readerJobs == reads + CacheMissStreak.threshold)
        #expect(provider.callCount == next)
        // An answer kept by someone else is found with the lease, unasked and unread before it...
        let cache = ReportCache(provider: provider, cache: store, policy: ProviderPolicy(declaredBy: provider), maxAgeSeconds: nil,
                                time: SystemTime(), diagnostics: DiagnosticLog())
        var kept = WeatherReport(providerID: provider.id, place: call(next + 1).request.place, fetchedAt: Date(),
                                 current: WeatherSample(time: Date(), periodHours: 1))
        kept.current?.temperatureC = 3
        await cache.store(kept)
        #expect(try await step.answer(call(next + 1)).current?.temperatureC == 3)
        #expect(store.readerJobs == reads + CacheMissStreak.threshold)
        #expect(provider.callCount == next)
        // ...and from then on the cache is read before the lease again: a cached place costs one read and no write.
        await store.flushQueuedWrites()
        let writes = store.writerJobs
        #expect(try await step.answer(call(1)).current?.temperatureC == 12)
        #expect(store.readerJobs == reads + CacheMissStreak.threshold + 1)
        #expect(store.writerJobs == writes)
        #expect(provider.callCount == next)
    }

    @Test func anAnswerKeptBetweenTheCacheReadAndTheLeaseIsTakenFromTheLeaseJob() async throws {
        let store = try await Store.open(directory: freshDirectory(), options: Store.Options(artificialDelayPerJob: .microseconds(1)),
                                         warn: noWarnings)
        let provider = CountingProvider()
        let diagnostics = DiagnosticLog(forward: { Issue.record("\($0)") })
        let policy = ProviderPolicy(declaredBy: provider)
        let cache = ReportCache(provider: provider, cache: store, policy: policy, maxAgeSeconds: nil, time: SystemTime(), diagnostics: diagnostics)
        let fetch = FetchStep(provider: provider, transport: UnusedTransport(), time: SystemTime())
        let windows = [RateLimit(limit: 1000, perSeconds: 60)]
        let step = SingleFlightStep(next: fetch, cache: cache, locks: store, leaseSeconds: 5, readCache: true, time: SystemTime(),
                                    diagnostics: diagnostics, lookup: store, healthKey: provider.id, permitRequest: { call in
                                        PermitRequest(provider: provider.id, windows: windows, cost: 1, deadline: call.deadline)
                                    })
        let place = Place(name: "P", coordinate: Coordinate(latitude: 10, longitude: 20)!)
        let request = WeatherRequest(place: place, kinds: [.current])
        // Another holder answered after this call's cache read (the step below the cache step is asked straight away).
        var answer = WeatherReport(providerID: provider.id, place: place, fetchedAt: Date(), current: WeatherSample(time: Date(), periodHours: 1))
        answer.current?.temperatureC = 3
        await cache.store(answer)
        let reads = store.readerJobs
        let report = try await step.answer(ProviderCall(request: request, deadline: Date().addingTimeInterval(30)))
        #expect(provider.callCount == 0)
        #expect(report.current?.temperatureC == 3)
        #expect(store.readerJobs == reads)
        // The permit taken with the lease was not used: it is withdrawn.
        await store.flushQueuedWrites()
        #expect(try await store.usage(provider: provider.id, windows: windows, now: Date()) == [0])
    }

    @Test func aPermitIsTakenWithTheLeaseOnlyWhenTheCallWillBeMadeAndAnUnusedOneIsWithdrawn() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let windows = [RateLimit(limit: 2, perSeconds: 60)]
        let request = PermitRequest(provider: "p", windows: windows, cost: 1, deadline: now.addingTimeInterval(10))
        let usage = { () async throws -> [Double] in try await store.usage(provider: "p", windows: windows, now: now) }
        let take = { (lease: String, health: String?) async throws -> LeaseLook in
            try await store.acquire(lease, owner: LeaseOwner(token: lease), seconds: 5, now: now, reading: [], healthOf: health, permit: request)
        }
        let granted = try #require(try await take("a", "p").permit)
        #expect(try await usage() == [1])
        await store.withdrawSoon(granted) { error in Issue.record("\(error)") }
        await store.flushQueuedWrites()
        #expect(try await usage() == [0])
        // The health not read with it: no permit.
        #expect(try await take("b", nil).permit == nil)
        // A cooldown, or an open breaker: the call may not be made, no permit.
        try await store.setCooldown(Cooldown(until: now.addingTimeInterval(30), reason: "HTTP 429"), provider: "p")
        #expect(try await take("c", "p").permit == nil)
        try await store.clearCooldown(provider: "p")
        _ = try await store.recordOutcome(provider: "p", succeeded: false, threshold: 1, now: now)
        #expect(try await take("d", "p").permit == nil)
        try await store.resetBreaker(provider: "p")
        #expect(try await usage() == [0])
        // A full window: no permit (the rate-limit step waits for one as before).
        _ = try await store.acquire([request, request], now: now)
        let full = try await take("e", "p")
        #expect(full.acquired && full.permit == nil)
        #expect(try await usage() == [2])
    }

    @Test func aWithdrawOrSettleOfAGoneCallNeverTouchesTheCallThatTookItsRowid() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let windows = [RateLimit(limit: 5, perSeconds: 60)]
        let request = { (at: Date) in PermitRequest(provider: "p", windows: windows, cost: 1, deadline: at.addingTimeInterval(10)) }
        guard case .granted(let gone)? = try await store.acquire([request(now)], now: now).first else { Issue.record("no grant"); return }
        // The row disappears (as in a file rebuilt after damage) and the next grant takes the same rowid.
        let other = try Connection(path: store.path, busyTimeoutMilliseconds: Store.busyTimeoutMilliseconds)
        try other.query("DELETE FROM rate_events")
        let later = now.addingTimeInterval(1)
        guard case .granted(let live)? = try await store.acquire([request(later)], now: later).first else { Issue.record("no grant"); return }
        #expect(gone.rawValue.split(separator: "@").first == live.rawValue.split(separator: "@").first, "the test needs a reused rowid")
        await store.withdrawSoon(gone) { error in Issue.record("\(error)") }
        try await store.settle(gone, at: later)
        await store.flushQueuedWrites()
        let rows = try other.query("SELECT count(*), count(settled_at) FROM rate_events")
        #expect(rows.first?.map(\.int) == [1, 0], "the live call is still counted, unsettled")
        await store.withdrawSoon(live) { error in Issue.record("\(error)") }
        await store.flushQueuedWrites()
        #expect(try other.query("SELECT count(*) FROM rate_events").first?.first?.int == 0)
        await store.withdrawSoon(CallID("12")) { error in #expect(error.message.contains("unknown call 12")) }
    }

    @Test func aCallWhoseSettleWasLostStopsCountingAfterAnHourNotAtABatchsDeadline() async throws {
        let store = try await Store.open(directory: freshDirectory(), warn: noWarnings)
        let windows = [RateLimit(limit: 5, perSeconds: 60)]
        let years = PermitRequest(provider: "p", windows: windows, cost: 1, deadline: now.addingTimeInterval(10 * 365 * 86_400))
        _ = try await store.acquire([years], now: now)
        // Never settled: counted while it may still be in flight...
        #expect(try await store.usage(provider: "p", windows: windows, now: now.addingTimeInterval(1_800)) == [1])
        // ...but no request lasts an hour: then it frees its room (a window later).
        #expect(try await store.usage(provider: "p", windows: windows, now: now.addingTimeInterval(3_600 + 61)) == [0])
        let near = PermitRequest(provider: "q", windows: windows, cost: 1, deadline: now.addingTimeInterval(10))
        _ = try await store.acquire([near], now: now)
        #expect(try await store.usage(provider: "q", windows: windows, now: now.addingTimeInterval(69)) == [1])
        #expect(try await store.usage(provider: "q", windows: windows, now: now.addingTimeInterval(71)) == [0], "a near deadline is kept")
    }

    @Test func aCallThatFindsTheLeaseHeldElsewhereTakesTheHoldersAnswerAndNoPermit() async throws {
        let directory = freshDirectory()
        // Two processes on one file: each its own store and pipeline.
        let (one, two) = (try await Store.open(directory: directory, warn: noWarnings), try await Store.open(directory: directory, warn: noWarnings))
        let (holder, waiter) = (CountingProvider(delay: .milliseconds(300)), CountingProvider())
        let place = Place(name: "P", coordinate: Coordinate(latitude: 10, longitude: 20)!)
        let call = ProviderCall(request: WeatherRequest(place: place, kinds: [.current]), deadline: Date().addingTimeInterval(300))
        // A lease that outlasts any stall of a loaded test run: the holder's lease must not expire (and be taken over)
        // while its task waits for a thread.
        var options = EngineOptions()
        options.leaseSeconds = 120
        let first = Task { try await pipeline(one, holder, options: options).answer(call) }
        #expect(await eventually { holder.callCount == 1 })
        let second = try await pipeline(two, waiter, options: options).answer(call)
        let answered = try await first.value
        #expect(waiter.callCount == 0)
        #expect(second.current?.temperatureC == answered.current?.temperatureC)
        if case .cached = second.freshness {} else { Issue.record("the waiter's answer is \(second.freshness)") }
        await one.flushQueuedWrites()
        await two.flushQueuedWrites()
        #expect(try await two.usage(provider: holder.id, windows: [RateLimit(limit: 1000, perSeconds: 60)], now: Date()) == [1])
    }
}
