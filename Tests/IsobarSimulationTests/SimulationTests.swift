import Foundation
import IsobarSimulation
import Testing

/// The consensus's promises, checked end to end in the simulation harness after 30 simulated days of history.
@Suite("Simulation")
struct SimulationTests {
    /// Runs one scenario with the test's (small) settings in a fresh archive.
    static func run(_ scenario: SimulationScenario, evaluationDays: Int = 6) async throws -> SimulationOutcome {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-simulation-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await Simulation.run(scenario, settings: SimulationSettings(historyDays: 30, evaluationDays: evaluationDays, seed: 7),
                                               directory: path)
        print("simulation \(scenario.name): \(outcome)")
        return outcome
    }

    /// Checks what every scenario promises: an interval that holds the truth 75–85 % of the time, and no history no worse
    /// than 5 % above a plain median (the v1 rule leaves outliers out of a median of independent sources, which costs a
    /// little when none is wild).
    static func expectCommon(_ outcome: SimulationOutcome) {
        #expect(outcome.hours >= 200)
        #expect(outcome.recordBasedShare == 1)
        #expect(outcome.coverage >= 0.75 && outcome.coverage <= 0.85, "80 % interval covered \(outcome.coverage)")
        #expect(outcome.withoutHistory <= 1.05 * outcome.plainMedian, "no history \(outcome.withoutHistory), median \(outcome.plainMedian)")
    }

    @Test func honestProvidersWithUnequalNoiseBeatTheBestOne() async throws {
        let outcome = try await Self.run(.honest)
        Self.expectCommon(outcome)
        #expect(outcome.learned <= 0.85 * outcome.bestSingle, "learned \(outcome.learned), best \(outcome.bestSingle)")
        #expect(outcome.weights["good"]! > outcome.weights["fair"]! && outcome.weights["fair"]! > outcome.weights["poor"]!)
    }

    @Test func aWarmBiasIsLearnedAndRemoved() async throws {
        let outcome = try await Self.run(.biased)
        Self.expectCommon(outcome)
        #expect(abs(outcome.learnedBias) <= 0.3, "consensus bias \(outcome.learnedBias)")
        #expect(abs(outcome.corrections["warm"]! - 3) <= 0.3, "learned correction \(outcome.corrections["warm"]!)")
        #expect(outcome.learned < outcome.withoutHistory)
    }

    /// Five Open-Meteo-typed entries at five endpoints are five families, so the outlier rule sees five sources.
    @Test func aSpikySourceNeitherHurtsNorLeads() async throws {
        let outcome = try await Self.run(.spiky)
        Self.expectCommon(outcome)
        #expect(outcome.learned <= outcome.bestSingle)
        #expect(outcome.weights["spiky"]! < outcome.weights["a"]!)
        #expect(outcome.wildInputs >= 5)
        #expect(outcome.wildLeftOutEqual >= 0.8, "equal weights left out \(outcome.wildLeftOutEqual) of the spikes")
        #expect(outcome.wildLeftOutLearned >= 0.8, "learned weights left out \(outcome.wildLeftOutLearned) of the spikes")
    }

    @Test func twoSourcesOneBiasedComeWithinATenthOfTheBetter() async throws {
        let outcome = try await Self.run(.twoSources)
        Self.expectCommon(outcome)
        #expect(outcome.learned <= 1.1 * outcome.singles["good"]!, "learned \(outcome.learned), good \(outcome.singles["good"]!)")
    }

    @Test func aCorrelatedPairCannotOutvoteTheIndependentSource() async throws {
        let outcome = try await Self.run(.correlated)
        Self.expectCommon(outcome)
        #expect(outcome.learned <= outcome.naiveMean, "learned \(outcome.learned), mean \(outcome.naiveMean)")
        #expect(outcome.weights["independent"]! > outcome.weights["copy-1"]! + 0.05)
    }

    @Test func aDriftingSourceLeavesNoBiasBehind() async throws {
        let outcome = try await Self.run(.drifting)
        Self.expectCommon(outcome)
        #expect(abs(outcome.learnedBias) <= 0.15, "consensus bias \(outcome.learnedBias)")
        #expect(outcome.learned < outcome.withoutHistory)
    }

    /// Judged over ten days, five before the break and five after (as the benchmark judges it): the first broken day is
    /// one no record can foresee, and over six judged days it would be a sixth of them.
    @Test func whenTheBestSourceBreaksTheRecentViewWinsAndTheIntervalStaysHonest() async throws {
        let outcome = try await Self.run(.breaking, evaluationDays: 10)
        Self.expectCommon(outcome)
        #expect(outcome.learned <= 0.9 * outcome.bestSingle, "learned \(outcome.learned), best \(outcome.bestSingle)")
        #expect(outcome.weights["best"]! < outcome.weights["b"]!, "weights \(outcome.weights)")
    }

    /// Thirty days of three models' past runs and the station's reports served on loopback, learned through `isobar learn`
    /// over HTTP, and nothing archived before: the first judged day is already learned, at every lead judged.
    @Test func learningFromPastRunsIsLearnedOnTheFirstDayAndBeatsTheBestModel() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-backfill-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await BackfillSimulation.run(settings: SimulationSettings(historyDays: 30, evaluationDays: 6, seed: 7), directory: path)
        print("simulation \(BackfillSimulation.scenario.name): \(outcome)")
        #expect(outcome.backfillPairs >= 3 * 7 * 24 * 25, "learn folded \(outcome.backfillPairs) pairs")
        #expect(outcome.learnedOnFirstDay)
        #expect(outcome.learnedShare == 1, "learned weights on \(outcome.learnedShare) of the judged values")
        Self.expectCommon(outcome)
        #expect(outcome.learned <= 0.85 * outcome.bestSingle, "learned \(outcome.learned), best \(outcome.bestSingle)")
        #expect(outcome.weights["open-meteo/ecmwf_ifs025"]! > outcome.weights["open-meteo/icon_seamless"]!)
    }
}
