import FoundationEssentials
import IsobarCore

extension ConsensusMerger {
    /// Every grid hour at which some provider has a value or a condition, merged.
    func hourly() -> [ConsensusHour] {
        let covered = series.filter { $0.count > 0 }
        guard let first = covered.map(\.firstHour).min(), let last = covered.map({ $0.firstHour + $0.count - 1 }).max() else { return [] }
        var result: [ConsensusHour] = []
        result.reserveCapacity(last - first + 1)
        for hour in first...last {
            if let merged = self.hour(hour) { result.append(merged) }
        }
        return result
    }

    /// The merge of one grid hour, nil when no provider has anything for it.
    func hour(_ hour: Int) -> ConsensusHour? {
        let time = Date(timeIntervalSince1970: Double(hour) * 3600)
        let lead = leadHours(time)
        var fields = [MergedField?](repeating: nil, count: QuantitySlot.count)
        var anyField = false
        for quantity in Quantity.allCases {
            let slot = quantity.consensusSlot
            var inputs: [ProviderValue] = []
            inputs.reserveCapacity(series.count)
            var missing: [String] = []
            for index in series.indices {
                if let point = series[index].point(quantity, hour: hour) {
                    inputs.append(ProviderValue(
                        provider: ids[index], value: point.value, weight: weights[index], origin: series[index].derivedQuantities.contains(quantity) ? .derived : point.isInterpolated ? .interpolated : .given))
                } else {
                    missing.append(ids[index])
                }
            }
            guard !inputs.isEmpty else { continue }
            anyField = true
            fields[slot] = field(inputs, missing: missing, floor: hourlyFloors[slot], circular: quantity.spec.interpolation == .circular, leadHours: lead)
        }
        var votes: [ConditionVote] = []
        var missing: [String] = []
        var evidence: [PrecipitationEvidence] = []
        for index in series.indices {
            if let (condition, isHeld) = series[index].condition(hour: hour) {
                votes.append(ConditionVote(provider: ids[index], condition: condition, weight: weights[index], origin: isHeld ? .interpolated : .given))
            } else {
                missing.append(ids[index])
            }
            let amount = series[index].point(.precipitationRate, hour: hour)?.value
            let probability = series[index].point(.precipitationProbability, hour: hour)?.value
            if amount != nil || probability != nil { evidence.append(PrecipitationEvidence(amountMM: amount, probabilityPercent: probability)) }
        }
        guard anyField || !votes.isEmpty else { return nil }
        let merged = condition(votes, evidence: evidence, missing: missing, leadHours: lead)
        return ConsensusHour(
            time: time, utcOffsetSeconds: calendar.utcOffsetSeconds(at: time), leadHours: lead, fields: fields, condition: merged,
            confidence: Self.meanConfidence(fields, merged))
    }
}
