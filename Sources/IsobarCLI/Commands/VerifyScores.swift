import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarStore

/// The scores `isobar verify` shows: errors of one field (none for the precipitation chance alone) and, with
/// temperature (the default) or the precipitation chance, the Brier score of the chance of precipitation; each by
/// provider, lead bucket and basis (METAR reports, or a provider's "current" as a labelled proxy).
struct VerifyScores {
    /// The fields `--field` takes: those with a hit tolerance, and the precipitation chance (scored by Brier alone).
    static let fields = Quantity.allCases.map(\.rawValue).filter {
        Verification.Rules.hitTolerances[$0] != nil || $0 == Quantity.precipitationProbability.rawValue
    }

    /// The field checked.
    let quantity: Quantity
    /// Errors of the field, when it is not the precipitation chance.
    let errors: [ScoreKey: ErrorSums]
    /// Brier sums of the precipitation chance, when the field is temperature or the precipitation chance.
    let brier: [ScoreKey: BrierSums]
    /// Observations of the field, by basis.
    let observationCounts: [ObservationBasis: Int]
    /// Stations of each basis that is a source of reports (METAR), sorted.
    let stations: [ObservationBasis: [String]]

    /// Pairs the steps with the observations as of `now`.
    init(quantity: Quantity, steps: [ArchivedStep], observations: [ArchivedObservation], now: Date) {
        self.quantity = quantity
        let field = quantity.rawValue
        func key(_ latitude: Double, _ longitude: Double) -> String { "\(latitude),\(longitude)" }
        func forecasts(_ field: String) -> [Verification.Forecast] {
            steps.compactMap { step in
                step.values[field].map { Verification.Forecast(provider: step.provider, place: key(step.latitude, step.longitude),
                                                               issuedAt: step.issuedAt, validAt: step.validAt, value: $0) }
            }
        }
        let chance = Quantity.precipitationProbability.rawValue
        if field == chance {
            errors = [:]
        } else {
            let observed = observations.compactMap { observation in
                observation.values[field].map { Verification.Observation(place: key(observation.latitude, observation.longitude),
                                                                         time: observation.observedAt, value: $0, basis: Self.basis(of: observation)) }
            }
            errors = Verification.scores(field: field, forecasts: forecasts(field), observations: observed, now: now,
                                         rules: Verification.Rules(field: field))
        }
        if field == chance || quantity == .temperature {
            let occurrences = observations.compactMap { observation in
                Self.precipitationOccurred(observation).map {
                    Verification.Observation(place: key(observation.latitude, observation.longitude), time: observation.observedAt,
                                             value: $0 ? 1 : 0, basis: Self.basis(of: observation))
                }
            }
            brier = Verification.brierScores(field: chance, forecasts: forecasts(chance), observations: occurrences, now: now,
                                             rules: Verification.Rules(field: chance))
        } else {
            brier = [:]
        }
        var counts: [ObservationBasis: Int] = [:]
        var stations: [ObservationBasis: Set<String>] = [:]
        for observation in observations where observation.values[field] != nil || field == chance {
            let basis = Self.basis(of: observation)
            counts[basis, default: 0] += 1
            if !basis.isProxy { stations[basis, default: []].insert(observation.station) }
        }
        observationCounts = counts
        self.stations = stations.mapValues { $0.sorted() }
    }

    /// The basis of an archived observation: `proxy:<provider>` for a provider's current values, else its source.
    static func basis(of observation: ArchivedObservation) -> ObservationBasis {
        observation.source == ArchivedObservation.proxySource ? .proxy(provider: observation.station) : .observed(source: observation.source)
    }

    /// Whether precipitation was observed: any precipitation rate above zero or a condition of precipitation (METAR
    /// present weather); nil when the observation says neither.
    static func precipitationOccurred(_ observation: ArchivedObservation) -> Bool? {
        let rate = observation.values[Quantity.precipitationRate.rawValue]
        if let rate, rate > 0 { return true }
        if let id = observation.condition, let condition = Condition.allCases.first(where: { $0.id == id }) { return condition.isPrecipitation }
        return rate.map { _ in false }
    }

    /// Every basis with a score, real observations before proxies.
    var bases: [ObservationBasis] {
        Set(errors.keys.map(\.basis)).union(brier.keys.map(\.basis)).sorted { ($0.isProxy ? 1 : 0, $0) < ($1.isProxy ? 1 : 0, $1) }
    }

    /// The members of each `score` line, errors first, then the Brier scores, each in key order.
    func lines(units: UnitSystem) -> [[(String, JSONOutput)]] {
        func difference(_ value: Double?) -> JSONOutput { value.map { .number(units.convertDifference($0, quantity.dimension)) } ?? .null }
        func head(_ key: ScoreKey, pairs: Int, weight: Double) -> [(String, JSONOutput)] {
            [("provider", .string(key.provider)), ("field", .string(key.field)), ("lead", .string(key.bucket.rawValue)),
             ("basis", .string(key.basis.id)), ("pairs", .integer(pairs)), ("weight", .number(weight))]
        }
        let errorLines = errors.sorted { $0.key < $1.key }.map { key, sums in
            head(key, pairs: sums.count, weight: sums.weight) + [
                ("mae", difference(sums.meanAbsoluteError)), ("bias", difference(sums.bias)), ("rmse", difference(sums.rootMeanSquareError)),
                ("hit_rate", sums.hitRate.map(JSONOutput.number) ?? .null),
                ("skill_vs_persistence", sums.skillAgainstPersistence.map(JSONOutput.number) ?? .null),
                ("unit", .string(units.symbol(quantity.dimension))),
            ]
        }
        let brierLines = brier.sorted { $0.key < $1.key }.map { key, sums in
            head(key, pairs: sums.count, weight: sums.weight) + [
                ("mae", .null), ("bias", .null), ("rmse", .null), ("hit_rate", .null), ("skill_vs_persistence", .null),
                ("brier", sums.brierScore.map(JSONOutput.number) ?? .null), ("brier_skill", sums.brierSkill.map(JSONOutput.number) ?? .null),
                ("base_rate", sums.baseRate.map(JSONOutput.number) ?? .null), ("unit", .string("%")),
            ]
        }
        return errorLines + brierLines
    }
}
