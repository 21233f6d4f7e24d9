import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine

extension UserDataStore {
    /// What one backfill folded: the pairs of forecast and observation, and the forecasts no observation stood for or
    /// already folded before.
    public struct BackfillTally: Sendable, Equatable {
        /// Past forecasts paired with an observation and folded in.
        public var folded = 0
        /// Past forecasts left out: no observation within 30 minutes of their hour, or already folded by an earlier backfill.
        public var skipped = 0
    }

    /// Folds past forecasts (`isobar learn`) paired with past observations of `station` near `place` into the stored
    /// record, as the archive's own steps are folded (same pairing, same decayed sums, the configured `families`), each
    /// pair also counted in its source's backfill sums so that the record says where a weight came from. Forecasts for
    /// hours no later than an earlier backfill's last are skipped, so running it again folds only what is new.
    public func foldBackfill(_ forecasts: [PastForecast], observations: [WeatherSample], source: String, station: String, place: Place,
                             families: [String: String] = [:], configuration: ConsensusConfiguration = ConsensusConfiguration())
        async throws(UserDataError) -> BackfillTally {
        let (latitude, longitude) = Self.rounded(place.coordinate)
        return try await write { connection throws(StoreError) in
            let before = try Self.ledger(connection, latitude: latitude, longitude: longitude)
            let done = before.latestBackfill
            let due = forecasts.filter { forecast in done.map { forecast.validAt.timeIntervalSince1970 > $0 } ?? true }
            let steps = due.sorted { ($0.validAt, $0.issuedAt, $0.source) < ($1.validAt, $1.issuedAt, $1.source) }.map {
                ArchivedStep(provider: $0.source, latitude: latitude, longitude: longitude, issuedAt: $0.issuedAt, validAt: $0.validAt,
                             periodHours: 1, condition: nil, values: [Quantity.temperature.rawValue: $0.temperatureC])
            }
            let truths = observations.compactMap { sample in
                sample.temperatureC.map {
                    ArchivedObservation(source: source, station: station, latitude: latitude, longitude: longitude, observedAt: sample.time,
                                        condition: nil, values: [Quantity.temperature.rawValue: $0])
                }
            }
            var folder = SkillFolder(before, declared: families, configuration: configuration)
            folder.marksBackfill = true
            let matched = folder.fold(steps, observations: truths)
            try Self.save(folder.ledger, replacing: before, connection, latitude: latitude, longitude: longitude)
            let folded = matched.filter { $0 }.count
            return BackfillTally(folded: folded, skipped: forecasts.count - folded)
        }
    }
}
