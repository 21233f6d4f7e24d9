import IsobarCore

/// One case to fold into the record: every source's forecast of one valid time from one issue, the observation standing
/// for it and, when known, the one standing for the issue time (persistence).
public struct SkillCase: Sendable {
    /// The valid time, in seconds since 1970.
    public var validAt: Double
    /// The observed value.
    public var truth: Double
    /// The value observed at the issue time, when known.
    public var atIssue: Double?
    /// Each source's forecast, in provider order.
    public var values: [(provider: String, value: Double)]

    /// Creates a case.
    public init(validAt: Double, truth: Double, atIssue: Double?, values: [(provider: String, value: Double)]) {
        self.validAt = validAt
        self.truth = truth
        self.atIssue = atIssue
        self.values = values
    }
}

/// Folds cases into a ledger, each once. Before a case's own errors are added, the consensus it would have got from the
/// record so far (plain and bias-corrected) is scored against its truth: the record's quantiles are out-of-sample.
public struct SkillFolder: Sendable {
    /// The ledger folded into.
    public var ledger: SkillLedger
    /// Each source's declared upstream, for the families of the consensus scored as cases are folded.
    public var declared: [String: String]
    /// The learning's constants (k, the minimum pairs, the correlation threshold).
    public var settings: ConsensusLearning
    /// The merge's floors and outlier rule.
    public var configuration: ConsensusConfiguration
    /// True while folding backfilled pairs (`isobar learn`): each is also counted in its source's backfill sums.
    public var marksBackfill = false
    /// The skill the consensus of each group is scored with, refreshed every `refreshCases` cases (every case at first).
    private var cache: [SkillGroupKey: Scoring] = [:]

    /// The learned weights used to score the consensus are refreshed after this many cases of a group.
    public static let refreshCases = 24

    /// A folder over `ledger`.
    public init(_ ledger: SkillLedger = SkillLedger(), declared: [String: String] = [:], settings: ConsensusLearning = ConsensusLearning(),
                configuration: ConsensusConfiguration = ConsensusConfiguration()) {
        self.ledger = ledger
        self.declared = declared
        self.settings = settings
        self.configuration = configuration
    }

    /// Folds one case of the group `key` in.
    public mutating func fold(_ item: SkillCase, into key: SkillGroupKey) {
        guard let quantity = Quantity(rawValue: key.field) else { return }
        // Only what the atmosphere can take: a provider's fill value (9.97e36) or an observation in the wrong unit, finite
        // as it is, would weigh on its decayed sums for weeks. Such a forecast is left out; such a truth, the whole case.
        let range = quantity.spec.range
        guard range.contains(item.truth) else { return }
        var item = item
        item.values = item.values.filter { range.contains($0.value) }
        if let atIssue = item.atIssue, !range.contains(atIssue) { item.atIssue = nil }
        guard !item.values.isEmpty else { return }
        let histogram = ErrorHistogram(quantity)
        let scored = scoreConsensus(item, quantity: quantity, key: key)
        let tolerance = Verification.Rules(field: key.field).hitTolerance
        // In place: the group's sums are changed where they lie, never copied out and back.
        Self.add(item, scored: scored, histogram: histogram, tolerance: tolerance, backfill: marksBackfill,
                 to: &ledger.groups[key, default: SkillGroup()])
    }

    /// Adds a case's errors, cross products and scored consensus to a group.
    private static func add(_ item: SkillCase, scored: [Scored]?, histogram: ErrorHistogram, tolerance: Double, backfill: Bool,
                            to group: inout SkillGroup) {
        let halfLife = SkillLedger.halfLife
        for (provider, value) in item.values {
            addSource(value - item.truth, atIssue: item.atIssue.map { $0 - item.truth }, at: item.validAt, histogram: histogram,
                      tolerance: tolerance, to: &group.sources[provider, default: DecayedSums(size: SkillLayout.sourceSize)])
            addRecent(value - item.truth, at: item.validAt, to: &group.recent[provider, default: DecayedSums(size: SkillLayout.recentSize)])
            if backfill {
                var sums = group.backfill[provider] ?? DecayedSums(size: 1)
                sums.values[0] += sums.weight(at: item.validAt, halfLife: halfLife)
                group.backfill[provider] = sums
            }
        }
        for a in item.values.indices {
            for b in item.values.indices where b > a {
                let (first, second) = item.values[a].provider < item.values[b].provider ? (item.values[a], item.values[b]) : (item.values[b], item.values[a])
                addPair(first.value - item.truth, second.value - item.truth, at: item.validAt,
                        to: &group.pairs[SkillGroup.pairKey(first.provider, second.provider), default: DecayedSums(size: SkillLayout.pairSize)])
            }
        }
        guard let scored else { return }
        if group.consensus == nil { group.consensus = DecayedSums(size: SkillLayout.consensusSize) }
        let weight = group.consensus!.weight(at: item.validAt, halfLife: halfLife)
        let bins = ErrorHistogram.bins
        for (offset, outcome) in scored.enumerated() {
            group.consensus!.values[offset * bins + histogram.bin(error: outcome.error)] += weight
            group.consensus!.values[(2 + offset) * bins + histogram.bin(spread: outcome.spread)] += weight
        }
        if group.recentConsensus == nil { group.recentConsensus = DecayedSums(size: SkillLayout.recentConsensusSize) }
        let recentWeight = group.recentConsensus!.weight(at: item.validAt, halfLife: SkillLedger.recentHalfLife)
        group.recentConsensus!.values[0] += recentWeight
        for (offset, outcome) in scored.enumerated() { group.recentConsensus!.values[1 + offset] += recentWeight * outcome.error * outcome.error }
        guard scored.allSatisfy({ $0.inside != nil }) else { return }
        if group.coverage == nil { group.coverage = DecayedSums(size: SkillLayout.coverageSize) }
        let coverageWeight = group.coverage!.weight(at: item.validAt, halfLife: halfLife)
        for (offset, outcome) in scored.enumerated() {
            group.coverage!.values[2 * offset] += coverageWeight
            if outcome.inside == true { group.coverage!.values[2 * offset + 1] += coverageWeight }
        }
    }

    private static func addRecent(_ error: Double, at time: Double, to sums: inout DecayedSums) {
        let weight = sums.weight(at: time, halfLife: SkillLedger.recentHalfLife)
        sums.values[0] += weight
        sums.values[1] += weight * error
        sums.values[2] += weight * abs(error)
        sums.values[3] += weight * error * error
    }

    private static func addSource(_ error: Double, atIssue: Double?, at time: Double, histogram: ErrorHistogram, tolerance: Double,
                                  to sums: inout DecayedSums) {
        let weight = sums.weight(at: time, halfLife: SkillLedger.halfLife)
        sums.values[SkillLayout.weight] += weight
        sums.values[SkillLayout.sum] += weight * error
        sums.values[SkillLayout.absolute] += weight * abs(error)
        sums.values[SkillLayout.square] += weight * error * error
        if abs(error) <= tolerance { sums.values[SkillLayout.hits] += weight }
        if let atIssue, atIssue.isFinite {
            sums.values[SkillLayout.persistence] += weight * abs(atIssue)
            sums.values[SkillLayout.paired] += weight * abs(error)
        }
        sums.values[SkillLayout.histogram + histogram.bin(error: error)] += weight
    }

    private static func addPair(_ errorA: Double, _ errorB: Double, at time: Double, to sums: inout DecayedSums) {
        let weight = sums.weight(at: time, halfLife: SkillLedger.halfLife)
        sums.values[0] += weight
        sums.values[1] += weight * errorA
        sums.values[2] += weight * errorB
        sums.values[3] += weight * errorA * errorA
        sums.values[4] += weight * errorB * errorB
        sums.values[5] += weight * errorA * errorB
    }

    /// Folds one probability forecast case in: each source's chance (percent) of an event, and whether it happened.
    public mutating func foldChance(validAt: Double, occurred: Bool, values: [(provider: String, value: Double)], into key: SkillGroupKey) {
        var group = ledger.groups[key] ?? SkillGroup()
        let outcome = occurred ? 1.0 : 0.0
        for (provider, value) in values where value.isFinite {
            var sums = group.brier[provider] ?? DecayedSums(size: SkillLayout.brierSize)
            let weight = sums.weight(at: validAt, halfLife: SkillLedger.halfLife)
            let probability = min(1, max(0, value / 100))
            sums.values[0] += weight
            sums.values[1] += weight * (probability - outcome) * (probability - outcome)
            sums.values[2] += weight * outcome
            group.brier[provider] = sums
        }
        ledger.groups[key] = group
    }

    /// The consensus of one case as the record so far gives it: its error, its inputs' spread, and whether the 80 %
    /// interval held the truth (nil while the record has no interval).
    struct Scored {
        var error: Double
        var spread: Double
        var inside: Bool?
    }

    /// The error and spread of the consensus the record so far gives this case (plain, then bias-corrected), when it has
    /// learned enough; nil before.
    private mutating func scoreConsensus(_ item: SkillCase, quantity: Quantity, key: SkillGroupKey) -> [Scored]? {
        let group = ledger.groups[key] ?? SkillGroup()
        let count = group.sources.values.map(\.count).max() ?? 0
        // Every case while the group is young (it crosses `minimumPairs` then), every `refreshCases` cases after.
        let interval = count < 4 * Self.refreshCases ? 1 : Self.refreshCases
        if cache[key].map({ count - $0.count >= interval }) ?? true {
            var plain = settings, corrected = settings
            plain.biasCorrection = false
            corrected.biasCorrection = true
            cache[key] = Scoring(plain: group.skill(quantity, now: item.validAt, settings: plain, declared: declared, configuration: configuration),
                                 corrected: group.skill(quantity, now: item.validAt, settings: corrected, declared: declared,
                                                        configuration: configuration), count: count)
        }
        guard cache[key]!.plain.isLearned else { return nil }
        let floor = configuration.floor(quantity)
        let ids = item.values.map(\.provider)
        var outcomes: [Scored] = []
        for corrected in [false, true] {
            let inputs = cache[key]!.inputs(ids, corrected: corrected, declared: declared)
            let values = item.values.indices.map { item.values[$0].value - inputs.corrections[$0] }
            guard let outcome = LearnedFieldMerge.merge(values, weights: inputs.weights, families: inputs.families, typicalErrors: inputs.typical,
                                                        floor: floor, configuration: configuration) else { return nil }
            let skill = corrected ? cache[key]!.corrected : cache[key]!.plain
            let inside = skill.interval(around: outcome.value, keptSpread: outcome.keptSpread).map { $0.contains(item.truth) }
            outcomes.append(Scored(error: outcome.value - item.truth, spread: outcome.keptSpread, inside: inside))
        }
        return outcomes
    }

    /// The skills a group's consensus is scored with, and their inputs for the providers last seen in a case.
    private struct Scoring {
        /// The inputs of one skill for a list of providers.
        struct Inputs {
            var ids: [String]
            var weights: [Double], corrections: [Double], families: [String], typical: [Double]
        }

        var plain: FieldSkill
        var corrected: FieldSkill
        var count: Int
        private var prepared: [Bool: Inputs] = [:]

        init(plain: FieldSkill, corrected: FieldSkill, count: Int) {
            self.plain = plain
            self.corrected = corrected
            self.count = count
        }

        /// The weights, corrections, families and typical errors of `ids`, kept while the providers stay the same.
        mutating func inputs(_ ids: [String], corrected isCorrected: Bool, declared: [String: String]) -> Inputs {
            if let kept = prepared[isCorrected], kept.ids == ids { return kept }
            let skill = isCorrected ? corrected : plain
            let inputs = Inputs(ids: ids, weights: ids.map { skill.weights[$0] ?? 0 }, corrections: ids.map { skill.corrections[$0] ?? 0 },
                                families: ids.map { skill.families[$0] ?? declared[$0] ?? $0 }, typical: ids.map { skill.typicalError($0) })
            prepared[isCorrected] = inputs
            return inputs
        }
    }
}
