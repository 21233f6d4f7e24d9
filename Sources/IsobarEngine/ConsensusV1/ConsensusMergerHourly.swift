import FoundationEssentials
import IsobarCore

extension ConsensusMerger {
    /// Every grid hour at which some provider has a value or a condition, merged.
    ///
    /// The providers' series are first copied into one block laid out hour by hour, quantity by quantity, provider by
    /// provider, so that each field's inputs are next to each other; each hour then allocates only what it returns.
    func hourly() -> [ConsensusHour] {
        let covered = series.filter { $0.count > 0 }
        guard let first = covered.map(\.firstHour).min(), let last = covered.map({ $0.firstHour + $0.count - 1 }).max() else { return [] }
        let grid = HourGrid(series, first: first, last: last)
        var result: [ConsensusHour] = []
        result.reserveCapacity(last - first + 1)
        grid.values.withUnsafeBufferPointer { values in
            grid.origins.withUnsafeBufferPointer { origins in
                grid.conditions.withUnsafeBufferPointer { conditions in
                    for hour in first...last {
                        if let merged = self.hour(hour, first: first, values, origins, conditions) { result.append(merged) }
                    }
                }
            }
        }
        return result
    }

    /// The merge of one grid hour, nil when no provider has anything for it.
    private func hour(
        _ hour: Int, first: Int, _ values: UnsafeBufferPointer<Double>, _ origins: UnsafeBufferPointer<ValueOrigin>,
        _ conditions: UnsafeBufferPointer<HourGrid.HeldCondition?>
    ) -> ConsensusHour? {
        let providers = ids.count
        let time = Date(timeIntervalSince1970: Double(hour) * 3600)
        let lead = leadHours(time)
        let factor = leadFactor(lead)
        let row = (hour - first) * QuantitySlot.count * providers
        var fields = [MergedField?](repeating: nil, count: QuantitySlot.count)
        var anyField = false
        for slot in 0..<QuantitySlot.count {
            let base = row + slot * providers
            var present = 0
            for index in 0..<providers where !values[base + index].isNaN { present += 1 }
            guard present > 0 else { continue }
            anyField = true
            guard present >= minimumSources else { continue }
            var inputs: [ProviderValue] = []
            inputs.reserveCapacity(present)
            for index in 0..<providers where !values[base + index].isNaN {
                inputs.append(ProviderValue(provider: ids[index], value: values[base + index], weight: weights[index], origin: origins[base + index]))
            }
            var missing: [String] = []
            if present < providers {
                missing.reserveCapacity(providers - present)
                for index in 0..<providers where values[base + index].isNaN { missing.append(ids[index]) }
            }
            fields[slot] = FieldMerge.merge(
                owning: &inputs, missing: missing, floor: hourlyFloors[slot], circular: hourlyCircular[slot], leadFactor: factor, rules: rules)
        }
        let conditionRow = (hour - first) * providers
        var voteCount = 0
        for index in 0..<providers where conditions[conditionRow + index] != nil { voteCount += 1 }
        guard anyField || voteCount > 0 else { return nil }
        var merged: MergedConditionV1?
        if voteCount >= minimumSources {
            var votes: [ConditionVote] = []
            votes.reserveCapacity(voteCount)
            for index in 0..<providers {
                guard let held = conditions[conditionRow + index] else { continue }
                votes.append(ConditionVote(provider: ids[index], condition: held.condition, weight: weights[index], origin: held.isHeld ? .interpolated : .given))
            }
            var missing: [String] = []
            if voteCount < providers {
                for index in 0..<providers where conditions[conditionRow + index] == nil { missing.append(ids[index]) }
            }
            let amounts = row + Quantity.precipitationRate.consensusSlot * providers
            let chances = row + Quantity.precipitationProbability.consensusSlot * providers
            merged = condition(votes, dry: isDry(amounts: values, amounts, chances: chances, providers: providers), missing: missing, leadFactor: factor)
        }
        return ConsensusHour(
            time: time, utcOffsetSeconds: calendar.utcOffsetSeconds(at: time), leadHours: lead, fields: fields, condition: merged,
            confidence: Self.meanConfidence(fields, merged))
    }

    /// `ConditionMerge.isDry` of the providers' amounts and chances of one hour (NaN where a provider has none).
    private func isDry(amounts values: UnsafeBufferPointer<Double>, _ amounts: Int, chances: Int, providers: Int) -> Bool {
        var anyAmount = false
        for index in 0..<providers {
            let amount = values[amounts + index]
            if !amount.isNaN {
                anyAmount = true
                if amount > configuration.dryPrecipitationMM { return false }
            }
            let chance = values[chances + index]
            if !chance.isNaN, chance >= configuration.lowPrecipitationProbabilityPercent { return false }
        }
        return anyAmount
    }
}

/// The providers' aligned series over the hours `first...last` in one block: for hour `h`, quantity slot `s` and provider
/// `p`, the value (NaN when absent) and its origin are at `((h − first) × slots + s) × providers + p`, and the held
/// condition at `(h − first) × providers + p`.
struct HourGrid {
    /// A provider's condition for an hour and whether it was held over a longer step.
    struct HeldCondition {
        var condition: Condition
        var isHeld: Bool
    }

    var values: [Double]
    var origins: [ValueOrigin]
    var conditions: [HeldCondition?]

    init(_ series: [AlignedSeries], first: Int, last: Int) {
        let providers = series.count
        let hours = last - first + 1
        let slots = QuantitySlot.count
        values = [Double](repeating: .nan, count: hours * slots * providers)
        origins = [ValueOrigin](repeating: .given, count: hours * slots * providers)
        conditions = [HeldCondition?](repeating: nil, count: hours * providers)
        for (provider, aligned) in series.enumerated() where aligned.count > 0 {
            let offset = aligned.firstHour - first
            for slot in 0..<slots {
                let isDerived = aligned.derivedSlots & (1 << UInt32(slot)) != 0
                let column = slot * aligned.count
                for index in 0..<aligned.count {
                    let value = aligned.columns[column + index]
                    guard !value.isNaN else { continue }
                    let position = ((offset + index) * slots + slot) * providers + provider
                    values[position] = value
                    origins[position] = isDerived ? .derived : aligned.interpolated[column + index] ? .interpolated : .given
                }
            }
            for index in 0..<aligned.count {
                if let condition = aligned.conditions[index] {
                    conditions[(offset + index) * providers + provider] = HeldCondition(condition: condition, isHeld: aligned.conditionHeld[index])
                }
            }
        }
    }
}
