import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarStore
import IsobarTestKit
import OpenMeteo
import Synchronization

/// Runs a scenario end to end through the real engine: Open-Meteo-shaped answers from stub transports, a manual clock
/// advanced a day at a time, every answer and the true temperature archived in a `UserDataStore`, the record learned
/// from that archive before each judged day, and the consensus compared with the truth.
public enum Simulation {
    /// The simulated place.
    public static let place = Place(name: "Simulated", coordinate: Coordinate(latitude: 53.9, longitude: 27.57)!)

    /// Runs `scenario` with its archive in `directory` (which should be empty), returning what was measured.
    public static func run(_ scenario: SimulationScenario, settings: SimulationSettings, directory: String) async throws -> SimulationOutcome {
        let days = settings.historyDays + settings.evaluationDays
        let start = Date(timeIntervalSince1970: 20_786 * 86_400)
        let world = SimulatedWorld(scenario, days: days, forecastHours: settings.forecastHours, seed: settings.seed, start: start)
        let clock = ManualClock(start: start)
        let today = SimulatedDay()
        let bindings = scenario.sources.indices.map { index in
            let source = scenario.sources[index]
            let provider = OpenMeteoProvider(configuration: .init(id: source.id, baseURL: endpoint(of: source, in: scenario),
                                                                  forecastDays: max(1, settings.forecastHours / 24)))
            let transport = StubTransport { _ in
                let body = world.body(day: today.value, source: index)
                return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(body.utf8))
            }
            return ProviderBinding(provider: provider, transport: transport)
        }
        let families = Dictionary(bindings.flatMap(\.provider.sources).map { ($0.id, $0.family) }, uniquingKeysWith: { first, _ in first })
        let store = try await UserDataStore.open(directory: directory)
        var tally = Tally(scenario: scenario.name, sources: scenario.sources.map(\.id))
        for day in 0..<days {
            today.value = day
            if day > 0 { clock.advance(by: 86_400) }
            for hour in ((day - 1) * 24)..<(day * 24) where hour >= 0 {
                var sample = WeatherSample(time: world.time(hour), periodHours: 0)
                sample.temperatureC = world.truth[hour]
                try await store.archiveObservation(sample, source: "truth", station: "SIM", place: place)
            }
            let (reports, plain) = try await ask(bindings, clock: clock, learning: ConsensusLearning(biasCorrection: settings.biasCorrection))
            if day >= settings.historyDays {
                var learning = ConsensusLearning(biasCorrection: settings.biasCorrection)
                learning.record = try await store.skillRecord(near: place, now: clock.now(), settings: learning, families: families)
                let (_, learned) = try await ask(bindings, clock: clock, learning: learning)
                tally.add(plain: plain, learned: learned, world: world, day: day, hours: settings.forecastHours)
                if let skill = learning.record.fields[SkillKey(.temperature, .hours0to6)] {
                    tally.outcome.corrections = skill.corrections
                    tally.outcome.weights = skill.weights
                }
            }
            for report in reports { try await store.archive(report) }
        }
        return tally.finish()
    }

    /// The endpoint a source is served from: one per upstream (sources of one upstream share it, and so their family),
    /// never reached (the transports are stubs).
    static func endpoint(of source: SimulatedSource, in scenario: SimulationScenario) -> RequestURL {
        let key = source.upstream ?? source.id
        let index = scenario.sources.firstIndex { ($0.upstream ?? $0.id) == key } ?? 0
        return RequestURL(string: "http://127.0.0.1:\(9_001 + index)")!
    }

    /// Asks every source through an engine with `learning`, returning the answers and the consensus; `sources` is the
    /// number of answers expected (one per binding when nil: a binding of several models answers once per model).
    static func ask(_ bindings: [ProviderBinding], clock: ManualClock, learning: ConsensusLearning, sources: Int? = nil) async throws
        -> ([WeatherReport], ConsensusResult) {
        var options = EngineOptions()
        options.maxRetries = 0
        let engine = Engine(consensus: Consensus(learning: learning), bindings: bindings, options: options, time: clock)
        var reports: [WeatherReport] = []
        var consensus: ConsensusResult?
        for await event in engine.run(WeatherRequest(place: place, kinds: [.hourly])) {
            switch event {
            case .result(_, let result): reports.append(result.report)
            case .consensus(_, let result): consensus = result
            default: break
            }
        }
        guard let consensus, reports.count == sources ?? bindings.count else { throw SimulationError("not every simulated source answered") }
        return (reports, consensus)
    }
}

/// A simulation that could not run.
public struct SimulationError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    init(_ description: String) { self.description = description }
}

/// Sums of errors and hits over the judged hours.
struct Tally {
    var outcome: SimulationOutcome
    let sources: [String]
    var singles: [String: Double] = [:]
    var mean = 0.0, median = 0.0, plain = 0.0, learned = 0.0, learnedSigned = 0.0
    var covered = 0, spreadCovered = 0, recordBased = 0, learnedWeights = 0, count = 0
    var wild = 0, wildLeftOutEqual = 0, wildLeftOutLearned = 0

    init(scenario: String, sources: [String]) {
        outcome = SimulationOutcome(scenario: scenario)
        self.sources = sources
    }

    /// Adds the hours of one judged day's forecast.
    mutating func add(plain plainResult: ConsensusResult, learned learnedResult: ConsensusResult, world: SimulatedWorld, day: Int, hours: Int) {
        let byTime = Dictionary(learnedResult.hourly.map { ($0.time, $0) }, uniquingKeysWith: { first, _ in first })
        for plainHour in plainResult.hourly {
            let hour = Int((plainHour.time.timeIntervalSince(world.start) / 3_600).rounded())
            guard hour >= day * 24, hour < day * 24 + hours, let base = plainHour[.temperature],
                  let refined = byTime[plainHour.time]?[.temperature], base.inputs.count == sources.count else { continue }
            let truth = world.truth[hour]
            let values = base.inputs.map(\.value)
            for input in base.inputs { singles[input.provider, default: 0] += abs(input.value - truth) }
            for (index, input) in base.inputs.enumerated() where abs(input.value - truth) >= SimulationOutcome.wildError {
                wild += 1
                if input.isOutlier { wildLeftOutEqual += 1 }
                if refined.inputs.indices.contains(index), refined.inputs[index].isOutlier { wildLeftOutLearned += 1 }
            }
            mean += abs(values.reduce(0, +) / Double(values.count) - truth)
            median += abs(WeightedMedian.median(values.map { WeightedMedian.Entry($0) })! - truth)
            plain += abs(base.value - truth)
            learned += abs(refined.value - truth)
            learnedSigned += refined.value - truth
            if let interval = refined.learned {
                if interval.low <= truth && truth <= interval.high { covered += 1 }
                if interval.basis == .record { recordBased += 1 }
                if interval.weighting != .equalTooLittleHistory { learnedWeights += 1 }
            }
            if let interval = base.learned, interval.low <= truth && truth <= interval.high { spreadCovered += 1 }
            count += 1
        }
    }

    /// The means.
    func finish() -> SimulationOutcome {
        var result = outcome
        let n = Double(max(1, count))
        result.hours = count
        result.singles = singles.mapValues { $0 / n }
        result.naiveMean = mean / n
        result.plainMedian = median / n
        result.withoutHistory = plain / n
        result.learned = learned / n
        result.learnedBias = learnedSigned / n
        result.coverage = Double(covered) / n
        result.spreadCoverage = Double(spreadCovered) / n
        result.recordBasedShare = Double(recordBased) / n
        result.learnedShare = Double(learnedWeights) / n
        result.wildInputs = wild
        result.wildLeftOutEqual = Double(wildLeftOutEqual) / Double(max(1, wild))
        result.wildLeftOutLearned = Double(wildLeftOutLearned) / Double(max(1, wild))
        return result
    }
}

/// The simulated day the stub transports answer for, shared with them.
final class SimulatedDay: Sendable {
    private let day = Mutex(0)

    /// The day.
    var value: Int {
        get { day.withLock { $0 } }
        set { day.withLock { $0 = newValue } }
    }
}
