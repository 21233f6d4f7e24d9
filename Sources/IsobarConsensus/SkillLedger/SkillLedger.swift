import FoundationEssentials
import IsobarCore

/// What one stored group of the record is about: a basis (`metar`, `proxy:<id>`…), a place cell, a field and a lead bucket.
public struct SkillGroupKey: Sendable, Hashable {
    /// The basis the forecasts were checked against, as written out (`metar`, `proxy:<provider>`).
    public var basis: String
    /// The place cell, any key equal for the same place (the archive's rounded coordinates, `53.9,27.57`).
    public var place: String
    /// The quantity's id, e.g. `temperature`.
    public var field: String
    /// The lead bucket.
    public var bucket: LeadBucket

    /// Creates a key.
    public init(basis: String, place: String, field: String, bucket: LeadBucket) {
        self.basis = basis
        self.place = place
        self.field = field
        self.bucket = bucket
    }
}

/// Where each value lies in the stored sums of a group's members.
public enum SkillLayout {
    /// A source's sums: Σw, Σw·e, Σw·|e|, Σw·e², Σw of hits, Σw·|persistence error|, Σw·|e| over the same pairs, then the
    /// error histogram (`ErrorHistogram.bins` values).
    public static let weight = 0, sum = 1, absolute = 2, square = 3, hits = 4, persistence = 5, paired = 6, histogram = 7
    /// The size of a source's sums.
    public static let sourceSize = histogram + ErrorHistogram.bins
    /// A pair's sums over the cases both forecast: Σw, Σw·ea, Σw·eb, Σw·ea², Σw·eb², Σw·ea·eb.
    public static let pairSize = 6
    /// A source's recent sums (`SkillLedger.recentHalfLifeDays`): Σw, Σw·e, Σw·|e|, Σw·e².
    public static let recentSize = 4
    /// The consensus's out-of-sample coverage sums: Σw, Σw of truths inside the 80 % interval (plain weights), then the
    /// same with bias corrections.
    public static let coverageSize = 4
    /// The consensus's recent error sums (`SkillLedger.recentHalfLifeDays`): Σw, Σw·e² (plain), Σw·e² (bias-corrected).
    public static let recentConsensusSize = 3
    /// The consensus's sums: histograms of its errors (plain weights, then bias-corrected) and of its inputs' spread
    /// (plain, then corrected), `ErrorHistogram.bins` values each.
    public static let consensusSize = 4 * ErrorHistogram.bins
    /// A source's Brier sums of a probability forecast: Σw, Σw·(p − o)², Σw·o.
    public static let brierSize = 3
}

/// The sums of one group: every source, every pair of sources, the consensus's own errors, and (for the chance of
/// precipitation) every source's Brier sums.
public struct SkillGroup: Sendable, Equatable {
    /// Each source's error sums and histogram, by provider id.
    public var sources: [String: DecayedSums] = [:]
    /// Each pair's cross sums, by `a|b` with `a < b`.
    public var pairs: [String: DecayedSums] = [:]
    /// The consensus's error and spread histograms, computed when each case was folded in (with the weights learned
    /// before it, so never from the case itself).
    public var consensus: DecayedSums?
    /// Each source's Brier sums, by provider id.
    public var brier: [String: DecayedSums] = [:]
    /// Each source's recent error sums (the fast view, `SkillLedger.recentHalfLife`), by provider id.
    public var recent: [String: DecayedSums] = [:]
    /// How often the 80 % interval the record gave held the truth, scored as each case was folded in (out of sample).
    public var coverage: DecayedSums?
    /// The consensus's recent squared errors (the fast view of its out-of-sample errors), when any case was scored.
    public var recentConsensus: DecayedSums?
    /// Each source's backfilled pairs (`isobar learn`: past forecasts, not Isobar's archive), Σw, by provider id.
    public var backfill: [String: DecayedSums] = [:]

    /// An empty group.
    public init() {}

    /// Both groups together.
    public func merged(with other: SkillGroup, halfLife: Double) -> SkillGroup {
        var result = self
        for (id, sums) in other.sources { result.sources[id] = result.sources[id].map { $0.merged(with: sums, halfLife: halfLife) } ?? sums }
        for (id, sums) in other.pairs { result.pairs[id] = result.pairs[id].map { $0.merged(with: sums, halfLife: halfLife) } ?? sums }
        for (id, sums) in other.brier { result.brier[id] = result.brier[id].map { $0.merged(with: sums, halfLife: halfLife) } ?? sums }
        if let sums = other.consensus { result.consensus = result.consensus.map { $0.merged(with: sums, halfLife: halfLife) } ?? sums }
        if let sums = other.coverage { result.coverage = result.coverage.map { $0.merged(with: sums, halfLife: halfLife) } ?? sums }
        for (id, sums) in other.backfill { result.backfill[id] = result.backfill[id].map { $0.merged(with: sums, halfLife: halfLife) } ?? sums }
        let recentHalfLife = SkillLedger.recentHalfLife
        for (id, sums) in other.recent { result.recent[id] = result.recent[id].map { $0.merged(with: sums, halfLife: recentHalfLife) } ?? sums }
        if let sums = other.recentConsensus {
            result.recentConsensus = result.recentConsensus.map { $0.merged(with: sums, halfLife: recentHalfLife) } ?? sums
        }
        return result
    }

    /// The key of a pair of sources.
    public static func pairKey(_ a: String, _ b: String) -> String { a < b ? a + "|" + b : b + "|" + a }

    /// The decayed weight of the pairs of all sources as of `now`.
    func totalWeight(now: Double, halfLife: Double) -> Double {
        sources.values.map { $0.values[SkillLayout.weight] * $0.factor(at: now, halfLife: halfLife) }.reduce(0, +)
    }
}

/// The stored, additive skill record: every group's decayed sums. Each case (a valid time of one issue, every source's
/// forecast of it and the observation standing for it) is folded in once; reading it costs what the groups cost, never
/// what the archive holds. Two ledgers merge by adding.
public struct SkillLedger: Sendable, Equatable {
    /// Every term's weight halves every this many days of its valid time's age: old skill fades.
    public static let halfLifeDays = 14.0
    /// The half-life in seconds.
    public static var halfLife: Double { halfLifeDays * 86_400 }
    /// The half-life of the recent view of each source's errors, in days: short enough to see a change within days,
    /// long enough to hold a few days of pairs.
    public static let recentHalfLifeDays = 3.0
    /// The recent half-life in seconds.
    public static var recentHalfLife: Double { recentHalfLifeDays * 86_400 }

    /// The groups, by key.
    public var groups: [SkillGroupKey: SkillGroup] = [:]

    /// An empty ledger.
    public init() {}

    /// The latest valid time (seconds since 1970) any backfill folded in, when one did.
    public var latestBackfill: Double? {
        groups.values.flatMap(\.backfill.values).map(\.asOf).filter(\.isFinite).max()
    }

    /// Both ledgers together.
    public func merged(with other: SkillLedger) -> SkillLedger {
        var result = self
        for (key, group) in other.groups { result.groups[key] = result.groups[key].map { $0.merged(with: group, halfLife: Self.halfLife) } ?? group }
        return result
    }

    /// The groups of one place (every place merged when nil), keyed without the place.
    func groups(near place: String?) -> [SkillGroupKey: SkillGroup] {
        var result: [SkillGroupKey: SkillGroup] = [:]
        for (key, group) in groups where place == nil || key.place == place {
            var merged = key
            merged.place = ""
            result[merged] = result[merged].map { $0.merged(with: group, halfLife: Self.halfLife) } ?? group
        }
        return result
    }

    /// What the consensus learns from the ledger near `place` (every place when nil), as of `now`: per field and lead
    /// bucket, from real observations when there are any, else from the proxy with the most pairs.
    public func record(near place: String?, now: Date, settings: ConsensusLearning, families declared: [String: String] = [:],
                       configuration: ConsensusConfiguration = ConsensusConfiguration()) -> SkillRecord {
        let time = now.timeIntervalSince1970
        var chosen: [SkillKey: (proxy: Bool, weight: Double, group: SkillGroup)] = [:]
        for (key, group) in groups(near: place) {
            guard let quantity = Quantity(rawValue: key.field), quantity.spec.interpolation != .circular, !group.sources.isEmpty else { continue }
            let proxy = ObservationBasis(id: key.basis).isProxy
            let weight = group.totalWeight(now: time, halfLife: Self.halfLife)
            let skillKey = SkillKey(quantity, key.bucket)
            if let current = chosen[skillKey], (current.proxy ? 1 : 0, -current.weight) <= (proxy ? 1 : 0, -weight) { continue }
            chosen[skillKey] = (proxy, weight, group)
        }
        var record = SkillRecord()
        for (key, entry) in chosen {
            record.fields[key] = entry.group.skill(key.quantity, now: time, settings: settings, declared: declared, configuration: configuration)
        }
        record.carryChanges(settings: settings, configuration: configuration)
        record.borrowForShortLeads()
        let learned = Set(chosen.values.flatMap { $0.group.sources.keys })
        let backfilled = backfilledSources(field: Quantity.temperature.rawValue, near: place, now: now)
        for id in learned { record.bases[id] = backfilled.contains(id) ? .backfill : .archive }
        return record
    }

    /// Every (provider, bucket, basis) error sums of `field` near `place` (every place when nil), as of `now`.
    public func errorScores(field: String, near place: String?, now: Date) -> [ScoreKey: ErrorSums] {
        let time = now.timeIntervalSince1970
        var scores: [ScoreKey: ErrorSums] = [:]
        for (key, group) in groups(near: place) where key.field == field {
            for (provider, sums) in group.sources {
                let factor = sums.factor(at: time, halfLife: Self.halfLife)
                var result = ErrorSums()
                result.weight = sums.values[SkillLayout.weight] * factor
                result.sum = sums.values[SkillLayout.sum] * factor
                result.absoluteSum = sums.values[SkillLayout.absolute] * factor
                result.squareSum = sums.values[SkillLayout.square] * factor
                result.hits = sums.values[SkillLayout.hits] * factor
                result.persistenceAbsoluteSum = sums.values[SkillLayout.persistence] * factor
                result.pairedAbsoluteSum = sums.values[SkillLayout.paired] * factor
                result.count = sums.count
                scores[ScoreKey(provider: provider, field: field, bucket: key.bucket, basis: ObservationBasis(id: key.basis))] = result
            }
        }
        return scores
    }

    /// The share of truths the learned consensus's 80 % interval held, scored out of sample as each case of `field` near
    /// `place` was folded (plain weights), by lead bucket, as of `now`; buckets with no scored case are absent.
    public func intervalCoverage(field: String, near place: String?, now: Date) -> [LeadBucket: Double] {
        var sums: [LeadBucket: (weight: Double, inside: Double)] = [:]
        for (key, group) in groups(near: place) where key.field == field {
            guard let coverage = group.coverage else { continue }
            let factor = coverage.factor(at: now.timeIntervalSince1970, halfLife: Self.halfLife)
            sums[key.bucket, default: (0, 0)].weight += coverage.values[0] * factor
            sums[key.bucket, default: (0, 0)].inside += coverage.values[1] * factor
        }
        return sums.filter { $0.value.weight > 0 }.mapValues { $0.inside / $0.weight }
    }

    /// The sources of `field` near `place` whose pairs came mostly from backfill (`isobar learn`), as of `now`.
    public func backfilledSources(field: String, near place: String?, now: Date) -> Set<String> {
        var weights: [String: (all: Double, backfill: Double)] = [:]
        for (key, group) in groups(near: place) where key.field == field {
            for (id, sums) in group.sources {
                weights[id, default: (0, 0)].all += sums.values[SkillLayout.weight] * sums.factor(at: now.timeIntervalSince1970, halfLife: Self.halfLife)
            }
            for (id, sums) in group.backfill {
                weights[id, default: (0, 0)].backfill += sums.values[0] * sums.factor(at: now.timeIntervalSince1970, halfLife: Self.halfLife)
            }
        }
        return Set(weights.filter { $0.value.all > 0 && $0.value.backfill > $0.value.all / 2 }.keys)
    }

    /// Every (provider, bucket, basis) Brier sums of `field` (the chance of precipitation) near `place`, as of `now`.
    public func brierScores(field: String, near place: String?, now: Date) -> [ScoreKey: BrierSums] {
        let time = now.timeIntervalSince1970
        var scores: [ScoreKey: BrierSums] = [:]
        for (key, group) in groups(near: place) where key.field == field {
            for (provider, sums) in group.brier {
                let factor = sums.factor(at: time, halfLife: Self.halfLife)
                var result = BrierSums()
                result.weight = sums.values[0] * factor
                result.squareSum = sums.values[1] * factor
                result.occurred = sums.values[2] * factor
                result.count = sums.count
                scores[ScoreKey(provider: provider, field: field, bucket: key.bucket, basis: ObservationBasis(id: key.basis))] = result
            }
        }
        return scores
    }
}
