import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarStore

extension IsobarCommandLine {
    /// `isobar verify [PLACE] [--field F]`: each provider's archived forecasts checked against archived observations, offline
    /// (with `--demo`, against the recorded history shipped with the demo, never the user's archive).
    func runVerify(_ parsed: Invocation) async throws -> ExitCode {
        let field = parsed.options.field
        guard let quantity = Quantity(rawValue: field), VerifyScores.fields.contains(field) else {
            throw UsageError("--field takes one of \(VerifyScores.fields.joined(separator: ", ")), not '\(field)'")
        }
        let configuration = try loadConfiguration(parsed)
        var place: Place?
        if let text = parsed.positionals.first {
            guard let found = try placeResolver().resolveOffline(text) else { throw PlaceError("unknown place '\(text)' (give a name from the gazetteer or coordinates such as 53.9,27.57)") }
            place = found.place
        }
        let scores = try await verificationScores(parsed, quantity: quantity, near: place)
        let units = parsed.options.units ?? configuration.units
        switch parsed.options.format {
        case .jsonl:
            for line in scores.lines(units: units) { output.write(self.line("score", line)) }
        case .csv:
            output.write(VerifyCSV(scores: scores, units: units, place: place?.fullLabel).text)
        case .table:
            output.write(VerifyTable(scores: scores, units: units, place: place?.fullLabel, demo: parsed.options.demo,
                                     width: width).text)
            if parsed.options.chart {
                let glyphs = ChartGlyphs.choose(ascii: parsed.options.ascii, environment: environment)
                let palette = ChartPalette(enabled: output.isTerminal && environment["NO_COLOR"] == nil)
                output.write("\n" + VerifyChart(scores: scores, units: units, width: width ?? 80, glyphs: glyphs, palette: palette).render())
            }
        }
        return .success
    }

    /// The scores verified: the stored skill record (folded up to date first) with the archive's observation counts, or
    /// with `--demo` the recorded demo history folded in memory; only those of `place` (the archive's rounded
    /// coordinates) when one is given.
    private func verificationScores(_ parsed: Invocation, quantity: Quantity, near place: Place?) async throws -> VerifyScores {
        let key = place.map(UserDataStore.placeKey)
        // The family rule of live commands, so that the record is folded alike whichever command folds it first.
        let families = await configuredFamilies(parsed)
        if parsed.options.demo {
            // Folded once per process, every place at once (a place's pairs fold alone, so its part is the same).
            let demo = try demoLedger(families: families)
            var observations = demo.observations
            if let place {
                let latitude = (place.coordinate.latitude * 100).rounded() / 100, longitude = (place.coordinate.longitude * 100).rounded() / 100
                observations = observations.filter { $0.latitude == latitude && $0.longitude == longitude }
            }
            return VerifyScores(quantity: quantity, ledger: demo.ledger, near: key, observations: observations, now: demo.now)
        }
        guard let directory = userDataDirectory() else { throw ConfigurationError("no folder for the forecast archive: set XDG_DATA_HOME or HOME") }
        let store = try await UserDataStore.open(directory: directory)
        try await store.foldSkill(families: families)
        return VerifyScores(quantity: quantity, ledger: try await store.skillLedger(near: place), near: key,
                            observations: try await store.archivedObservations(near: place), now: time.now())
    }
}
