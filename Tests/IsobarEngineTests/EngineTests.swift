import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Synchronization
import Testing

@Suite("Engine")
struct EngineTests {
    private let request = WeatherRequest(place: Fixture.place)

    private func engine(_ providers: [FakeProvider], transport: any Transport = UnusedTransport()) -> Engine<Consensus> {
        Engine(consensus: Consensus(), bindings: providers.map { ProviderBinding(provider: $0, transport: transport) }, time: ManualClock())
    }

    @Test func oneEventPerProviderThenOneConsensusLast() async throws {
        let events = await engine([
            .answering("a", temperature: 20), .answering("b", temperature: 22), .answering("c", temperature: 27),
        ]).collect(request)
        #expect(events.count == 4)
        #expect(Set(events.dropLast().compactMap(\.providerID)) == ["a", "b", "c"])
        #expect(events.dropLast().allSatisfy { $0.report != nil })
        #expect(events.filter { $0.consensus != nil }.count == 1)
        let consensus = try #require(events.last?.consensus)
        #expect(consensus.providers == ["a", "b", "c"])
        #expect(consensus.place == Fixture.place)
        let temperature = try #require(consensus.current?.values[.temperature])
        #expect(temperature.value == 22)
        #expect(temperature.spread == 7)
        #expect(temperature.contributors == ["a", "b", "c"])
    }

    @Test func noProvidersGivesOnlyAnEmptyConsensus() async throws {
        let events = await Engine(consensus: Consensus(), bindings: []).collect(request)
        #expect(events.count == 1)
        let consensus = try #require(events.first?.consensus)
        #expect(consensus.providers.isEmpty)
        #expect(consensus.current == nil)
        #expect(consensus.hourly.isEmpty)
        #expect(consensus.daily.isEmpty)
        #expect(consensus.zone == .named("Europe/Minsk"))
    }

    @Test func failingProviderDoesNotStopTheOthers() async throws {
        let transport = StubTransport(status: 401, body: #"{"cod":401,"message":"Invalid API key"}"#)
        let url = try #require(RequestURL(string: "https://api.example.com/weather"))
        let failing = FakeProvider("owm") { _, transport throws(ProviderError) in
            let response = try await transport.send(HTTPRequest(url: url))
            if let error = ProviderError.forStatus(response, provider: "OWM", serverMessage: "Invalid API key", now: Fixture.midnightUTC) {
                throw error
            }
            Issue.record("a 401 must map to an error")
            throw ProviderError(.badResponse(path: "$"), "unreachable")
        }
        let events = await engine([.answering("a", temperature: 20), failing, .answering("c", temperature: 24)], transport: transport)
            .collect(request)
        #expect(events.count == 4)
        let failure = try #require(events.first { $0.providerID == "owm" })
        let error = try #require(failure.error)
        #expect(error.code == .unauthorized)
        #expect(error.message == "OWM refused the API key (HTTP 401): Invalid API key")
        #expect(events.filter { $0.report != nil }.compactMap(\.providerID).sorted() == ["a", "c"])
        #expect(transport.requests.map(\.url) == [url])
        let consensus = try #require(events.last?.consensus)
        #expect(consensus.providers == ["a", "c"])
        #expect(consensus.current?.values[.temperature]?.value == 22)
    }

    @Test func everyProviderFailing() async throws {
        let events = await engine([
            FakeProvider("x") { _, _ throws(ProviderError) in throw ProviderError(.timeout, "x timed out") },
            FakeProvider("y") { _, _ throws(ProviderError) in throw ProviderError(.notFound, "y found nothing") },
        ]).collect(request)
        #expect(events.count == 3)
        let errors = Dictionary(uniqueKeysWithValues: events.compactMap { event in event.error.map { (event.providerID!, $0) } })
        #expect(errors["x"]?.code == .timeout)
        #expect(errors["x"]?.message == "x timed out")
        #expect(errors["y"]?.code == .notFound)
        #expect(try #require(events.last?.consensus).providers.isEmpty)
    }

    /// Each provider waits until both have started; run one after the other, the first would never see the second
    /// start and would give up (after a bounded number of turns) with a timeout failure.
    @Test func providersRunConcurrently() async throws {
        let rendezvous = Rendezvous()
        func waiting(_ id: String) -> FakeProvider {
            FakeProvider(id) { request, _ throws(ProviderError) in
                await rendezvous.arrive()
                guard await rendezvous.wait(for: 2) else {
                    throw ProviderError(.timeout, "\(id) never saw the other provider start")
                }
                return WeatherReport(providerID: id, place: request.place, fetchedAt: Fixture.midnightUTC)
            }
        }
        let events = await engine([waiting("first"), waiting("second")]).collect(request)
        #expect(events.count == 3)
        for event in events.dropLast() {
            #expect(event.report != nil, "\(String(describing: event.providerID)) failed: \(String(describing: event.error?.message))")
        }
        #expect(try #require(events.last?.consensus).providers == ["first", "second"])
        #expect(await rendezvous.arrived == 2)
    }

    @Test func providerLackingTheRequestedKindsIsUnsupportedAndNotAsked() async throws {
        let asked = Flag()
        let currentOnly = FakeProvider("now", kinds: [.current]) { request, _ in
            asked.set()
            return WeatherReport(providerID: "now", place: request.place, fetchedAt: Fixture.midnightUTC)
        }
        let events = await engine([currentOnly]).collect(WeatherRequest(place: Fixture.place, kinds: [.hourly, .daily]))
        #expect(events.count == 2)
        let error = try #require(events.first?.error)
        #expect(error.code == .unsupported)
        #expect(error.message.contains("NOW"))
        #expect(events.first?.providerID == "now")
        #expect(!asked.isSet)
    }

    @Test func providersAreAskedOnlyForWhatTheyCanGiveAndHourlyImpliesDaily() async throws {
        let seen = Mutex<[String: Set<DataKind>]>([:])
        func recording(_ id: String, kinds: Set<DataKind>) -> FakeProvider {
            FakeProvider(id, kinds: kinds) { request, _ in
                seen.withLock { $0[id] = request.kinds }
                return WeatherReport(providerID: id, place: request.place, fetchedAt: Fixture.midnightUTC)
            }
        }
        let providers = [
            recording("hourly", kinds: [.hourly]), recording("current", kinds: [.current]),
            recording("all", kinds: [.current, .hourly, .daily]),
        ]
        let events = await engine(providers).collect(WeatherRequest(place: Fixture.place, kinds: [.current, .daily]))
        #expect(events.count == 4)
        let kinds = seen.withLock { $0 }
        #expect(kinds["hourly"] == [.daily])
        #expect(kinds["current"] == [.current])
        #expect(kinds["all"] == [.current, .daily])
        #expect(events.allSatisfy { $0.error == nil })
    }

    /// The second binding answers first (the first waits until the test has seen the second's result), yet the
    /// consensus lists providers in binding order.
    @Test func consensusListsProvidersInBindingOrder() async throws {
        let gate = Gate()
        let slow = FakeProvider("slow") { request, _ in
            await gate.wait()
            return WeatherReport(providerID: "slow", place: request.place, fetchedAt: Fixture.midnightUTC)
        }
        let fast = FakeProvider.answering("fast", temperature: 1)
        var order: [String] = []
        var consensus: ConsensusResult?
        for await event in engine([slow, fast]).run(request) {
            if let id = event.providerID {
                order.append(id)
                if id == "fast" { gate.open() }
            }
            if let merged = event.consensus { consensus = merged }
        }
        #expect(order == ["fast", "slow"])
        #expect(try #require(consensus).providers == ["slow", "fast"])
    }

    @Test func cancellingTheConsumingTaskEndsTheStream() async throws {
        let started = Flag()
        let sawCancellation = Flag()
        let gate = Gate()
        let blocked = FakeProvider("blocked") { request, _ throws(ProviderError) in
            started.set()
            await gate.waitOrCancel()
            if Task.isCancelled {
                sawCancellation.set()
                throw ProviderError(.cancelled, "cancelled")
            }
            return WeatherReport(providerID: "blocked", place: request.place, fetchedAt: Fixture.midnightUTC)
        }
        let stream = engine([blocked]).run(request)
        let consumer = Task {
            var events: [EngineEvent<ConsensusResult>] = []
            for await event in stream { events.append(event) }
            return events
        }
        #expect(await started.wait(), "the provider never started")
        consumer.cancel()
        let events = await consumer.value
        #expect(events.isEmpty)
        #expect(await sawCancellation.wait(), "the provider was not cancelled")
        gate.open()
    }

    @Test func stoppingIterationEarlyCancelsTheRemainingProviders() async throws {
        let sawCancellation = Flag()
        let gate = Gate()
        let blocked = FakeProvider("blocked") { request, _ throws(ProviderError) in
            await gate.waitOrCancel()
            if Task.isCancelled { sawCancellation.set() }
            throw ProviderError(.cancelled, "cancelled")
        }
        var first: EngineEvent<ConsensusResult>?
        do {
            let stream = engine([.answering("quick", temperature: 3), blocked]).run(request)
            for await event in stream {
                first = event
                break
            }
        }
        #expect(first?.providerID == "quick")
        #expect(await sawCancellation.wait(), "the blocked provider was not cancelled")
        gate.open()
    }

    @Test func collectGathersTheSameEventsAsRun() async throws {
        // Live answers are stamped with the engine's clock: one that stands still makes the two runs' answers equal.
        let engine = Engine(consensus: Consensus(), bindings: [ProviderBinding(provider: FakeProvider.answering("a", temperature: 5), transport: UnusedTransport())],
                            time: ManualClock())
        let collected = await engine.collect(request)
        var streamed: [EngineEvent<ConsensusResult>] = []
        for await event in engine.run(request) { streamed.append(event) }
        #expect(collected.map(\.providerID) == streamed.map(\.providerID))
        #expect(collected.first?.report == streamed.first?.report)
        // Equal but for the instant lead times are counted from.
        #expect(collected.last?.consensus?.current == streamed.last?.consensus?.current)
        #expect(collected.last?.consensus?.providers == streamed.last?.consensus?.providers)
    }
}
