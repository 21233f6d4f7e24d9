import FoundationEssentials
import IsobarCore

extension SkillRecord {
    /// Learns one quantity from forecasts and observations held in memory (keyed by place as `Verification` does): the
    /// pairs are folded into a `SkillLedger` in valid-time order, as the store folds them, and read back as of `now`.
    public mutating func learn(_ quantity: Quantity, forecasts: [Verification.Forecast], observations: [Verification.Observation],
                               families declared: [String: String] = [:], now: Date, settings: ConsensusLearning,
                               configuration: ConsensusConfiguration = ConsensusConfiguration()) {
        var folder = SkillFolder(declared: declared, settings: settings, configuration: configuration)
        for (key, item) in Self.cases(quantity, forecasts: forecasts, observations: observations) { folder.fold(item, into: key) }
        let learned = folder.ledger.record(near: nil, now: now, settings: settings, families: declared, configuration: configuration)
        for (key, skill) in learned.fields where key.quantity == quantity { fields[key] = skill }
    }

    /// The cases of forecasts paired with the observation of each basis nearest their valid time (within the rules'
    /// match), every source of one issue and valid time together, in valid-time order.
    static func cases(_ quantity: Quantity, forecasts: [Verification.Forecast], observations: [Verification.Observation])
        -> [(SkillGroupKey, SkillCase)] {
        let rules = Verification.Rules(field: quantity.rawValue)
        struct Series: Hashable { let place: String; let basis: ObservationBasis }
        struct CaseKey: Hashable { let place: String; let basis: ObservationBasis; let issuedAt: Date; let validAt: Date }
        let grouped = Dictionary(grouping: observations) { Series(place: $0.place, basis: $0.basis) }.mapValues { $0.sorted { $0.time < $1.time } }
        var cases: [CaseKey: SkillCase] = [:]
        var keys: [CaseKey: SkillGroupKey] = [:]
        for forecast in forecasts {
            guard let bucket = LeadBucket(leadHours: forecast.validAt.timeIntervalSince(forecast.issuedAt) / 3_600) else { continue }
            for (series, list) in grouped where series.place == forecast.place {
                guard let truth = Verification.nearest(forecast.validAt, in: list, within: rules.matchWithinSeconds) else { continue }
                let key = CaseKey(place: forecast.place, basis: series.basis, issuedAt: forecast.issuedAt, validAt: forecast.validAt)
                let atIssue = Verification.nearest(forecast.issuedAt, in: list, within: rules.persistenceWithinSeconds)?.value
                cases[key, default: SkillCase(validAt: forecast.validAt.timeIntervalSince1970, truth: truth.value, atIssue: atIssue, values: [])]
                    .values.append((forecast.provider, forecast.value))
                keys[key] = SkillGroupKey(basis: series.basis.id, place: forecast.place, field: quantity.rawValue, bucket: bucket)
            }
        }
        return cases.sorted { ($0.key.validAt, $0.key.issuedAt, $0.key.place, $0.key.basis) < ($1.key.validAt, $1.key.issuedAt, $1.key.place, $1.key.basis) }
            .map { key, item in
                var item = item
                item.values.sort { $0.provider < $1.provider }
                return (keys[key]!, item)
            }
    }

    /// Learned weights ∝ 1/MSE, a family weighing as much as its best member (shared among its members by their own
    /// precision), shrunk toward equal families by `n / (n + k)`; they sum to 1.
    static func weights(_ ids: [String], skill: FieldSkill, floor: Double, corrected: Bool) -> [String: Double] {
        let smallest = (floor / 20) * (floor / 20)
        var precision: [String: Double] = [:]
        for id in ids {
            let source = skill.sources[id]!
            precision[id] = 1 / max(corrected ? source.variance : source.meanSquareError, smallest)
        }
        let members = Dictionary(grouping: ids) { skill.families[$0]! }
        var learned: [String: Double] = [:]
        var equal: [String: Double] = [:]
        for (_, group) in members {
            let best = group.map { precision[$0]! }.max()!
            let total = group.map { precision[$0]! }.reduce(0, +)
            for id in group {
                learned[id] = best * precision[id]! / total
                equal[id] = 1 / Double(members.count) / Double(group.count)
            }
        }
        let learnedTotal = learned.values.reduce(0, +)
        var result: [String: Double] = [:]
        for id in ids { result[id] = skill.shrinkage * learned[id]! / learnedTotal + (1 - skill.shrinkage) * equal[id]! }
        return result
    }
}
