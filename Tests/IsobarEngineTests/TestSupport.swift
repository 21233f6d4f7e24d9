import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import Synchronization
import Testing

/// Shared fixtures for the engine tests.
enum Fixture {
    /// Minsk, UTC+3.
    static let place = Place(
        name: "Minsk", countryCode: "BY", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!,
        utcOffsetSeconds: 10_800, timeZoneIdentifier: "Europe/Minsk")

    /// 2026-11-28T00:00:00Z (day 20 785).
    static let midnightUTC = Date(timeIntervalSince1970: 1_795_824_000)
    static let day = LocalDate(daysSinceEpoch: 20_785)

    /// A forecast step ending `hours` after `start`.
    static func step(_ hours: Double, after start: Date = midnightUTC, period: Double = 1,
                     configure: (inout WeatherSample) -> Void = { _ in }) -> WeatherSample {
        var sample = WeatherSample(time: start.addingTimeInterval(hours * 3600), periodHours: period)
        configure(&sample)
        return sample
    }

    static func report(_ id: String, utcOffsetSeconds: Int? = nil, current: WeatherSample? = nil,
                       hourly: [WeatherSample] = [], daily: [DailyPoint] = []) -> WeatherReport {
        WeatherReport(providerID: id, place: place, fetchedAt: midnightUTC, utcOffsetSeconds: utcOffsetSeconds,
                      current: current, hourly: hourly, daily: daily)
    }
}

/// The difference of two directions along the circle, 0…180.
func circularDistance(_ a: Double, _ b: Double) -> Double {
    let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
    return min(difference, 360 - difference)
}

func isClose(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
}

/// A provider whose answer comes from a closure.
struct FakeProvider: WeatherProvider {
    let id: String
    let displayName: String
    let capabilities: ProviderCapabilities
    let cost: Double
    let answer: @Sendable (WeatherRequest, any Transport) async throws(ProviderError) -> WeatherReport
    /// True to stamp the current conditions with the engine's clock, so that they are never a stale observation.
    var observedNow = false

    init(_ id: String, kinds: Set<DataKind> = [.current, .hourly], cost: Double = 1,
         answer: @escaping @Sendable (WeatherRequest, any Transport) async throws(ProviderError) -> WeatherReport) {
        self.id = id
        self.displayName = id.uppercased()
        self.capabilities = ProviderCapabilities(
            kinds: kinds, horizonDays: 7, stepHours: 1, quantities: [.temperature], requiresAPIKey: false, geocoding: false)
        self.cost = cost
        self.answer = answer
    }

    /// A provider that answers at once with a current temperature.
    static func answering(_ id: String, temperature: Double, kinds: Set<DataKind> = [.current, .hourly]) -> FakeProvider {
        var provider = FakeProvider(id, kinds: kinds) { request, _ in
            var sample = WeatherSample(time: Fixture.midnightUTC, periodHours: 1)
            sample.temperatureC = temperature
            return WeatherReport(providerID: id, place: request.place, fetchedAt: Fixture.midnightUTC, current: sample)
        }
        provider.observedNow = true
        return provider
    }

    func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        var report = try await answer(request, context.transport)
        if observedNow { report.current?.time = context.time.now() }
        return report
    }

    func callCost(of request: WeatherRequest) -> Double { cost }
}

/// A transport that must never be used.
struct UnusedTransport: Transport {
    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        Issue.record("unexpected request to \(request.url)")
        throw ProviderError(.unavailable, "unused transport")
    }
}

/// Counts arrivals; lets tasks wait (by yielding, never sleeping) until a number of them have arrived.
actor Rendezvous {
    private(set) var arrived = 0

    func arrive() { arrived += 1 }

    /// Waits until `count` parties have arrived; false when that did not happen within `maxYields` turns.
    nonisolated func wait(for count: Int, maxYields: Int = 1_000_000) async -> Bool {
        for _ in 0..<maxYields {
            if await arrived >= count { return true }
            await Task.yield()
        }
        return await arrived >= count
    }
}

/// A one-shot gate that tasks can wait on; opening it releases every waiter, present and future.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Waits until opened or until the waiting task is cancelled.
    func waitOrCancel() async {
        await withTaskCancellationHandler {
            await wait()
        } onCancel: {
            open()
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A thread-safe flag.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }

    /// Waits (by yielding) until set; false when it was not set within `maxYields` turns.
    func wait(maxYields: Int = 1_000_000) async -> Bool {
        for _ in 0..<maxYields {
            if isSet { return true }
            await Task.yield()
        }
        return isSet
    }
}

extension EngineEvent {
    var result: ProviderResult? {
        if case .result(_, let result) = self { return result }
        return nil
    }

    var report: WeatherReport? { result?.report }

    var error: ProviderError? {
        if case .failure(_, _, let error) = self { return error }
        return nil
    }

    var consensus: Merged? {
        if case .consensus(_, let consensus) = self { return consensus }
        return nil
    }
}
