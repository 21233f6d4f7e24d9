import FoundationEssentials
import IsobarCore

extension ConsensusMerger {
    /// Merged current conditions at the latest observation time, lead time 0.
    func current() -> ConsensusHour? {
        guard let time = reports.compactMap(\.current?.time).max() else { return nil }
        var fields = [MergedField?](repeating: nil, count: QuantitySlot.count)
        for quantity in QuantitySlot.all {
            var inputs: [ProviderValue] = []
            var missing: [String] = []
            for index in reports.indices {
                if let current = reports[index].current, let value = current[quantity] {
                    let origin: ValueOrigin = current.derivedQuantities.contains(quantity) ? .derived : .given
                    inputs.append(ProviderValue(provider: ids[index], value: value, weight: weights[index], origin: origin))
                } else {
                    missing.append(ids[index])
                }
            }
            fields[quantity.consensusSlot] = field(
                inputs, missing: missing, floor: hourlyFloors[quantity.consensusSlot], circular: hourlyCircular[quantity.consensusSlot], leadFactor: 1)
        }
        var votes: [ConditionVote] = []
        var missing: [String] = []
        var evidence: [PrecipitationEvidence] = []
        for index in reports.indices {
            guard let sample = reports[index].current else {
                missing.append(ids[index])
                continue
            }
            if let condition = sample.condition {
                votes.append(ConditionVote(provider: ids[index], condition: condition, weight: weights[index]))
            } else {
                missing.append(ids[index])
            }
            evidence.append(PrecipitationEvidence(amountMM: sample.precipitationMM, probabilityPercent: sample.precipitationProbabilityPercent))
        }
        let merged = condition(votes, evidence: evidence, missing: missing, leadHours: 0)
        return ConsensusHour(
            time: time, utcOffsetSeconds: calendar.utcOffsetSeconds(at: time), leadHours: 0, fields: fields, condition: merged,
            confidence: Self.meanConfidence(fields, merged))
    }
}
