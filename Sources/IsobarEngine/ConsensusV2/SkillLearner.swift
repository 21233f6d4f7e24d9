import FoundationEssentials
import IsobarCore
#if canImport(Glibc)
import Glibc
#endif

extension SkillRecord {
    /// Learns one quantity from archived forecasts and observations (keyed by place as `Verification` does): per lead
    /// bucket each source's decayed bias and MSE, the families (declared in `families`, or by correlated errors), the
    /// weights and corrections, and the consensus's error quantiles from replaying the record with them.
    public mutating func learn(_ quantity: Quantity, forecasts: [Verification.Forecast], observations: [Verification.Observation],
                               families declared: [String: String] = [:], now: Date, settings: ConsensusLearning,
                               configuration: ConsensusConfiguration = ConsensusConfiguration(), halfLifeDays: Double = 14) {
        let rules = Verification.Rules(field: quantity.rawValue)
        let observed = Dictionary(grouping: observations, by: \.place).mapValues { $0.sorted { $0.time < $1.time } }
        var cases: [LeadBucket: [CaseKey: Case]] = [:]
        let halfLife = halfLifeDays * 86_400
        for forecast in forecasts {
            guard let bucket = LeadBucket(leadHours: forecast.validAt.timeIntervalSince(forecast.issuedAt) / 3_600),
                  let list = observed[forecast.place],
                  let truth = Verification.nearest(forecast.validAt, in: list, within: rules.matchWithinSeconds) else { continue }
            let key = CaseKey(place: forecast.place, issuedAt: forecast.issuedAt, validAt: forecast.validAt)
            let age = max(0, now.timeIntervalSince(forecast.validAt))
            let weight = halfLife > 0 ? pow(0.5, age / halfLife) : 1
            cases[bucket, default: [:]][key, default: Case(truth: truth.value, weight: weight)].values[forecast.provider] = forecast.value
        }
        for (bucket, list) in cases {
            fields[SkillKey(quantity, bucket)] = Self.learnBucket(Self.thinned(list), floor: configuration.floor(quantity),
                                                                  declared: declared, settings: settings, configuration: configuration)
        }
    }

    /// The most cases of one field and lead bucket learned from; a longer record is thinned evenly.
    public static let maximumCasesPerBucket = 2_000

    /// A bucket's cases in time order, thinned evenly to `maximumCasesPerBucket` when there are more: every part of the
    /// record keeps its share (and its decay weight), so means and quantiles stay unbiased while the work stays bounded.
    static func thinned(_ list: [CaseKey: Case]) -> [Case] {
        guard list.count > maximumCasesPerBucket else { return Array(list.values) }
        let ordered = list.sorted { ($0.key.validAt, $0.key.issuedAt, $0.key.place) < ($1.key.validAt, $1.key.issuedAt, $1.key.place) }
        let stride = Double(ordered.count) / Double(maximumCasesPerBucket)
        return (0..<maximumCasesPerBucket).map { ordered[min(ordered.count - 1, Int(Double($0) * stride))].value }
    }

    /// Where and when one forecast case is.
    struct CaseKey: Hashable {
        var place: String
        var issuedAt: Date
        var validAt: Date
    }

    /// Every source's forecast for one valid time of one issue, with the observed truth and the case's decay weight.
    struct Case {
        var truth: Double
        var weight: Double
        var values: [String: Double] = [:]
    }

    /// Learns one field's lead bucket from its cases.
    static func learnBucket(_ cases: [Case], floor: Double, declared: [String: String], settings: ConsensusLearning,
                            configuration: ConsensusConfiguration) -> FieldSkill {
        var skill = FieldSkill()
        var sums: [String: (weight: Double, error: Double, square: Double)] = [:]
        for item in cases {
            for (source, value) in item.values {
                let error = value - item.truth
                sums[source, default: (0, 0, 0)].weight += item.weight
                sums[source, default: (0, 0, 0)].error += item.weight * error
                sums[source, default: (0, 0, 0)].square += item.weight * error * error
            }
        }
        for (source, sum) in sums where sum.weight > 0 {
            skill.sources[source] = SourceSkill(pairs: sum.weight, bias: sum.error / sum.weight, meanSquareError: sum.square / sum.weight)
        }
        var deviations: [String: Double] = [:]
        for item in cases {
            for (source, value) in item.values { deviations[source, default: 0] += item.weight * abs(value - item.truth - skill.sources[source]!.bias) }
        }
        for (source, sum) in deviations { skill.sources[source]!.absoluteDeviation = sum / skill.sources[source]!.pairs }
        let ids = skill.sources.keys.sorted()
        guard !ids.isEmpty else { return skill }
        skill.families = families(ids, cases: cases, skill: skill, declared: declared, settings: settings)
        let pairs = ids.map { skill.sources[$0]!.pairs }.reduce(0, +) / Double(ids.count)
        skill.isLearned = pairs >= settings.minimumPairs
        skill.shrinkage = pairs / (pairs + settings.shrinkagePairs)
        skill.weights = weights(ids, skill: skill, floor: floor, corrected: settings.biasCorrection)
        for id in ids { skill.corrections[id] = settings.biasCorrection ? skill.sources[id]!.bias : 0 }
        if skill.isLearned { skill.quantiles = quantiles(cases, skill: skill, floor: floor, configuration: configuration) }
        return skill
    }

    /// Each source's family: its declared one, joined with every source whose centred errors correlate above the threshold
    /// over enough shared cases (named after the first member in id order).
    static func families(_ ids: [String], cases: [Case], skill: FieldSkill, declared: [String: String],
                         settings: ConsensusLearning) -> [String: String] {
        var parent = Dictionary(uniqueKeysWithValues: ids.map { ($0, $0) })
        func root(_ id: String) -> String {
            var current = id
            while parent[current]! != current { current = parent[current]! }
            return current
        }
        func join(_ a: String, _ b: String) {
            let (ra, rb) = (root(a), root(b))
            if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
        }
        for a in ids.indices {
            for b in ids.indices where b > a {
                let (idA, idB) = (ids[a], ids[b])
                if let family = declared[idA], declared[idB] == family {
                    join(idA, idB)
                    continue
                }
                let (biasA, biasB) = (skill.sources[idA]!.bias, skill.sources[idB]!.bias)
                var (weight, product, squareA, squareB) = (0.0, 0.0, 0.0, 0.0)
                for item in cases {
                    guard let valueA = item.values[idA], let valueB = item.values[idB] else { continue }
                    let (errorA, errorB) = (valueA - item.truth - biasA, valueB - item.truth - biasB)
                    weight += item.weight
                    product += item.weight * errorA * errorB
                    squareA += item.weight * errorA * errorA
                    squareB += item.weight * errorB * errorB
                }
                guard weight >= settings.minimumPairs, squareA > 0, squareB > 0 else { continue }
                if product / (squareA * squareB).squareRoot() > settings.correlationThreshold { join(idA, idB) }
            }
        }
        return Dictionary(uniqueKeysWithValues: ids.map { ($0, root($0)) })
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

    /// The 10 % and 90 % quantiles of the consensus's own errors, replaying every case of the record with the learned
    /// weights and corrections, and the median spread of the inputs that made them.
    static func quantiles(_ cases: [Case], skill: FieldSkill, floor: Double, configuration: ConsensusConfiguration) -> ErrorQuantiles? {
        var errors: [(Double, Double)] = []
        var spreads: [(Double, Double)] = []
        for item in cases {
            let ids = item.values.keys.sorted()
            let corrected = ids.map { item.values[$0]! - (skill.corrections[$0] ?? 0) }
            let weights = ids.map { skill.weights[$0] ?? 0 }
            let families = ids.map { skill.families[$0] ?? $0 }
            let typical = ids.map { skill.typicalError($0) }
            guard let outcome = LearnedFieldMerge.merge(corrected, weights: weights, families: families, typicalErrors: typical,
                                                        floor: floor, configuration: configuration) else { continue }
            errors.append((outcome.value - item.truth, item.weight))
            spreads.append((outcome.keptSpread, item.weight))
        }
        guard errors.count >= 10 else { return nil }
        return ErrorQuantiles(low: quantile(errors, 0.1), high: quantile(errors, 0.9), typicalSpread: quantile(spreads, 0.5))
    }

    /// The weighted quantile `q` of values with weights (the first value at which the running weight reaches `q`).
    static func quantile(_ weighted: [(Double, Double)], _ q: Double) -> Double {
        let sorted = weighted.sorted { $0.0 < $1.0 }
        let total = sorted.map(\.1).reduce(0, +)
        var running = 0.0
        for (value, weight) in sorted {
            running += weight
            if running >= q * total { return value }
        }
        return sorted.last!.0
    }
}
