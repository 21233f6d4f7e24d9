import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRender
import IsobarStore

/// `isobar verify [PLACE] [--field F]`: each provider's archived forecasts checked against archived observations, offline
struct VerifyCommand: IsobarCommand {
    typealias Own = VerifyOptions
    static let spec = Commands.verify
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Runs the command and returns its exit code.
    /// (with `--demo`, against the recorded history shipped with the demo, never the user's archive).
    func run() async throws -> ExitCode {
        let field = own.field
        guard let quantity = Quantity(rawValue: field), VerifyScores.fields.contains(field) else {
            throw UsageError("--field takes one of \(VerifyScores.fields.joined(separator: ", ")), not '\(field)'")
        }
        let configuration = try context.loadConfiguration(invocation)
        var place: Place?
        if let text = invocation.positionals.first {
            guard let found = try context.placeResolver().resolveOffline(text) else { throw PlaceError("unknown place '\(text)' (give a name from the gazetteer or coordinates such as 53.9,27.57)") }
            place = found.place
        }
        let scores = try await verificationScores(invocation, quantity: quantity, near: place)
        let units = invocation.options.units ?? configuration.units
        let chart = invocation.options.chart
            ? (glyphs: ChartGlyphs.choose(ascii: invocation.options.ascii, environment: context.environment),
               palette: ChartPalette(enabled: context.output.isTerminal && context.environment["NO_COLOR"] == nil))
            : nil
        context.write(VerifyReport(scores: scores, units: units, place: place?.fullLabel, demo: invocation.options.demo, chart: chart),
                      as: invocation.options.format)
        return .success
    }

    /// The scores verified: the stored skill record (folded up to date first) with the archive's observation counts, or
    /// with `--demo` the recorded demo history folded in memory; only those of `place` (the archive's rounded
    /// coordinates) when one is given.
    private func verificationScores(_ invocation: Invocation, quantity: Quantity, near place: Place?) async throws -> VerifyScores {
        let key = place.map(UserDataStore.placeKey)
        // The family rule of live commands, so that the record is folded alike whichever command folds it first.
        let families = await context.configuredFamilies(invocation)
        if invocation.options.demo {
            // Folded once per process, every place at once (a place's pairs fold alone, so its part is the same).
            let demo = try context.demoLedger(families: families)
            var observations = demo.observations
            if let place {
                let latitude = (place.coordinate.latitude * 100).rounded() / 100, longitude = (place.coordinate.longitude * 100).rounded() / 100
                observations = observations.filter { $0.latitude == latitude && $0.longitude == longitude }
            }
            return VerifyScores(quantity: quantity, ledger: demo.ledger, near: key, observations: observations, now: demo.now)
        }
        guard let directory = context.userDataDirectory() else { throw ConfigurationError("no folder for the forecast archive: set XDG_DATA_HOME or HOME") }
        let store = try await UserDataStore.open(directory: directory)
        try await store.foldSkill(families: families)
        return VerifyScores(quantity: quantity, ledger: try await store.skillLedger(near: place), near: key,
                            observations: try await store.archivedObservations(near: place), now: context.time.now())
    }
}
