import IsobarCore

extension SkillGroup {
    /// What the merge learns from this group as of `now` (seconds since 1970): each source's decayed bias and MSE (the
    /// recent view's when it disagrees with the long one beyond chance, see `ChangeRule`), the families (declared, or by
    /// correlated errors), the weights shrunk toward equal, the corrections, the consensus's error quantiles when there is
    /// enough history, and how much wider than they say the interval must be now that some source changed.
    public func skill(_ quantity: Quantity, now: Double, settings: ConsensusLearning, declared: [String: String],
                      configuration: ConsensusConfiguration) -> FieldSkill {
        let halfLife = SkillLedger.halfLife
        let histogram = ErrorHistogram(quantity)
        let floor = configuration.floor(quantity)
        var skill = FieldSkill()
        var long: [String: SourceSkill] = [:]
        for (id, sums) in sources {
            let weight = sums.values[SkillLayout.weight]
            guard weight > 0 else { continue }
            let bias = sums.values[SkillLayout.sum] / weight
            let counts = sums.values[SkillLayout.histogram...]
            let deviation = histogram.meanAbsoluteDeviation(counts, from: bias) ?? 0
            let view = SourceSkill(pairs: weight * sums.factor(at: now, halfLife: halfLife), bias: bias,
                                   meanSquareError: sums.values[SkillLayout.square] / weight, absoluteDeviation: deviation)
            long[id] = view
            skill.sources[id] = recent[id].flatMap {
                ChangeRule.recentView($0, now: now, long: view, histogram: histogram, counts: counts, floor: floor)
            } ?? view
        }
        let ids = skill.sources.keys.sorted()
        guard !ids.isEmpty else { return skill }
        skill.families = families(ids, now: now, declared: declared, settings: settings)
        let pairs = ids.map { skill.sources[$0]!.pairs }.reduce(0, +) / Double(ids.count)
        skill.isLearned = pairs >= settings.minimumPairs
        skill.shrinkage = pairs / (pairs + settings.shrinkagePairs)
        skill.weights = SkillRecord.weights(ids, skill: skill, floor: floor, corrected: settings.biasCorrection)
        for id in ids { skill.corrections[id] = settings.biasCorrection ? skill.sources[id]!.bias : 0 }
        if ids.contains(where: { skill.sources[$0]!.isRecent }) {
            skill.widening = widening(ids, skill: skill, long: long, floor: floor, corrected: settings.biasCorrection)
        }
        if skill.isLearned, let consensus, consensus.count >= 10 {
            let bins = ErrorHistogram.bins
            let errors = settings.biasCorrection ? bins..<(2 * bins) : 0..<bins
            let spreads = settings.biasCorrection ? (3 * bins)..<(4 * bins) : (2 * bins)..<(3 * bins)
            if let low = histogram.errorQuantile(consensus.values[errors], 0.1), let high = histogram.errorQuantile(consensus.values[errors], 0.9) {
                skill.quantiles = ErrorQuantiles(low: low, high: high,
                                                 typicalSpread: histogram.spreadQuantile(consensus.values[spreads], 0.5) ?? 0)
            }
            if let recent = recentConsensus {
                let grown = ChangeRule.consensusWidening(recent, column: settings.biasCorrection ? 2 : 1, now: now, long: consensus,
                                                         counts: consensus.values[errors], histogram: histogram, floor: floor)
                skill.widening = max(skill.widening, grown)
            }
        }
        return skill
    }

    /// How much larger the consensus's error is expected to be now than when the record's quantiles were gathered:
    /// `√(Σ w_i² s_i² / Σ W_i² S_i²)`, at least 1, where `w`, `s²` are the weights and error variances (MSE without bias
    /// correction) in use and `W`, `S²` those of the long views alone.
    func widening(_ ids: [String], skill: FieldSkill, long: [String: SourceSkill], floor: Double, corrected: Bool) -> Double {
        var before = skill
        before.sources = long
        let weightsBefore = SkillRecord.weights(ids, skill: before, floor: floor, corrected: corrected)
        func spread(_ source: SourceSkill) -> Double { corrected ? source.variance : source.meanSquareError }
        var (now, then) = (0.0, 0.0)
        for id in ids {
            now += skill.weights[id]! * skill.weights[id]! * spread(skill.sources[id]!)
            then += weightsBefore[id]! * weightsBefore[id]! * spread(long[id]!)
        }
        return then > 0 ? max(1, (now / then).squareRoot()) : 1
    }

    /// Each source's family: its declared one, joined with every source whose errors (about their means over the shared
    /// cases) correlate above the threshold over at least `minimumPairs` shared cases; named after the first member.
    func families(_ ids: [String], now: Double, declared: [String: String], settings: ConsensusLearning) -> [String: String] {
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
                guard let sums = pairs[Self.pairKey(idA, idB)], sums.values[0] > 0,
                      sums.values[0] * sums.factor(at: now, halfLife: SkillLedger.halfLife) >= settings.minimumPairs else { continue }
                let v = sums.values
                let (meanA, meanB) = (v[1] / v[0], v[2] / v[0])
                let varianceA = v[3] / v[0] - meanA * meanA, varianceB = v[4] / v[0] - meanB * meanB
                guard varianceA > 0, varianceB > 0 else { continue }
                if (v[5] / v[0] - meanA * meanB) / (varianceA * varianceB).squareRoot() > settings.correlationThreshold { join(idA, idB) }
            }
        }
        return Dictionary(uniqueKeysWithValues: ids.map { ($0, root($0)) })
    }
}
