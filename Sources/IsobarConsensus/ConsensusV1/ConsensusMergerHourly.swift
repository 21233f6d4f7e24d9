import FoundationEssentials
import IsobarCore

extension ConsensusMerger {
    /// Every grid hour at which some provider has a value or a condition, merged.
    ///
    /// The providers' series are first copied into one block laid out hour by hour, quantity by quantity, provider by
    /// provider, so that each field's inputs are next to each other; the merged fields keep reading their inputs from that
    /// block, so each hour allocates only its list of fields (and, past 32 providers, each field its lists of inputs).
    func hourly() -> [ConsensusHour] {
        let covered = series.filter { $0.count > 0 }
        guard let first = covered.map(\.firstHour).min(), let last = covered.map({ $0.firstHour + $0.count - 1 }).max() else { return [] }
        let grid = HourGrid(series, first: first, last: last, ids: ids, weights: weights)
        var result: [ConsensusHour] = []
        result.reserveCapacity(last - first + 1)
        let providers = ids.count
        grid.values.withUnsafeBufferPointer { values in
            grid.origins.withUnsafeBufferPointer { origins in
                grid.conditions.withUnsafeBufferPointer { conditions in
                    withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * providers) { numbers in
                        withUnsafeTemporaryAllocation(of: Bool.self, capacity: providers) { isOutlier in
                            let scratch = FieldScratch(
                                values: UnsafeMutableBufferPointer(rebasing: numbers[0..<providers]),
                                weights: UnsafeMutableBufferPointer(rebasing: numbers[providers..<(2 * providers)]), isOutlier: isOutlier)
                            for hour in first...last {
                                if let merged = self.hour(hour, first: first, grid, values, origins, conditions, scratch) { result.append(merged) }
                            }
                        }
                    }
                }
            }
        }
        return result
    }

    /// Room for one field's usable values, their weights and outlier marks.
    private struct FieldScratch {
        var values: UnsafeMutableBufferPointer<Double>
        var weights: UnsafeMutableBufferPointer<Double>
        var isOutlier: UnsafeMutableBufferPointer<Bool>
    }

    /// The merge of one grid hour, nil when no provider has anything for it.
    private func hour(
        _ hour: Int, first: Int, _ grid: HourGrid, _ values: UnsafeBufferPointer<Double>, _ origins: UnsafeBufferPointer<ValueOrigin>,
        _ conditions: UnsafeBufferPointer<HourGrid.HeldCondition?>, _ scratch: FieldScratch
    ) -> ConsensusHour? {
        let providers = ids.count
        let time = Date(timeIntervalSince1970: Double(hour) * 3600)
        let lead = leadHours(time)
        let factor = leadFactor(lead)
        let row = (hour - first) * QuantitySlot.count * providers
        var anyField = false
        // The mean confidence's sum, in slot order as `meanConfidence` adds it.
        var confidenceSum = 0.0
        var confidenceCount = 0
        let fields = [MergedField?](unsafeUninitializedCapacity: QuantitySlot.count) { buffer, initialized in
            for slot in 0..<QuantitySlot.count {
                let confidence = self.field(
                    into: buffer.baseAddress! + slot, slot, base: row + slot * providers, factor: factor, grid, values, origins, scratch,
                    anyField: &anyField)
                if let confidence {
                    confidenceSum += confidence
                    confidenceCount += 1
                }
            }
            initialized = QuantitySlot.count
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
        if let merged {
            confidenceSum += merged.confidence
            confidenceCount += 1
        }
        return ConsensusHour(
            time: time, utcOffsetSeconds: calendar.utcOffsetSeconds(at: time), leadHours: lead, fields: fields, condition: merged,
            confidence: confidenceCount > 0 ? confidenceSum / Double(confidenceCount) : nil)
    }

    /// Initializes `destination` to the merge of one quantity slot of an hour (built in place, so never copied), its inputs at
    /// `base` in the grid, and returns its confidence; sets `anyField` when some provider has a value.
    @inline(__always)
    private func field(
        into destination: UnsafeMutablePointer<MergedField?>, _ slot: Int, base: Int, factor: Double, _ grid: HourGrid,
        _ values: UnsafeBufferPointer<Double>, _ origins: UnsafeBufferPointer<ValueOrigin>, _ scratch: FieldScratch, anyField: inout Bool
    ) -> Double? {
        let providers = ids.count
        guard providers <= FieldSources.gridLimit else {
            var present = 0
            for index in 0..<providers where !values[base + index].isNaN { present += 1 }
            destination.initialize(to: nil)
            guard present > 0 else { return nil }
            anyField = true
            guard present >= minimumSources else { return nil }
            destination.pointee = listedField(slot, base: base, present: present, factor: factor, values, origins)
            return destination.pointee?.confidence
        }
        // The providers with a value (usable or not) and those with a usable one, whose values and weights go to the scratch.
        var present = 0
        var usable = 0
        var given: UInt32 = 0
        var absent: UInt32 = 0
        for index in 0..<providers {
            let value = values[base + index]
            let bit: UInt32 = 1 << UInt32(index)
            if value.isNaN {
                absent |= bit
                continue
            }
            present += 1
            let weight = weights[index]
            guard value.isFinite, weight > 0, weight.isFinite else { continue }
            scratch.values[usable] = value
            scratch.weights[usable] = weight
            scratch.isOutlier[usable] = false
            given |= bit
            usable += 1
        }
        guard present > 0 else {
            destination.initialize(to: nil)
            return nil
        }
        anyField = true
        guard present >= minimumSources, usable > 0 else {
            destination.initialize(to: nil)
            return nil
        }
        let statistics = FieldMerge.statistics(
            values: UnsafeMutableBufferPointer(rebasing: scratch.values[0..<usable]),
            weights: UnsafeBufferPointer(rebasing: scratch.weights[0..<usable]),
            isOutlier: UnsafeMutableBufferPointer(rebasing: scratch.isOutlier[0..<usable]), floor: hourlyFloors[slot],
            circular: hourlyCircular[slot], leadFactor: factor, rules: rules)
        var outliers: UInt32 = 0
        var position = 0
        for index in 0..<providers where given & (1 << UInt32(index)) != 0 {
            if scratch.isOutlier[position] { outliers |= 1 << UInt32(index) }
            position += 1
        }
        destination.initialize(to: MergedField(statistics, sources: .grid(grid, base: base, inputs: given, absent: absent, outliers: outliers)))
        return statistics.confidence
    }

    /// The field of slot `slot` with its inputs listed, for merges of more providers than the grid's bit sets hold.
    private func listedField(
        _ slot: Int, base: Int, present: Int, factor: Double, _ values: UnsafeBufferPointer<Double>, _ origins: UnsafeBufferPointer<ValueOrigin>
    ) -> MergedField? {
        let providers = ids.count
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
        return FieldMerge.merge(
            owning: &inputs, missing: missing, floor: hourlyFloors[slot], circular: hourlyCircular[slot], leadFactor: factor, rules: rules)
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
/// condition at `(h − first) × providers + p`; with the providers' ids and weights, so merged fields can read their inputs from it.
final class HourGrid: Sendable {
    /// A provider's condition for an hour and whether it was held over a longer step.
    struct HeldCondition: Sendable {
        var condition: Condition
        var isHeld: Bool
    }

    let ids: [String]
    let weights: [Double]
    let values: [Double]
    let origins: [ValueOrigin]
    let conditions: [HeldCondition?]

    init(_ series: [AlignedSeries], first: Int, last: Int, ids: [String], weights: [Double]) {
        let providers = series.count
        let hours = last - first + 1
        let slots = QuantitySlot.count
        self.ids = ids
        self.weights = weights
        var values = [Double](repeating: .nan, count: hours * slots * providers)
        var origins = [ValueOrigin](repeating: .given, count: hours * slots * providers)
        var conditions = [HeldCondition?](repeating: nil, count: hours * providers)
        for (provider, aligned) in series.enumerated() where aligned.count > 0 {
            let offset = aligned.firstHour - first
            // Every position written lies inside the block: `first...last` covers each series' hours.
            values.withUnsafeMutableBufferPointer { values in
                origins.withUnsafeMutableBufferPointer { origins in
                    aligned.columns.withUnsafeBufferPointer { columns in
                        aligned.interpolated.withUnsafeBufferPointer { interpolated in
                            for slot in 0..<slots {
                                let isDerived = aligned.derivedSlots & (1 << UInt32(slot)) != 0
                                let column = slot * aligned.count
                                var position = (offset * slots + slot) * providers + provider
                                for index in 0..<aligned.count {
                                    let value = columns[column + index]
                                    if !value.isNaN {
                                        values[position] = value
                                        origins[position] = isDerived ? .derived : interpolated[column + index] ? .interpolated : .given
                                    }
                                    position += slots * providers
                                }
                            }
                        }
                    }
                }
            }
            for index in 0..<aligned.count {
                if let condition = aligned.conditions[index] {
                    conditions[(offset + index) * providers + provider] = HeldCondition(condition: condition, isHeld: aligned.conditionHeld[index])
                }
            }
        }
        self.values = values
        self.origins = origins
        self.conditions = conditions
    }
}
