import IsobarConsensus
import IsobarCore

/// `isobar verify --format csv`: a header naming each column with its unit, then one row per score (the same members as
/// the `score` JSON lines), RFC 4180 quoting.
public struct VerifyCSV: Sendable {
    /// The scores.
    public let scores: VerifyScores
    /// Units of the errors.
    public let units: UnitSystem
    /// The place's label, when one was asked for.
    public let place: String?

    /// Creates a `VerifyCSV` from its parts.
    public init(scores: VerifyScores, units: UnitSystem, place: String?) {
        self.scores = scores
        self.units = units
        self.place = place
    }

    /// The header's column names: errors carry the field's unit (`mae_c`, `mae_f`), the Brier columns none.
    public var columns: [String] {
        let suffix = CSVRows.unitSuffix(units.symbol(for: scores.quantity))
        return ["place", "basis", "provider", "field", "lead", "pairs", "weight", "mae_" + suffix, "bias_" + suffix, "rmse_" + suffix,
                "hit_rate", "skill_vs_persistence", "brier", "brier_skill", "base_rate", "skill_basis", "coverage_80"]
    }

    /// The header and the rows.
    public var text: String {
        let dimension = scores.quantity.dimension
        func number(_ value: Double?) -> String? { value.map(CSVField.number) }
        func difference(_ value: Double?) -> String? { number(value.map { units.convertDifference($0, dimension) }) }
        func head(_ key: ScoreKey, _ pairs: Int, _ weight: Double) -> [String?] {
            [place, key.basis.id, key.provider, key.field, key.bucket.rawValue, String(pairs), CSVField.number(weight)]
        }
        let errorRows = scores.errors.sorted { $0.key < $1.key }.map { key, sums in
            head(key, sums.count, sums.weight) + [difference(sums.meanAbsoluteError), difference(sums.bias), difference(sums.rootMeanSquareError),
                                                  number(sums.hitRate), number(sums.skillAgainstPersistence), nil, nil, nil,
                                                  scores.skillBasis(key.provider).rawValue, number(scores.coverage[key.bucket].map(OutputNumber.round3))]
        }
        let brierRows = scores.brier.sorted { $0.key < $1.key }.map { key, sums in
            head(key, sums.count, sums.weight) + [nil, nil, nil, nil, nil, number(sums.brierScore), number(sums.brierSkill), number(sums.baseRate),
                                                  LearnedBasis.archive.rawValue, nil]
        }
        return CSVField.line(columns) + (errorRows + brierRows).map(CSVField.line).joined()
    }
}
