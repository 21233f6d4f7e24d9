import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarStore
import Synchronization

/// The demo history's folded ledgers by folder and declared families, folded once per process: the history never changes,
/// and folding it is most of what `--weights auto --demo` costs (many commands run in one process, as in the tests).
private let demoLedgers = Mutex<[String: DemoLedger]>([:])

/// The demo history folded: its ledger, its own "now" and its observations.
struct DemoLedger: Sendable {
    /// Every pair of the history, folded.
    let ledger: SkillLedger
    /// The history's latest observation, so that its pairs have not decayed away.
    let now: Date
    /// The history's observations.
    let observations: [ArchivedObservation]
}

extension CommandContext {
    /// The learning the consensus starts from: nil for configured weights; with `--weights auto` or `"weights": "auto"`,
    /// an empty record (filled per place by `learned(_:near:)`) with the bias correction asked for.
    func learningTemplate(_ options: CommandOptions, _ configuration: Configuration) throws(UsageError) -> ConsensusLearning? {
        let mode = options.weighting ?? configuration.weighting
        guard mode == .auto else {
            if options.biasCorrection { throw UsageError("--bias-correction needs learned weights: --weights auto, or \"weights\": \"auto\" in the configuration") }
            return nil
        }
        return ConsensusLearning(biasCorrection: options.biasCorrection || configuration.biasCorrection)
    }

    /// The setup with its learning's record read near `place` (every place when nil): from the stored skill record, after
    /// folding in what was archived since the last fold; with `--demo`, from the recorded demo history, never the user's
    /// archive. A missing or unreadable record is an empty one, which keeps the configured rule and says so.
    func learned(_ setup: WeatherSetup, near place: Place?) async -> WeatherSetup {
        guard var learning = setup.consensus.learning else { return setup }
        var setup = setup
        let families = SourceFamilies.of(setup.bindings)
        if setup.demo {
            do {
                let demo = try demoLedger(families: families)
                learning.record = demo.ledger.record(near: place.map(UserDataStore.placeKey), now: demo.now, settings: learning, families: families)
            } catch {
                warn("the demo's recorded history could not be read; weights are the configured ones: \(error)")
            }
            setup.consensus.learning = learning
            return setup
        }
        guard let directory = userDataDirectory() else { return setup }
        do {
            let store = try await UserDataStore.open(directory: directory)
            learning.record = try await store.skillRecord(near: place, now: time.now(), settings: learning, families: families)
        } catch {
            warn("the forecast archive could not be read; weights are the configured ones: \(error.message)")
        }
        setup.consensus.learning = learning
        return setup
    }

    /// The demo history folded with `families` declared, and its own "now" (its latest observation, so that its pairs have
    /// not decayed away); folded at the first call of the process.
    func demoLedger(families: [String: String]) throws(ConfigurationError) -> DemoLedger {
        let key = (DataDirectory.locate(environment: environment) ?? "") + "|"
            + families.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        if let folded = demoLedgers.withLock({ $0[key] }) { return folded }
        let history = try demoHistory()
        let folded = DemoLedger(ledger: SkillLedger.folding(steps: history.steps, observations: history.observations, families: families),
                                now: history.observations.map(\.observedAt).max() ?? time.now(), observations: history.observations)
        demoLedgers.withLock { $0[key] = folded }
        return folded
    }

    /// The recorded history shipped with the demo (`demo-history/` in the data folder).
    func demoHistory() throws(ConfigurationError) -> ArchiveExportReader {
        guard let data = DataDirectory.locate(environment: environment) else {
            throw ConfigurationError(DataDirectory.notFoundMessage(environment: environment))
        }
        return try ArchiveExportReader.read(directory: data + "/demo-history")
    }
}
