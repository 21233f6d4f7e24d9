import FoundationEssentials
import IsobarCore

/// Merges the providers' current conditions, hours and days; provider `i` is `ids[i]`, `weights[i]`, `reports[i]`, `series[i]`.
struct ConsensusMerger {
    var now: Date
    var calendar: LocalCalendar
    var configuration: ConsensusConfiguration
    var ids: [String] = []
    var weights: [Double] = []
    var reports: [WeatherReport] = []
    var series: [AlignedSeries] = []
    /// Floors of the hourly quantities by slot, so the hot loop does no dictionary lookups.
    let hourlyFloors: [Double]

    init(now: Date, calendar: LocalCalendar, configuration: ConsensusConfiguration) {
        self.now = now
        self.calendar = calendar
        self.configuration = configuration
        var floors = [Double](repeating: 1, count: QuantitySlot.count)
        for quantity in Quantity.allCases { floors[quantity.consensusSlot] = configuration.floor(quantity) }
        hourlyFloors = floors
    }

    /// Hours from the reference time to an instant, 0 when not ahead.
    func leadHours(_ instant: Date) -> Double { max(0, instant.timeIntervalSince(now) / 3600) }

    /// Merges one quantity's inputs, or nil when there are fewer than the minimum number of sources.
    func field(_ inputs: [ProviderValue], missing: [String], floor: Double, circular: Bool, leadHours: Double) -> MergedField? {
        guard inputs.count >= max(1, configuration.minimumSources) else { return nil }
        return FieldMerge.merge(inputs, missing: missing, floor: floor, circular: circular, leadHours: leadHours, configuration: configuration)
    }

    /// The condition vote, or nil when there are fewer votes than the minimum number of sources.
    func condition(_ votes: [ConditionVote], evidence: [PrecipitationEvidence], missing: [String], leadHours: Double) -> MergedConditionV1? {
        guard votes.count >= max(1, configuration.minimumSources) else { return nil }
        return ConditionMerge.merge(votes, evidence: evidence, missing: missing, leadHours: leadHours, configuration: configuration)
    }

    /// The mean of the confidences present.
    static func meanConfidence(_ fields: some Sequence<MergedField?>, _ condition: MergedConditionV1?) -> Double? {
        var sum = 0.0
        var count = 0
        for field in fields {
            guard let field else { continue }
            sum += field.confidence
            count += 1
        }
        if let condition {
            sum += condition.confidence
            count += 1
        }
        return count > 0 ? sum / Double(count) : nil
    }
}
