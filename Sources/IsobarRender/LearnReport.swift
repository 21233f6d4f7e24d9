import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// What `isobar learn` says: what was folded (the pairs, the station, the sources), where the answers came from (live,
/// the cache, a recording), and what the record now knows of each source per lead time (pairs, bias, error, weight) — as
/// a table, as sentences, or as JSON lines (`learned`, then one `learned_skill` per source and lead time).
public struct LearnReport: CommandReport {
    /// What one source is learned to be at one lead time.
    public struct Skill: Sendable, Equatable {
        /// The source's id (`open-meteo/ecmwf_ifs025`).
        public var provider: String
        /// The lead time bucket.
        public var lead: LeadBucket
        /// Where the source's record came from.
        public var basis: LearnedBasis
        /// The decayed number of pairs, rounded.
        public var pairs: Int
        /// Mean error, forecast − observed, °C.
        public var bias: Double
        /// Root mean square error, °C.
        public var rmse: Double
        /// The source's share of the learned merge at that lead time (0 to 1).
        public var weight: Double

        /// Creates a skill row.
        public init(provider: String, lead: LeadBucket, basis: LearnedBasis, pairs: Int, bias: Double, rmse: Double, weight: Double) {
            self.provider = provider
            self.lead = lead
            self.basis = basis
            self.pairs = pairs
            self.bias = bias
            self.rmse = rmse
            self.weight = weight
        }
    }

    /// What one run folded and where its answers came from.
    public struct Summary: Sendable {
        /// The place learned for.
        public var place: Place
        /// The days back asked.
        public var days: Int
        /// The station whose reports stood for the truth.
        public var station: String
        /// The reports read.
        public var observations: Int
        /// Past forecasts folded.
        public var pairs: Int
        /// Past forecasts left out.
        public var skipped: Int
        /// The sources learned from.
        public var sources: [String]
        /// The sources that publish no past forecasts.
        public var archiveOnly: [String]
        /// Live, or replayed from recordings made at an instant.
        public var source: DataSource
        /// The requests answered from the cache (nobody asked).
        public var fromCache: Int
        /// True when learned into a throwaway record (`--demo`), the user's untouched.
        public var throwaway: Bool

        /// Creates a summary.
        public init(place: Place, days: Int, station: String, observations: Int, pairs: Int, skipped: Int, sources: [String],
                    archiveOnly: [String], source: DataSource, fromCache: Int, throwaway: Bool) {
            self.place = place
            self.days = days
            self.station = station
            self.observations = observations
            self.pairs = pairs
            self.skipped = skipped
            self.sources = sources
            self.archiveOnly = archiveOnly
            self.source = source
            self.fromCache = fromCache
            self.throwaway = throwaway
        }
    }

    /// What was folded.
    public let summary: Summary
    /// What the record knows of each source learned from, by source then lead time.
    public let skills: [Skill]
    /// The units the bias and error are shown in.
    public let units: UnitSystem
    /// True for sentences (`--plain`) instead of the table.
    public let plain: Bool

    /// The report of one run.
    public init(summary: Summary, skills: [Skill], units: UnitSystem, plain: Bool) {
        self.summary = summary
        self.skills = skills
        self.units = units
        self.plain = plain
    }

    /// The summary, then the table of what was learned (or its sentences with `plain`).
    public func text(width: Int?) -> String {
        var text = opening()
        guard !skills.isEmpty else { return plain ? text : TextWrap.fit(text, width: width) }
        if plain {
            text += skills.map(sentence).joined()
            return text
        }
        text = TextWrap.fit(text, width: width)
        let unit = units.symbol(for: .temperature)
        text += "\n" + TextWrap.fit("What the record now knows of each source's temperature (\(unit)), by lead time:\n", width: width)
        var table = TextTable(header: ["source", "lead", "basis", "pairs", "bias", "rmse", "weight"], leftAligned: [0, 1, 2])
        for skill in skills {
            table.rows.append([skill.provider, skill.lead.rawValue, skill.basis.rawValue, String(skill.pairs),
                               Self.signed(units.convertDifference(skill.bias, .temperature)),
                               TableRenderer.fixed(units.convertDifference(skill.rmse, .temperature), decimals: 1),
                               TableRenderer.fixed(skill.weight * 100, decimals: 0) + " %"])
        }
        let ids = skills.map(\.provider)
        let short = ids.map { id in id.split(separator: "/").last.map(String.init) ?? id }
        let parts = Set(short).count == Set(ids).count ? Dictionary(zip(ids, short), uniquingKeysWith: { first, _ in first }) : [:]
        table.uncut = [1, 3, 4, 5, 6]
        table.narrowing = [.cells([0]) { parts[$0] ?? $0 }, .drop(2), .truncate(0, minimum: 10)]
        let indent = "  "
        let inner = width.map { max(TerminalWidth.minimum, $0 - indent.count) }
        var rendered = table.render(width: inner)
        if let width, let inner { rendered = rendered.replacing("To fit \(inner) columns:", with: "To fit \(width) columns:") }
        text += rendered.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { $0.isEmpty ? "\n" : indent + $0 + "\n" }.joined()
        text += TextWrap.fit("Bias: forecast minus observed; rmse: root mean square error; weight: the source's share of the learned "
            + "consensus at that lead time (--weights auto).\n", width: width)
        return text
    }

    /// The `learned` line, then one `learned_skill` line per source and lead time.
    public func jsonLines() -> String {
        let source: JSONOutput = switch summary.source {
        case .live: .object([("kind", .string("live"))])
        case .replay(let recordedAt): .object([("kind", .string("replay")), ("recorded_at", .string(CivilTime.iso(recordedAt, utcOffsetSeconds: 0)))])
        }
        var text = JSONLine.text("learned", [
            ("place", PlaceJSON.object(summary.place)), ("days", .integer(summary.days)), ("station", .string(summary.station)),
            ("observations", .integer(summary.observations)), ("pairs", .integer(summary.pairs)), ("skipped", .integer(summary.skipped)),
            ("basis", .string("backfill")), ("learned_from", .array(summary.sources.map(JSONOutput.string))),
            ("archive_only", .array(summary.archiveOnly.map(JSONOutput.string))), ("source", source),
            ("from_cache", .integer(summary.fromCache)), ("throwaway", .bool(summary.throwaway)),
        ])
        for skill in skills {
            text += JSONLine.text("learned_skill", [
                ("provider", .string(skill.provider)), ("field", .string(Quantity.temperature.rawValue)), ("lead", .string(skill.lead.rawValue)),
                ("skill_basis", .string(skill.basis.rawValue)), ("pairs", .integer(skill.pairs)),
                ("bias", .number(OutputNumber.round3(units.convertDifference(skill.bias, .temperature)))),
                ("rmse", .number(OutputNumber.round3(units.convertDifference(skill.rmse, .temperature)))),
                ("weight", .number(OutputNumber.round3(skill.weight))), ("unit", .string(units.symbol(for: .temperature))),
            ])
        }
        return text
    }

    /// What was folded, where the answers came from, and the sources left to the archive.
    private func opening() -> String {
        var text = "Learned \(summary.pairs) past forecast(s) of \(summary.sources.joined(separator: ", ")) for \(summary.place.name) "
            + "over \(summary.days) day(s), against \(summary.observations) report(s) of \(summary.station); \(summary.skipped) left out "
            + "(no report near their hour, or learned before).\n"
        if !summary.archiveOnly.isEmpty {
            text += "\(summary.archiveOnly.joined(separator: ", ")) publish no past forecasts and keep learning from the archive.\n"
        }
        if case .replay(let recordedAt) = summary.source {
            text += "Replayed data, not live: past forecasts and station reports recorded \(TableRenderer.utcText(recordedAt)).\n"
        }
        if summary.fromCache > 0 {
            text += "\(summary.fromCache) answer(s) came from the cache, asking nobody (--refresh asks again).\n"
        }
        if summary.throwaway {
            text += "Learned into a throwaway record: your own skill record and archive are untouched.\n"
        }
        return text
    }

    /// One sentence for one source at one lead time.
    private func sentence(_ skill: Skill) -> String {
        func said(_ value: Double) -> String {
            let text = PlainWords.spoken(units.convertDifference(value, .temperature), decimals: 1)
            return text + " " + PlainWords.differenceUnit(.temperature, units, singular: PlainWords.isOne(text))
        }
        let leaning = abs(skill.bias) < 0.05 ? "no bias" : "running \(said(abs(skill.bias))) \(skill.bias > 0 ? "warm" : "cold")"
        let basis = switch skill.basis {
        case .backfill: "from past forecasts"
        case .archive: "from the archive"
        case .none: "nothing yet"
        }
        return "\(skill.provider), \(skill.lead.spoken) ahead: learned \(basis), \(skill.pairs) pairs, \(leaning), "
            + "root mean square error \(said(skill.rmse)), weight \(TableRenderer.fixed(skill.weight * 100, decimals: 0)) percent.\n"
    }

    /// A difference with its sign: `+0.4`, `-1.2`, `0.0`.
    static func signed(_ value: Double) -> String {
        let text = TableRenderer.fixed(value, decimals: 1)
        return value > 0 && text != "0.0" ? "+" + text : text
    }
}

extension LeadBucket {
    /// The bucket in words: `1 to 3 days`.
    var spoken: String {
        switch self {
        case .hours0to6: "0 to 6 hours"
        case .hours6to24: "6 to 24 hours"
        case .days1to3: "1 to 3 days"
        case .days3to7: "3 to 7 days"
        case .days7to16: "7 to 16 days"
        }
    }
}
