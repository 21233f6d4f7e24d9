import IsobarConsensus
import IsobarCore

/// The verification tables: for each basis (METAR reports first, then each provider's "current" used as a proxy, kept
/// apart), a row per provider and a column per lead bucket, each cell the MAE and the number of pairs, then the same for
/// the Brier score of the precipitation chance; the best of each column is marked with `*` (not by colour alone).
public struct VerifyTable: Sendable {
    /// The scores.
    public let scores: VerifyScores
    /// Units of the errors.
    public let units: UnitSystem
    /// The place's label, when one was asked for.
    public let place: String?
    /// True for the recorded demo history.
    public let demo: Bool
    /// The width the tables and text must fit, in terminal cells (nil: no limit).
    public var width: Int? = nil

    /// Creates a `VerifyTable` from its parts.
    public init(scores: VerifyScores, units: UnitSystem, place: String?, demo: Bool, width: Int? = nil) {
        self.scores = scores
        self.units = units
        self.place = place
        self.demo = demo
        self.width = width
    }

    /// The tables as text.
    public var text: String {
        let quantity = scores.quantity
        let unit = units.symbol(for: quantity)
        let observed = scores.observationCounts.values.reduce(0, +)
        var text = "Forecast verification: \(quantity.rawValue) (\(unit))\(place.map { " at \($0)" } ?? ""), "
            + "\(observed) observation(s)\(demo ? " in the recorded demo history" : "")\n"
        guard !scores.bases.isEmpty else {
            return text + "No forecast has an observation to be checked against yet: live commands archive both "
                + "(see isobar archive); check again once some forecast hours have passed.\n"
        }
        for basis in scores.bases {
            text += "\n" + heading(basis) + "\n"
            let errors = scores.errors.filter { $0.key.basis == basis }
            if !errors.isEmpty {
                text += Self.grid(errors.mapValues { sums in sums.meanAbsoluteError.map { (units.convertDifference($0, quantity.dimension), sums.count) } },
                                  decimals: 1, width: width)
                text += "Mean absolute error in \(unit) (pairs of forecast and observation); * the best at that lead time.\n"
            }
            let brier = scores.brier.filter { $0.key.basis == basis }
            if !brier.isEmpty {
                if !errors.isEmpty { text += "\n" }
                text += Self.grid(brier.mapValues { sums in sums.brierScore.map { ($0, sums.count) } }, decimals: 2, width: width)
                text += "Brier score of the precipitation chance (0 is perfect; always saying 50 % scores 0.25); * the best at that lead time.\n"
            }
        }
        if !scores.coverage.isEmpty {
            let cells = scores.coverage.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \(TableRenderer.fixed($0.value * 100, decimals: 0)) %" }
            text += "\nThe learned consensus's 80 % interval held the truth (scored out of sample): \(cells.joined(separator: ", ")).\n"
        }
        if !scores.backfilled.isEmpty {
            text += "Learned from past forecasts (isobar learn, basis backfill): \(scores.backfilled.sorted().joined(separator: ", ")); "
                + "the others from the archive.\n"
        }
        text += "\nBias, RMSE, hit rate, skill against persistence and the Brier skill: --json or --format csv.\n"
        return TextWrap.fit(text, width: width)
    }

    /// What a basis is, in words.
    private func heading(_ basis: ObservationBasis) -> String {
        switch basis {
        case .observed(let source):
            let stations = scores.stations[basis] ?? []
            let named = stations.isEmpty ? "" : " (\(stations.prefix(3).joined(separator: ", "))\(stations.count > 3 ? ", …" : ""))"
            return "Against \(source == "metar" ? "METAR reports" : source + " observations")\(named), \(scores.observationCounts[basis] ?? 0) observation(s):"
        case .proxy(let provider):
            return "Against \(provider)'s own current values, a proxy where no station reports (not an observation), "
                + "\(scores.observationCounts[basis] ?? 0) of them:"
        }
    }

    /// A row per provider, a column per lead bucket: each cell the value (lower is better) and its pairs, the lowest of
    /// each column marked with `*` when several providers have one. Fitted to `width` as the other tables are: the pair
    /// counts go first, then the provider's part of a source id (`ecmwf_ifs025` for `open-meteo/ecmwf_ifs025`), then long
    /// ids are cut; lead times are never left out, the table goes in parts instead.
    public static func grid(_ cells: [ScoreKey: (value: Double, pairs: Int)?], decimals: Int, width: Int? = nil) -> String {
        let providers = Set(cells.keys.map(\.provider)).sorted()
        let buckets = LeadBucket.allCases.filter { bucket in cells.keys.contains { $0.bucket == bucket } }
        func cell(_ provider: String, _ bucket: LeadBucket) -> (value: Double, pairs: Int)? {
            cells.first { $0.key.provider == provider && $0.key.bucket == bucket }?.value
        }
        var table = TextTable(header: ["provider"] + buckets.map(\.rawValue))
        for provider in providers {
            table.rows.append([provider] + buckets.map { bucket in
                guard let (value, pairs) = cell(provider, bucket) else { return "–" }
                let scored = providers.compactMap { cell($0, bucket)?.value }
                let best = scored.count > 1 && value <= (scored.min() ?? value)
                return (best ? "*" : "") + "\(TableRenderer.fixed(value, decimals: decimals)) (\(pairs))"
            })
        }
        let leads = Array(table.header.indices.dropFirst())
        table.uncut = Set(leads)
        let sourceParts = shortSourceIDs(providers)
        table.narrowing = [
            .cells(leads, loses: "pair counts") { String($0.prefix { $0 != " " }) },
            .cells([0]) { sourceParts[$0] ?? $0 },
            .truncate(0, minimum: 10),
        ] + leads.reversed().map { .drop($0) }
        let indent = "  "
        let inner = width.map { max(TerminalWidth.minimum, $0 - indent.count) }
        var text = table.render(width: inner)
        // The note under a narrowed table names the terminal's width, not the width left beside the indent.
        if let width, let inner { text = text.replacing("To fit \(inner) columns:", with: "To fit \(width) columns:") }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { $0.isEmpty ? "\n" : indent + $0 + "\n" }.joined()
    }

    /// Each source id with a `/` as its part after the last `/`, when no two ids would then be the same.
    private static func shortSourceIDs(_ ids: [String]) -> [String: String] {
        let short = ids.map { id in id.split(separator: "/").last.map(String.init) ?? id }
        guard Set(short).count == ids.count else { return [:] }
        return Dictionary(uniqueKeysWithValues: zip(ids, short))
    }
}
