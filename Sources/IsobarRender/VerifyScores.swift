import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// The scores `isobar verify` shows: errors of one field (none for the precipitation chance alone) and, with
/// temperature (the default) or the precipitation chance, the Brier score of the chance of precipitation; each by
/// provider, lead bucket and basis (METAR reports, or a provider's "current" as a labelled proxy).
public struct VerifyScores: Sendable {
    /// The fields `--field` takes: those with a hit tolerance, and the precipitation chance (scored by Brier alone).
    public static let fields = Quantity.allCases.filter { $0.spec.hitTolerance != nil || $0 == .precipitationProbability }.map(\.rawValue)

    /// The field checked.
    public let quantity: Quantity
    /// Errors of the field, when it is not the precipitation chance.
    public let errors: [ScoreKey: ErrorSums]
    /// Brier sums of the precipitation chance, when the field is temperature or the precipitation chance.
    public let brier: [ScoreKey: BrierSums]
    /// Observations of the field, by basis.
    public let observationCounts: [ObservationBasis: Int]
    /// Stations of each basis that is a source of reports (METAR), sorted.
    public let stations: [ObservationBasis: [String]]
    /// The share of truths the learned consensus's 80 % interval held (out of sample), by lead bucket.
    public let coverage: [LeadBucket: Double]
    /// The sources whose record came mostly from past forecasts (`isobar learn`), the others' from the archive.
    public let backfilled: Set<String>

    /// Pairs the steps with the observations as of `now`, folding them into a record held in memory.
    public init(quantity: Quantity, steps: [ArchivedStep], observations: [ArchivedObservation], now: Date) {
        self.init(quantity: quantity, ledger: SkillLedger.folding(steps: steps, observations: observations), near: nil,
                  observations: observations, now: now)
    }

    /// The scores of the skill record `ledger` near `place` (every place when nil) as of `now`; `observations` give the
    /// counts and stations shown beside them.
    public init(quantity: Quantity, ledger: SkillLedger, near place: String?, observations: [ArchivedObservation], now: Date) {
        self.quantity = quantity
        let field = quantity.rawValue
        let chance = Quantity.precipitationProbability.rawValue
        errors = field == chance ? [:] : ledger.errorScores(field: field, near: place, now: now)
        brier = field == chance || quantity == .temperature ? ledger.brierScores(field: chance, near: place, now: now) : [:]
        coverage = field == chance ? [:] : ledger.intervalCoverage(field: field, near: place, now: now)
        backfilled = ledger.backfilledSources(field: field, near: place, now: now)
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
    public static func basis(of observation: ArchivedObservation) -> ObservationBasis {
        ObservationBasis(id: observation.basis)
    }

    /// Whether precipitation was observed (see `ArchivedObservation.precipitationOccurred`).
    public static func precipitationOccurred(_ observation: ArchivedObservation) -> Bool? { observation.precipitationOccurred }

    /// Every basis with a score, real observations before proxies.
    public var bases: [ObservationBasis] {
        Set(errors.keys.map(\.basis)).union(brier.keys.map(\.basis)).sorted { ($0.isProxy ? 1 : 0, $0) < ($1.isProxy ? 1 : 0, $1) }
    }

    /// Where a provider's errors were learned from: past forecasts (`isobar learn`) when they made most of its record.
    public func skillBasis(_ provider: String) -> LearnedBasis { backfilled.contains(provider) ? .backfill : .archive }

    /// The members of each `score` line, errors first, then the Brier scores, each in key order.
    public func lines(units: UnitSystem) -> [[(String, JSONOutput)]] {
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
                ("unit", .string(units.symbol(for: quantity))),
                ("skill_basis", .string(skillBasis(key.provider).rawValue)), ("coverage_80", coverage[key.bucket].map { .number(OutputNumber.round3($0)) } ?? .null),
            ]
        }
        let brierLines = brier.sorted { $0.key < $1.key }.map { key, sums in
            head(key, pairs: sums.count, weight: sums.weight) + [
                ("mae", .null), ("bias", .null), ("rmse", .null), ("hit_rate", .null), ("skill_vs_persistence", .null),
                ("brier", sums.brierScore.map(JSONOutput.number) ?? .null), ("brier_skill", sums.brierSkill.map(JSONOutput.number) ?? .null),
                ("base_rate", sums.baseRate.map(JSONOutput.number) ?? .null), ("unit", .string("%")),
                ("skill_basis", .string(LearnedBasis.archive.rawValue)), ("coverage_80", .null),
            ]
        }
        return errorLines + brierLines
    }
}
