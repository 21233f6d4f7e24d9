import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Synchronization
import Testing

/// Twenty places a tenth of a degree apart (each its own cache entry and lease), named by number.
enum ManyPlaces {
    static let places: [Place] = (0..<20).map { index in
        Place(name: "Place \(index)", countryCode: "BY", coordinate: Coordinate(latitude: 50 + Double(index) / 10, longitude: 27.5)!,
              utcOffsetSeconds: 10_800, timeZoneIdentifier: "Europe/Minsk")
    }

    static func requests(_ kinds: Set<DataKind> = [.current]) -> [WeatherRequest] {
        places.map { WeatherRequest(place: $0, kinds: kinds) }
    }

    /// The place's number.
    static func number(_ place: Place) -> Int { Int(place.name.dropFirst("Place ".count)) ?? -1 }

    /// A report from `id` for `place` with the place's number plus `offset` as current temperature.
    static func report(_ id: String, _ place: Place, offset: Double) -> WeatherReport {
        var sample = WeatherSample(time: Fixture.midnightUTC, periodHours: 1)
        sample.temperatureC = Double(number(place)) + offset
        return WeatherReport(providerID: id, place: place, fetchedAt: Fixture.midnightUTC, current: sample)
    }
}

/// Counts the calls in flight to each provider, and the places they are for, keeping the most seen at once.
final class InFlightCounter: Sendable {
    private struct State {
        var calls: [String: Int] = [:]
        var maxCalls: [String: Int] = [:]
        var places: [String: Int] = [:]
        var maxPlaces = 0
        var total = 0
    }

    private let state = Mutex(State())

    func enter(_ provider: String, _ place: Place) {
        state.withLock { state in
            state.calls[provider, default: 0] += 1
            state.maxCalls[provider] = max(state.maxCalls[provider, default: 0], state.calls[provider, default: 0])
            state.places[place.name, default: 0] += 1
            state.maxPlaces = max(state.maxPlaces, state.places.count)
            state.total += 1
        }
    }

    func leave(_ provider: String, _ place: Place) {
        state.withLock { state in
            state.calls[provider, default: 0] -= 1
            state.places[place.name, default: 0] -= 1
            if state.places[place.name] == 0 { state.places[place.name] = nil }
        }
    }

    /// Calls to `provider` in flight now.
    func calls(_ provider: String) -> Int { state.withLock { $0.calls[provider, default: 0] } }
    /// The most calls to `provider` ever in flight at once.
    func maxCalls(_ provider: String) -> Int { state.withLock { $0.maxCalls[provider, default: 0] } }
    /// Places with a call in flight now.
    var places: Int { state.withLock { $0.places.count } }
    /// The most places ever with a call in flight at once.
    var maxPlaces: Int { state.withLock { $0.maxPlaces } }
    /// Calls made so far.
    var total: Int { state.withLock { $0.total } }
}

@Suite("Engine.run over many places")
struct EngineRunTests {
    /// A provider counting its calls in `counter` and answering only when `lot` lets it.
    static func parked(_ id: String, in lot: ParkingLot, counter: InFlightCounter) -> FakeProvider {
        FakeProvider(id) { request, _ throws(ProviderError) in
            counter.enter(id, request.place)
            defer { counter.leave(id, request.place) }
            guard await lot.park() else { throw ProviderError(.cancelled, "cancelled", reason: .cancelled) }
            return ManyPlaces.report(id, request.place, offset: 0)
        }
    }

    static func collect(_ stream: AsyncStream<EngineEvent<ConsensusResult>>) async -> [EngineEvent<ConsensusResult>] {
        var events: [EngineEvent<ConsensusResult>] = []
        for await event in stream { events.append(event) }
        return events
    }

    @Test func everyRequestGetsOneEventPerProviderThenItsConsensusAllTaggedWithItsID() async throws {
        func answering(_ id: String, offset: Double) -> FakeProvider {
            FakeProvider(id) { request, _ in
                // Answer after a few turns, differently per place, so that requests interleave.
                for _ in 0..<(ManyPlaces.number(request.place) * 7 % 5) { await Task.yield() }
                return ManyPlaces.report(id, request.place, offset: offset)
            }
        }
        let failingOnOddPlaces = FakeProvider("odd") { request, _ throws(ProviderError) in
            let number = ManyPlaces.number(request.place)
            guard number % 2 == 0 else { throw ProviderError(.unavailable, "no answer for place \(number)") }
            return ManyPlaces.report("odd", request.place, offset: 1)
        }
        let providers = [answering("a", offset: 0), answering("b", offset: 2), failingOnOddPlaces]
        var options = EngineOptions()
        options.maxConcurrentRequests = 4
        let engine = Engine(consensus: Consensus(), bindings: providers.map { ProviderBinding(provider: $0, transport: UnusedTransport()) }, options: options,
                            time: ManualClock(start: Fixture.midnightUTC))
        let events = await Self.collect(engine.run(ManyPlaces.requests()))

        #expect(events.count == 20 * 4)
        #expect(Set(events.map(\.request.id)) == Set((0..<20).map(RequestID.init)))
        for (index, place) in ManyPlaces.places.enumerated() {
            let mine = events.filter { $0.request.id == RequestID(index) }
            try #require(mine.count == 4, "request \(index) had \(mine.count) events")
            #expect(mine.allSatisfy { $0.request.place == place && $0.request.weather.kinds == [.current] })
            #expect(Set(mine.dropLast().compactMap(\.providerID)) == ["a", "b", "odd"])
            #expect(mine.dropLast().allSatisfy { $0.consensus == nil })
            for event in mine.dropLast() {
                if let report = event.report {
                    #expect(report.place == place)
                    let offset: Double = ["a": 0, "b": 2, "odd": 1][report.providerID] ?? -100
                    #expect(report.current?.temperatureC == Double(index) + offset)
                }
            }
            let odd = try #require(mine.first { $0.providerID == "odd" })
            if index % 2 == 0 {
                #expect(odd.report != nil)
            } else {
                #expect(odd.error?.message == "no answer for place \(index)")
            }
            let consensus = try #require(mine.last?.consensus, "request \(index) did not end with its consensus")
            #expect(consensus.place == place)
            #expect(consensus.providers == (index % 2 == 0 ? ["a", "b", "odd"] : ["a", "b"]))
            #expect(consensus.current?.values[.temperature]?.value == Double(index) + 1)
        }
    }

    @Test func byPlaceEachPlacesEventsComeInOneHandOverEndingWithItsConsensus() async throws {
        // "slow" answers place 0 last of all: its place's hand-over waits for it, the other places' do not.
        let gate = ParkingLot()
        let slow = FakeProvider("slow") { request, _ throws(ProviderError) in
            if ManyPlaces.number(request.place) == 0 {
                guard await gate.park() else { throw ProviderError(.cancelled, "cancelled", reason: .cancelled) }
            }
            return ManyPlaces.report("slow", request.place, offset: 2)
        }
        let failing = FakeProvider("failing") { request, _ throws(ProviderError) in
            throw ProviderError(.unavailable, "no answer for place \(ManyPlaces.number(request.place))")
        }
        let quick = FakeProvider("quick") { request, _ in ManyPlaces.report("quick", request.place, offset: 0) }
        var options = EngineOptions()
        options.maxConcurrentRequests = 4
        let engine = Engine(consensus: Consensus(), bindings: [slow, failing, quick].map { ProviderBinding(provider: $0, transport: UnusedTransport()) }, options: options,
                            time: ManualClock(start: Fixture.midnightUTC))
        let stream = engine.runByPlace({
            let (requests, continuation) = AsyncStream.makeStream(of: WeatherRequest.self)
            for request in ManyPlaces.requests() { continuation.yield(request) }
            continuation.finish()
            return requests
        }())
        var handOvers: [[EngineEvent<ConsensusResult>]] = []
        for await events in stream {
            handOvers.append(events)
            // Every other place is done once 19 have come: only then does place 0's slow provider answer.
            if handOvers.count == 19 { gate.open() }
        }

        #expect(handOvers.count == 20)
        #expect(handOvers.last?.first?.request.id == RequestID(0), "place 0, waiting for its slow provider, came last")
        for events in handOvers {
            try #require(events.count == 4)
            let id = events[0].request.id
            #expect(events.allSatisfy { $0.request.id == id })
            #expect(Set(events.dropLast().compactMap(\.providerID)) == ["slow", "failing", "quick"])
            #expect(events.dropLast().first { $0.providerID == "failing" }?.error?.message == "no answer for place \(id.rawValue)")
            let consensus = try #require(events.last?.consensus, "place \(id.rawValue) did not end with its consensus")
            #expect(consensus.providers == ["slow", "quick"])
            #expect(consensus.current?.values[.temperature]?.value == Double(id.rawValue) + 1)
        }
    }

    @Test func maxConcurrentRequestsBoundsThePlacesInFlight() async throws {
        let lot = ParkingLot()
        let counter = InFlightCounter()
        var options = EngineOptions()
        options.maxConcurrentRequests = 3
        let engine = Engine(consensus: Consensus(), bindings: ["a", "b"].map { ProviderBinding(provider: Self.parked($0, in: lot, counter: counter), transport: UnusedTransport()) },
                            options: options, time: ManualClock())
        let run = Task { await Self.collect(engine.run(ManyPlaces.requests())) }
        await eventually("three places are asked") { counter.calls("a") + counter.calls("b") == 6 }
        await letOthersRun()
        #expect(counter.places == 3)
        #expect(counter.calls("a") == 3 && counter.calls("b") == 3)
        lot.open()
        let events = await run.value
        #expect(events.count == 20 * 3)
        #expect(events.filter { $0.consensus != nil }.count == 20)
        #expect(counter.total == 40)
        #expect(counter.maxPlaces == 3)
    }

    @Test func withNoDeadlineAnswersArriveAndCancellingStillEndsTheRun() async throws {
        let lot = ParkingLot()
        let counter = InFlightCounter()
        var options = EngineOptions()
        options.timeoutSeconds = EngineOptions.noDeadlineSeconds
        options.maxConcurrentRequests = 2
        let engine = Engine(consensus: Consensus(), bindings: ["a", "b"].map { ProviderBinding(provider: Self.parked($0, in: lot, counter: counter), transport: UnusedTransport()) },
                            options: options, time: ManualClock())
        let run = Task { await Self.collect(engine.run(ManyPlaces.requests())) }
        await eventually("two places are asked") { counter.calls("a") + counter.calls("b") == 4 }
        run.cancel()
        let events = await run.value
        #expect(events.count < 20 * 3, "a cancelled run stops taking places")
        #expect(events.compactMap(\.error).allSatisfy { $0.code == .cancelled })

        let answered = Task { await Self.collect(engine.run(ManyPlaces.requests())) }
        lot.open()
        let all = await answered.value
        #expect(all.count == 20 * 3)
        #expect(all.allSatisfy { $0.error == nil })
    }

    @Test(arguments: [false, true])
    func maxConcurrentCallsPerProviderBoundsTheCallsToEachProvider(withStorage: Bool) async throws {
        let lot = ParkingLot()
        let counter = InFlightCounter()
        var options = EngineOptions()
        options.maxConcurrentCallsPerProvider = 2
        let cached = policy(currentTTL: 600)
        let engine = Engine(consensus: Consensus(), bindings: ["a", "b"].map {
            ProviderBinding(provider: Self.parked($0, in: lot, counter: counter), transport: UnusedTransport(), policy: cached)
        }, storage: withStorage ? EngineStorage(MemoryStorage()) : nil, options: options, time: ManualClock())
        let run = Task { await Self.collect(engine.run(ManyPlaces.requests())) }
        await eventually("two calls to each provider") { counter.calls("a") == 2 && counter.calls("b") == 2 }
        await letOthersRun()
        #expect(counter.calls("a") == 2 && counter.calls("b") == 2)
        lot.open()
        let events = await run.value
        #expect(events.count == 20 * 3)
        #expect(events.allSatisfy { $0.error == nil })
        #expect(counter.total == 40)
        #expect(counter.maxCalls("a") == 2 && counter.maxCalls("b") == 2)
        // More places than calls were in flight: the bound is per provider, not per place.
        #expect(options.maxConcurrentRequests > 2)
    }

    @Test func providerDaysArriveWhenDaysAreAskedFor() async throws {
        let ownDays = [20_785, 20_786].map { day -> DailyPoint in
            var point = DailyPoint(date: LocalDate(daysSinceEpoch: day))
            point.temperatureMaxC = Double(day - 20_780)
            return point
        }
        let withDays = FakeProvider("days", kinds: [.current, .hourly, .daily]) { request, _ in
            WeatherReport(providerID: "days", place: request.place, fetchedAt: Fixture.midnightUTC,
                          hourly: [Fixture.step(1) { $0.temperatureC = 1 }], daily: ownDays)
        }
        // Hourly from 21:00 UTC on Nov 27 to 21:00 UTC on Nov 29, the temperature counting the hours: Minsk's whole local
        // days of Nov 28 and 29.
        let steps = (0...48).map { hour in Fixture.step(Double(hour - 3)) { $0.temperatureC = Double(hour) } }
        let stepsOnly = FakeProvider("steps", kinds: [.current, .hourly]) { request, _ in
            WeatherReport(providerID: "steps", place: request.place, fetchedAt: Fixture.midnightUTC, hourly: steps)
        }
        let engine = Engine(consensus: Consensus(), bindings: [withDays, stepsOnly].map { ProviderBinding(provider: $0, transport: UnusedTransport()) },
                            time: ManualClock())
        let requests = [
            WeatherRequest(place: Fixture.place, kinds: [.current, .hourly, .daily]), WeatherRequest(place: Fixture.place, kinds: [.hourly, .daily]),
            WeatherRequest(place: Fixture.place, kinds: [.current, .hourly]),
        ]
        let events = await Self.collect(engine.run(requests))
        func days(_ provider: String, request: Int) -> [DailyPoint]? {
            events.first { $0.request.id == RequestID(request) && $0.providerID == provider }?.result?.days
        }
        for request in [0, 1] {
            #expect(days("days", request: request) == ownDays)
            let derived = try #require(days("steps", request: request))
            #expect(derived.map(\.date.description) == ["2026-11-28", "2026-11-29"])
            #expect(derived.allSatisfy { $0.isDerived })
            #expect(derived.map(\.temperatureMinC) == [0, 24])
            #expect(derived.map(\.temperatureMaxC) == [23, 47])
        }
        #expect(days("days", request: 2) == [])
        #expect(days("steps", request: 2) == [])
        // The report keeps its own days either way.
        #expect(events.first { $0.request.id == RequestID(2) && $0.providerID == "days" }?.report?.daily == ownDays)
    }

    /// Two requests for one place in one run: one fetches, the other waits for its answer and takes it from the cache.
    @Test func aPlaceAskedTwiceInOneRunIsFetchedOnce() async throws {
        let clock = ManualClock()
        let storage = MemoryStorage()
        let lot = ParkingLot()
        let counter = InFlightCounter()
        let engine = Engine(consensus: Consensus(), bindings: [ProviderBinding(provider: Self.parked("a", in: lot, counter: counter), transport: UnusedTransport(),
                                                       policy: policy(currentTTL: 600))],
                            storage: EngineStorage(storage), time: clock)
        let request = WeatherRequest(place: Fixture.place, kinds: [.current])
        let run = Task { await Self.collect(engine.run([request, request])) }
        // Two deadlines, the holder's renewal and the waiter's poll.
        await eventually("one fetches, the other waits") { clock.sleeperCount == 4 || counter.total == 2 }
        await letOthersRun()
        #expect(counter.total == 1)
        lot.open()
        await eventually("the answer is cached") { (try? await storage.entry(for: cacheKey(.current, provider: "a"))) != nil }
        clock.advance(by: 0.05)
        let events = await run.value
        #expect(counter.total == 1)
        let outcomes = events.compactMap(\.outcome).map(\.rawValue).sorted()
        #expect(outcomes == ["cached", "ok"])
        #expect(events.filter { $0.consensus != nil }.map(\.request.id).sorted() == [RequestID(0), RequestID(1)])
    }
}
