import FoundationEssentials
import IsobarSimulation

/// `isobar-bench simulate`: every simulation scenario over several seeds (ISOBAR_BENCH_SEEDS, default 10), 30 days of
/// history then 10 judged days each, printed as a table of each method's MAE (°C), the learned consensus's remaining mean
/// error (bias) and the 80 % intervals' coverage; the last row is the backfill path (30 days learned through `isobar learn`
/// from past runs and station reports served on loopback, nothing archived before the judged days).
func benchmarkSimulation() async throws {
    let seeds = ProcessInfo.processInfo.environment["ISOBAR_BENCH_SEEDS"].flatMap { UInt64($0) }.map { max(1, $0) } ?? 10
    print("simulate: seeds 1...\(seeds) per scenario, 30 days of history, 10 judged days of 48-hour forecasts each; MAE in °C")
    let header = ["scenario", "best single", "naive mean", "plain median", "no history", "learned", "÷ best", "÷ mean",
                  "bias", "cover 80 %", "cover (spread)"]
    var rows = [header]
    var firstDay: [Bool] = []
    let runs: [(SimulationScenario, (SimulationSettings, String) async throws -> SimulationOutcome)] =
        SimulationScenario.all.map { scenario in (scenario, { try await Simulation.run(scenario, settings: $0, directory: $1) }) }
        + [(BackfillSimulation.scenario, { try await BackfillSimulation.run(settings: $0, directory: $1) })]
    for (scenario, run) in runs {
        var outcomes: [SimulationOutcome] = []
        for seed in 1...seeds {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-bench-simulate-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: path) }
            outcomes.append(try await run(SimulationSettings(historyDays: 30, evaluationDays: 10, seed: seed), path))
        }
        if scenario.name == BackfillSimulation.scenario.name { firstDay = outcomes.map(\.learnedOnFirstDay) }
        func mean(_ value: (SimulationOutcome) -> Double) -> Double { outcomes.map(value).reduce(0, +) / Double(outcomes.count) }
        let best = mean(\.bestSingle)
        let learned = mean(\.learned)
        rows.append([scenario.name, format(best), format(mean(\.naiveMean)), format(mean(\.plainMedian)), format(mean(\.withoutHistory)),
                     format(learned), format(learned / best), format(learned / mean(\.naiveMean)), format(mean(\.learnedBias)),
                     format(mean(\.coverage) * 100) + " %", format(mean(\.spreadCoverage) * 100) + " %"])
    }
    let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    for row in rows {
        print("  " + row.indices.map { column in
            let cell = row[column]
            let pad = String(repeating: " ", count: widths[column] - cell.count)
            return column == 0 ? cell + pad : pad + cell
        }.joined(separator: "  "))
    }
    print("  backfill: learned on the first judged day in \(firstDay.filter { $0 }.count) of \(firstDay.count) seed(s)")
}
