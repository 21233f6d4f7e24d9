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
    /// The skill the consensus of each group is scored with, refreshed every `refreshCases` cases (every case at first).
    private var cache: [SkillGroupKey: (plain: FieldSkill, corrected: FieldSkill, count: Int)] = [:]

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
        guard let quantity = Quantity(rawValue: key.field), !item.values.isEmpty, item.truth.isFinite else { return }
        let halfLife = SkillLedger.halfLife
        let histogram = ErrorHistogram(quantity)
        var group = ledger.groups[key] ?? SkillGroup()
        scoreConsensus(item, quantity: quantity, key: key, group: &group, histogram: histogram)
        let tolerance = Verification.Rules(field: key.field).hitTolerance
        for (provider, value) in item.values {
            var sums = group.sources[provider] ?? DecayedSums(size: SkillLayout.sourceSize)
            let weight = sums.weight(at: item.validAt, halfLife: halfLife)
            let error = value - item.truth
            sums.values[SkillLayout.weight] += weight
            sums.values[SkillLayout.sum] += weight * error
            sums.values[SkillLayout.absolute] += weight * abs(error)
            sums.values[SkillLayout.square] += weight * error * error
            if abs(error) <= tolerance { sums.values[SkillLayout.hits] += weight }
            if let atIssue = item.atIssue, atIssue.isFinite {
                sums.values[SkillLayout.persistence] += weight * abs(atIssue - item.truth)
                sums.values[SkillLayout.paired] += weight * abs(error)
            }
            sums.values[SkillLayout.histogram + histogram.bin(error: error)] += weight
            group.sources[provider] = sums
        }
        for a in item.values.indices {
            for b in item.values.indices where b > a {
                let (first, second) = item.values[a].provider < item.values[b].provider ? (item.values[a], item.values[b]) : (item.values[b], item.values[a])
                let pairKey = SkillGroup.pairKey(first.provider, second.provider)
                var sums = group.pairs[pairKey] ?? DecayedSums(size: SkillLayout.pairSize)
                let weight = sums.weight(at: item.validAt, halfLife: halfLife)
                let (errorA, errorB) = (first.value - item.truth, second.value - item.truth)
                sums.values[0] += weight
                sums.values[1] += weight * errorA
                sums.values[2] += weight * errorB
                sums.values[3] += weight * errorA * errorA
                sums.values[4] += weight * errorB * errorB
                sums.values[5] += weight * errorA * errorB
                group.pairs[pairKey] = sums
            }
        }
        ledger.groups[key] = group
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

    /// Adds the error and spread of the consensus the record so far gives this case, when it has learned enough.
    private mutating func scoreConsensus(_ item: SkillCase, quantity: Quantity, key: SkillGroupKey, group: inout SkillGroup,
                                         histogram: ErrorHistogram) {
        let count = group.sources.values.map(\.count).max() ?? 0
        // Every case while the group is young (it crosses `minimumPairs` then), every `refreshCases` cases after.
        let interval = count < 4 * Self.refreshCases ? 1 : Self.refreshCases
        if cache[key].map({ count - $0.count >= interval }) ?? true {
            var plain = settings, corrected = settings
            plain.biasCorrection = false
            corrected.biasCorrection = true
            cache[key] = (group.skill(quantity, now: item.validAt, settings: plain, declared: declared, configuration: configuration),
                          group.skill(quantity, now: item.validAt, settings: corrected, declared: declared, configuration: configuration), count)
        }
        guard let cached = cache[key], cached.plain.isLearned else { return }
        let floor = configuration.floor(quantity)
        var outcomes: [LearnedFieldMerge.Outcome] = []
        for skill in [cached.plain, cached.corrected] {
            let ids = item.values.map(\.provider)
            let corrected = item.values.map { $0.value - (skill.corrections[$0.provider] ?? 0) }
            let weights = ids.map { skill.weights[$0] ?? 0 }
            let families = ids.map { skill.families[$0] ?? declared[$0] ?? $0 }
            let typical = ids.map { skill.typicalError($0) }
            guard let outcome = LearnedFieldMerge.merge(corrected, weights: weights, families: families, typicalErrors: typical,
                                                        floor: floor, configuration: configuration) else { return }
            outcomes.append(outcome)
        }
        var sums = group.consensus ?? DecayedSums(size: SkillLayout.consensusSize)
        let weight = sums.weight(at: item.validAt, halfLife: SkillLedger.halfLife)
        let bins = ErrorHistogram.bins
        for (offset, outcome) in outcomes.enumerated() {
            sums.values[offset * bins + histogram.bin(error: outcome.value - item.truth)] += weight
            sums.values[(2 + offset) * bins + histogram.bin(spread: outcome.keptSpread)] += weight
        }
        group.consensus = sums
    }
}
