import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarStore

extension IsobarCommandLine {
    /// `isobar verify [PLACE] [--field F]`: each provider's archived forecasts checked against archived observations, offline.
    func runVerify(_ parsed: Invocation) async throws -> ExitCode {
        let field = parsed.options.field
        guard let quantity = Quantity(rawValue: field), Verification.Rules.hitTolerances[field] != nil else {
            let fields = Quantity.allCases.map(\.rawValue).filter { Verification.Rules.hitTolerances[$0] != nil }
            throw UsageError("--field takes one of \(fields.joined(separator: ", ")), not '\(field)'")
        }
        let configuration = try loadConfiguration(parsed)
        var place: Place?
        if let text = parsed.positionals.first {
            guard let found = try placeResolver().resolveOffline(text) else { throw PlaceError("unknown place '\(text)' (give a name from the gazetteer or coordinates such as 53.9,27.57)") }
            place = found.place
        }
        guard let directory = userDataDirectory() else { throw ConfigurationError("no folder for the forecast archive: set XDG_DATA_HOME or HOME") }
        let store = try await UserDataStore.open(directory: directory)
        let steps = try await store.archivedSteps(near: place)
        let observed = try await store.archivedObservations(near: place)
        func key(_ latitude: Double, _ longitude: Double) -> String { "\(latitude),\(longitude)" }
        let forecasts = steps.compactMap { step in
            step.values[field].map { Verification.Forecast(provider: step.provider, place: key(step.latitude, step.longitude),
                                                           issuedAt: step.issuedAt, validAt: step.validAt, value: $0) }
        }
        let observations = observed.compactMap { observation in
            observation.values[field].map { Verification.Observation(place: key(observation.latitude, observation.longitude),
                                                                     time: observation.observedAt, value: $0) }
        }
        let scores = Verification.scores(field: field, forecasts: forecasts, observations: observations, now: time.now(),
                                         rules: Verification.Rules(field: field))
        let units = parsed.options.units ?? configuration.units
        if parsed.options.format == .jsonl {
            for (key, sums) in scores.sorted(by: { $0.key < $1.key }) { output.write(scoreLine(key, sums, quantity, units)) }
        } else {
            output.write(VerifyTable(scores: scores, quantity: quantity, units: units, observations: observations.count,
                                     place: place?.fullLabel).text)
        }
        return .success
    }

    private func scoreLine(_ key: ScoreKey, _ sums: ErrorSums, _ quantity: Quantity, _ units: UnitSystem) -> String {
        func difference(_ value: Double?) -> JSONOutput { value.map { .number(units.convertDifference($0, quantity.dimension)) } ?? .null }
        return line("score", [
            ("provider", .string(key.provider)), ("field", .string(key.field)), ("lead", .string(key.bucket.rawValue)),
            ("pairs", .integer(sums.count)), ("weight", .number(sums.weight)),
            ("mae", difference(sums.meanAbsoluteError)), ("bias", difference(sums.bias)), ("rmse", difference(sums.rootMeanSquareError)),
            ("hit_rate", sums.hitRate.map(JSONOutput.number) ?? .null),
            ("skill_vs_persistence", sums.skillAgainstPersistence.map(JSONOutput.number) ?? .null),
            ("unit", .string(units.symbol(quantity.dimension))),
        ])
    }
}

/// The verification table: a row per provider, a column per lead bucket, each cell the MAE and the number of pairs; the
/// best MAE of each column is marked with `*` (not by colour alone).
struct VerifyTable {
    let scores: [ScoreKey: ErrorSums]
    let quantity: Quantity
    let units: UnitSystem
    let observations: Int
    let place: String?

    var text: String {
        let unit = units.symbol(quantity.dimension)
        var text = "Forecast verification: \(quantity.rawValue) (\(unit))\(place.map { " at \($0)" } ?? ""), "
            + "\(observations) observation(s)\n"
        guard !scores.isEmpty else {
            return text + "No forecast has an observation to be checked against yet: live commands archive both "
                + "(see isobar archive); check again once some forecast hours have passed.\n"
        }
        let providers = Set(scores.keys.map(\.provider)).sorted()
        let buckets = LeadBucket.allCases.filter { bucket in scores.keys.contains { $0.bucket == bucket } }
        var best: [LeadBucket: String] = [:]
        for bucket in buckets {
            best[bucket] = providers.min { (mae($0, bucket) ?? .infinity) < (mae($1, bucket) ?? .infinity) }
        }
        var rows = [["provider"] + buckets.map(\.rawValue)]
        for provider in providers {
            rows.append([provider] + buckets.map { bucket in
                guard let sums = scores[ScoreKey(provider: provider, field: quantity.rawValue, bucket: bucket)],
                      let error = sums.meanAbsoluteError else { return "–" }
                let value = TableRenderer.fixed(units.convertDifference(error, quantity.dimension), decimals: 1)
                return (best[bucket] == provider && providers.count > 1 ? "*" : "") + "\(value) (\(sums.count))"
            })
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            text += "  " + row.enumerated().map { column, cell in
                column == 0 ? cell + String(repeating: " ", count: widths[0] - cell.count)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ") + "\n"
        }
        text += "Mean absolute error in \(unit) (pairs of forecast and observation); * the best at that lead time. "
            + "Bias, RMSE, hit rate and skill against persistence: --json.\n"
        return text
    }

    private func mae(_ provider: String, _ bucket: LeadBucket) -> Double? {
        scores[ScoreKey(provider: provider, field: quantity.rawValue, bucket: bucket)]?.meanAbsoluteError
    }
}
