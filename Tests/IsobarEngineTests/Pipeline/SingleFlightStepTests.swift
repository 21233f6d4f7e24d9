import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Testing

@Suite("SingleFlightStep")
struct SingleFlightStepTests {
    let clock = ManualClock()
    let storage = MemoryStorage()
    let diagnostics = DiagnosticLog()

    func step(_ next: any PipelineStep, owner: String, locks: (any FetchLock)? = nil, cache: (any ResponseCache)? = nil,
              readCache: Bool = true, diagnostics: DiagnosticLog? = nil) -> SingleFlightStep {
        let diagnostics = diagnostics ?? self.diagnostics
        return SingleFlightStep(next: next, cache: reportCache(cache ?? storage, clock: clock, diagnostics: diagnostics), locks: locks ?? storage,
                                leaseSeconds: 5, readCache: readCache, time: clock, diagnostics: diagnostics, owner: LeaseOwner(token: owner))
    }

    func leaseKey(_ kinds: Set<DataKind> = [.current]) -> String {
        reportCache(storage, clock: clock).leaseKey(WeatherRequest(place: Fixture.place, kinds: kinds))
    }

    /// A step below that waits in `lot` before answering `temperature`, fetched when let go.
    func parked(in lot: ParkingLot, answering temperature: Double) -> ScriptedStep {
        ScriptedStep(clock: clock) { [clock] _, _ throws(ProviderError) in
            guard await lot.park() else { throw ProviderError(.cancelled, "cancelled", reason: .cancelled) }
            return sampleReport(temperature, at: clock.now())
        }
    }

    /// Advances the clock in steps of `step` seconds until `until` seconds have passed since `start` or `stop` holds,
    /// letting `sleepers` tasks fall asleep again after each step.
    func advance(from start: Date, until seconds: Double, by step: Double = 0.25, sleepers: Int, stop: () -> Bool) async {
        while clock.now().timeIntervalSince(start) < seconds - 1e-9, !stop() {
            clock.advance(by: step)
            await eventually("\(sleepers) sleepers after \(clock.now().timeIntervalSince(start)) s") {
                stop() || clock.sleeperCount >= sleepers
            }
        }
    }

    @Test func theHolderFetchesStoresEverySlotAndReleasesTheLease() async throws {
        let locks = InstrumentedStorage(base: storage)
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let report = try await step(next, owner: "a", locks: locks).answer(providerCall([.current, .hourly], clock: clock))
        #expect(next.callCount == 1)
        #expect(report.freshness == .fresh)
        #expect(report.current?.temperatureC == 9)
        for slot in CacheSlot.weather {
            let entry = try #require(try await storage.entry(for: cacheKey(slot)), "no \(slot) entry")
            #expect(entry.fetchedAt == clock.now())
            #expect(ReportCodec.decode(entry.payload, place: Fixture.place)?.providerID == "p")
        }
        #expect(locks.log == [.acquireLease, .releaseLease])
        #expect(try await storage.acquire(leaseKey([.current, .hourly]), owner: LeaseOwner(token: "other"), seconds: 5, now: clock.now()))
    }

    @Test func aFailedFetchStoresNothingAndReleasesTheLease() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(ProviderError(.unavailable, "P answered HTTP 503"))])
        let result = await Result.of { () async throws(ProviderError) in try await step(next, owner: "a").answer(providerCall(clock: clock)) }
        #expect(result.error?.message == "P answered HTTP 503")
        #expect(try await storage.entry(for: cacheKey(.current)) == nil)
        #expect(try await storage.acquire(leaseKey(), owner: LeaseOwner(token: "other"), seconds: 5, now: clock.now()))
    }

    @Test func anAnswerCachedWhenTheLeaseIsTakenIsUsed() async throws {
        await reportCache(storage, clock: clock).store(sampleReport(4, at: clock.now()))
        clock.advance(by: 10)
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let report = try await step(next, owner: "a").answer(providerCall(clock: clock))
        #expect(next.callCount == 0)
        #expect(report.freshness == .cached(ageSeconds: 10))
        // Under --refresh only an answer fetched after the call began will do.
        let refreshed = try await step(next, owner: "a", readCache: false).answer(providerCall(clock: clock))
        #expect(next.callCount == 1)
        #expect(refreshed.current?.temperatureC == 9)
    }

    @Test(arguments: [true, false])
    func waitersTakeTheHoldersAnswerFromTheCache(readCache: Bool) async throws {
        let lot = ParkingLot()
        let holderNext = parked(in: lot, answering: 7)
        let holder = Task { await Result.of { () async throws(ProviderError) in try await step(holderNext, owner: "a").answer(providerCall(clock: clock)) } }
        await eventually("the holder fetches") { holderNext.callCount == 1 }
        let waiterNext = ScriptedStep(clock: clock, script: [.success(9)])
        let waiter = Task {
            await Result.of { () async throws(ProviderError) in
                try await step(waiterNext, owner: "b", readCache: readCache).answer(providerCall(clock: clock))
            }
        }
        // The holder's renewal and the waiter's poll.
        await eventually("the waiter polls") { clock.sleeperCount == 2 }
        clock.advance(by: 1)
        await eventually("the waiter polls again") { clock.sleeperCount == 2 }
        #expect(waiterNext.callCount == 0)

        lot.open()
        let held = try await holder.value.get()
        #expect(held.freshness == .fresh)
        clock.advance(by: 0.05)
        let waited = try await waiter.value.get()
        #expect(waiterNext.callCount == 0)
        #expect(waited.current?.temperatureC == 7)
        guard case .cached(let age) = waited.freshness else {
            Issue.record("expected the holder's answer from the cache, got \(waited.freshness)")
            return
        }
        #expect(isClose(age, 0.05, 1e-6))
    }

    /// The holder is alive and still fetching, but its renewals fail: its lease runs out after `leaseSeconds` and
    /// another owner takes over.
    @Test func aHolderThatStopsRenewingIsTakenOverAfterItsLease() async throws {
        let start = clock.now()
        let lot = ParkingLot()
        let holderNext = parked(in: lot, answering: 7)
        let holderDiagnostics = DiagnosticLog()
        let stalled = InstrumentedStorage(base: storage, failing: [.renewLease])
        let holder = Task {
            await Result.of { () async throws(ProviderError) in
                try await step(holderNext, owner: "stalled", locks: stalled, diagnostics: holderDiagnostics).answer(providerCall(clock: clock, within: 60))
            }
        }
        await eventually("the holder fetches") { holderNext.callCount == 1 }
        let takerNext = ScriptedStep(clock: clock, script: [.success(9)])
        let takerDone = Flag()
        let taker = Task {
            defer { takerDone.set() }
            return await Result.of { () async throws(ProviderError) in
                try await step(takerNext, owner: "taker").answer(providerCall(clock: clock, within: 60))
            }
        }
        await eventually("the taker polls") { clock.sleeperCount == 2 }
        await advance(from: start, until: 10, sleepers: 2) { takerDone.isSet }

        let taken = try #require(takerNext.times.first, "the lease was never taken over")
        #expect(taken.timeIntervalSince(start) >= 5, "taken over within the holder's lease")
        #expect(taken.timeIntervalSince(start) < 5.25)
        #expect(holderNext.finished == 0, "the holder was still fetching")
        let report = try await taker.value.get()
        #expect(report.freshness == .fresh)
        #expect(report.current?.temperatureC == 9)
        #expect(holderDiagnostics.messages(.lock).first?.hasPrefix("cannot renew the fetch lease \(leaseKey()): ") == true)

        lot.open()
        #expect(try await holder.value.get().current?.temperatureC == 7)
    }

    /// The holder's fetch outlasts four lease lengths; it renews, so the waiter never takes over and takes its answer.
    @Test func aHolderThatKeepsRenewingIsNotTakenOver() async throws {
        let start = clock.now()
        let lot = ParkingLot()
        let holderNext = parked(in: lot, answering: 7)
        let locks = InstrumentedStorage(base: storage)
        let holder = Task {
            await Result.of { () async throws(ProviderError) in
                try await step(holderNext, owner: "holder", locks: locks).answer(providerCall(clock: clock, within: 60))
            }
        }
        await eventually("the holder fetches") { holderNext.callCount == 1 }
        let waiterNext = ScriptedStep(clock: clock, script: [.success(9)])
        let waiter = Task {
            await Result.of { () async throws(ProviderError) in try await step(waiterNext, owner: "waiter").answer(providerCall(clock: clock, within: 60)) }
        }
        await eventually("the waiter polls") { clock.sleeperCount == 2 }
        await advance(from: start, until: 20, sleepers: 2) { waiterNext.callCount > 0 }

        #expect(waiterNext.callCount == 0, "a holder that renews was taken over")
        #expect(locks.count(.renewLease) >= 10)
        lot.open()
        #expect(try await holder.value.get().freshness == .fresh)
        clock.advance(by: 0.05)
        let waited = try await waiter.value.get()
        #expect(waiterNext.callCount == 0)
        #expect(waited.current?.temperatureC == 7)
        #expect(diagnostics.diagnostics.isEmpty)
    }

    /// Two calls for one place through one step (one engine asked about the same place twice at once) fetch once.
    @Test func concurrentCallsThroughOneStepFetchOnce() async throws {
        let lot = ParkingLot()
        let next = parked(in: lot, answering: 7)
        let single = step(next, owner: "engine")
        let first = Task { await Result.of { () async throws(ProviderError) in try await single.answer(providerCall(clock: clock)) } }
        await eventually("the first call fetches") { next.callCount == 1 }
        let second = Task { await Result.of { () async throws(ProviderError) in try await single.answer(providerCall(clock: clock)) } }
        await eventually("the second call waits") { clock.sleeperCount == 2 || next.callCount == 2 }
        #expect(next.callCount == 1)
        lot.open()
        #expect(try await first.value.get().freshness == .fresh)
        clock.advance(by: 0.05)
        let waited = try await second.value.get()
        #expect(next.callCount == 1)
        #expect(waited.current?.temperatureC == 7)
    }

    @Test func leasesThatCannotBeUsedDoNotStopTheCallAndAreReported() async throws {
        let locks = InstrumentedStorage(base: storage, failing: InstrumentedStorage.Operation.lease)
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let report = try await step(next, owner: "a", locks: locks).answer(providerCall(clock: clock))
        #expect(next.callCount == 1)
        #expect(report.current?.temperatureC == 9)
        #expect(try await storage.entry(for: cacheKey(.current)) != nil)
        let reason = InstrumentedStorage.failureMessage
        #expect(diagnostics.messages(.lock) == [
            "cannot take the fetch lease \(leaseKey()): \(reason)", "cannot release the fetch lease \(leaseKey()): \(reason)",
        ])
    }

    @Test func aCacheThatCannotBeWrittenDoesNotStopTheAnswerAndIsReported() async throws {
        let cache = InstrumentedStorage(base: storage, failing: [.storeEntry])
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let report = try await step(next, owner: "a", cache: cache).answer(providerCall(clock: clock))
        #expect(report.current?.temperatureC == 9)
        #expect(report.freshness == .fresh)
        // The answer fills both slots; each write failed.
        #expect(diagnostics.messages(.cache) == Array(repeating: "cannot store an answer of p: \(InstrumentedStorage.failureMessage)", count: 2))
        #expect(try await storage.entry(for: cacheKey(.current)) == nil)
    }

    @Test func aCancelledWaiterStopsWaiting() async throws {
        let lot = ParkingLot()
        let holderNext = parked(in: lot, answering: 7)
        let holder = Task { await Result.of { () async throws(ProviderError) in try await step(holderNext, owner: "a").answer(providerCall(clock: clock)) } }
        await eventually("the holder fetches") { holderNext.callCount == 1 }
        let waiterNext = ScriptedStep(clock: clock, script: [.success(9)])
        let waiter = Task { await Result.of { () async throws(ProviderError) in try await step(waiterNext, owner: "b").answer(providerCall(clock: clock)) } }
        await eventually("the waiter polls") { clock.sleeperCount == 2 }
        waiter.cancel()
        let error = try #require(await waiter.value.error)
        #expect(error.code == .cancelled)
        #expect(waiterNext.callCount == 0)
        lot.open()
        _ = await holder.value
    }
}
