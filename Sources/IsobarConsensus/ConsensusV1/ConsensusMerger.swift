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
    /// True by slot for quantities merged on the circle.
    let hourlyCircular: [Bool]
    /// Floors of the daily quantities by slot.
    let dailyFloors: [Double]
    /// The constants a field merge reads.
    let rules: MergeRules
    /// The fewest sources a field needs (at least 1).
    let minimumSources: Int

    init(now: Date, calendar: LocalCalendar, configuration: ConsensusConfiguration) {
        self.now = now
        self.calendar = calendar
        self.configuration = configuration
        var floors = [Double](repeating: 1, count: QuantitySlot.count)
        var circular = [Bool](repeating: false, count: QuantitySlot.count)
        for quantity in QuantitySlot.all {
            floors[quantity.consensusSlot] = configuration.floor(quantity)
            circular[quantity.consensusSlot] = quantity.spec.interpolation == .circular
        }
        hourlyFloors = floors
        hourlyCircular = circular
        dailyFloors = QuantitySlot.allDaily.map { configuration.floor($0) }
        rules = MergeRules(configuration)
        minimumSources = max(1, configuration.minimumSources)
    }

    /// Hours from the reference time to an instant, 0 when not ahead.
    func leadHours(_ instant: Date) -> Double { max(0, instant.timeIntervalSince(now) / 3600) }

    /// The lead-time factor of confidence for values `leadHours` ahead.
    func leadFactor(_ leadHours: Double) -> Double {
        ConsensusConfidence.leadTime(hours: leadHours, halfLifeHours: rules.leadTimeHalfLifeHours)
    }

    /// Merges one quantity's inputs, or nil when there are fewer than the minimum number of sources.
    func field(_ inputs: [ProviderValue], missing: [String], floor: Double, circular: Bool, leadFactor: Double) -> MergedField? {
        guard inputs.count >= minimumSources else { return nil }
        var inputs = inputs
        return FieldMerge.merge(owning: &inputs, missing: missing, floor: floor, circular: circular, leadFactor: leadFactor, rules: rules)
    }

    /// The condition vote, or nil when there are fewer votes than the minimum number of sources.
    func condition(_ votes: consuming [ConditionVote], dry: Bool, missing: [String], leadFactor: Double) -> MergedConditionV1? {
        guard votes.count >= minimumSources else { return nil }
        return ConditionMerge.merge(owning: votes, dry: dry, missing: missing, leadFactor: leadFactor)
    }

    /// The condition vote with the precipitation evidence, or nil when there are fewer votes than the minimum number of sources.
    func condition(_ votes: consuming [ConditionVote], evidence: [PrecipitationEvidence], missing: [String], leadHours: Double) -> MergedConditionV1? {
        condition(votes, dry: ConditionMerge.isDry(evidence, configuration: configuration), missing: missing, leadFactor: leadFactor(leadHours))
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
