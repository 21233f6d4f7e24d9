import FoundationEssentials
import IsobarCore

/// The v1 merge: providers aligned on a UTC hour grid, local days in the place's zone, a robust weighted merge per
/// field with outliers, a checked condition vote, and provenance and confidence for every value.
public enum ConsensusV1 {
    /// Merges the reports in the place's zone (loaded from `configuration.zoneDirectory`, else a fixed UTC offset).
    ///
    /// `weights` maps source ids to weights (missing: the weight of the source's provider, else 1; 0, negative or NaN: left
    /// out); `sources` says which family each source id belongs to (missing: its own), and `familyWeight` how much a
    /// family weighs together; `now` is the reference time lead times are counted from.
    public static func merge(
        _ reports: [WeatherReport], place: Place, weights: [String: Double] = [:], sources: [String: SourceIdentity] = [:],
        familyWeight: FamilyWeight = .one, now: Date, configuration: ConsensusConfiguration = ConsensusConfiguration()
    ) -> ConsensusResult {
        let calendar = LocalCalendar.resolve(place: place, reports: reports, zoneDirectory: configuration.zoneDirectory)
        return merge(reports, place: place, weights: weights, sources: sources, familyWeight: familyWeight, now: now, calendar: calendar,
                     configuration: configuration)
    }

    /// Merges the reports with local days from `calendar`.
    public static func merge(
        _ reports: [WeatherReport], place: Place, weights: [String: Double] = [:], sources: [String: SourceIdentity] = [:],
        familyWeight: FamilyWeight = .one, now: Date, calendar: LocalCalendar, configuration: ConsensusConfiguration = ConsensusConfiguration()
    ) -> ConsensusResult {
        var merger = ConsensusMerger(now: now, calendar: calendar, configuration: configuration)
        var excluded: [String] = []
        var usedWeights: [String: Double] = [:]
        var families: [String: String] = [:]
        for report in reports {
            let id = report.providerID
            let weight = weights[id] ?? sources[id].flatMap { weights[$0.providerID] } ?? 1
            guard weight > 0, weight.isFinite else {
                excluded.append(id)
                continue
            }
            usedWeights[id] = weight
            families[id] = sources[id]?.family ?? id
            merger.ids.append(id)
            merger.reports.append(report)
            merger.series.append(AlignedSeries(provider: id, steps: report.hourly, maxGapHours: configuration.maxInterpolationGapHours))
        }
        // A family's size counts distinct sources: one source listed twice is counted twice, as its weight is (weight 2 = twice).
        var members: [String: Int] = [:]
        for id in Set(merger.ids) { members[families[id]!, default: 0] += 1 }
        var mergeWeights: [String: Double] = [:]
        for id in merger.ids {
            let weight = usedWeights[id]! * familyWeight.factor(members: members[families[id]!]!)
            mergeWeights[id] = weight
            merger.weights.append(weight)
        }
        var result = ConsensusResult(
            place: place, providers: merger.ids, excluded: excluded, weights: usedWeights, referenceTime: now,
            zone: calendar.zone, zoneFallbackReason: calendar.fallbackReason,
            current: merger.current(), hourly: merger.hourly(), daily: merger.daily())
        result.families = families
        result.mergeWeights = mergeWeights
        return result
    }
}
