import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarStore

extension IsobarCommandLine {
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

    /// The setup with its learning's record read from the forecast archive near `place` (every place when nil); a
    /// missing or unreadable archive is an empty record, which keeps the configured rule and says so.
    func learned(_ setup: WeatherSetup, near place: Place?) async -> WeatherSetup {
        guard var learning = setup.options.learning, let directory = userDataDirectory() else { return setup }
        var setup = setup
        let families = Dictionary(setup.bindings.flatMap(\.provider.sources).map { ($0.id, $0.family) },
                                  uniquingKeysWith: { first, _ in first })
        do {
            let store = try await UserDataStore.open(directory: directory)
            learning.record = try await store.skillRecord(near: place, now: time.now(), settings: learning, families: families)
        } catch {
            warn("the forecast archive could not be read; weights are the configured ones: \(error.message)")
        }
        setup.options.learning = learning
        return setup
    }
}
