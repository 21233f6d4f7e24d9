import FoundationEssentials
import IsobarCore

/// The v1 merge: providers aligned on a UTC hour grid, local days in the place's zone, a robust weighted merge per
/// field with outliers, a checked condition vote, and provenance and confidence for every value.
public enum ConsensusV1 {
    /// Merges the reports in the place's zone (loaded from `configuration.zoneDirectory`, else a fixed UTC offset).
    ///
    /// `weights` maps provider ids to weights (missing: 1; 0, negative or NaN: left out); `now` is the reference
    /// time lead times are counted from.
    public static func merge(
        _ reports: [WeatherReport], place: Place, weights: [String: Double] = [:], now: Date,
        configuration: ConsensusConfiguration = ConsensusConfiguration()
    ) -> ConsensusResult {
        let calendar = LocalCalendar.resolve(place: place, reports: reports, zoneDirectory: configuration.zoneDirectory)
        return merge(reports, place: place, weights: weights, now: now, calendar: calendar, configuration: configuration)
    }

    /// Merges the reports with local days from `calendar`.
    public static func merge(
        _ reports: [WeatherReport], place: Place, weights: [String: Double] = [:], now: Date, calendar: LocalCalendar,
        configuration: ConsensusConfiguration = ConsensusConfiguration()
    ) -> ConsensusResult {
        var merger = ConsensusMerger(now: now, calendar: calendar, configuration: configuration)
        var excluded: [String] = []
        var usedWeights: [String: Double] = [:]
        for report in reports {
            let weight = weights[report.providerID] ?? 1
            guard weight > 0, weight.isFinite else {
                excluded.append(report.providerID)
                continue
            }
            usedWeights[report.providerID] = weight
            merger.ids.append(report.providerID)
            merger.weights.append(weight)
            merger.reports.append(report)
            merger.series.append(AlignedSeries(provider: report.providerID, steps: report.hourly, maxGapHours: configuration.maxInterpolationGapHours))
        }
        return ConsensusResult(
            place: place, providers: merger.ids, excluded: excluded, weights: usedWeights, referenceTime: now,
            zone: calendar.zone, zoneFallbackReason: calendar.fallbackReason,
            current: merger.current(), hourly: merger.hourly(), daily: merger.daily())
    }
}
