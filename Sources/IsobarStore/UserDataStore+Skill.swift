import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine

extension UserDataStore {
    /// What the consensus learns near `place` (every place when nil), as of `now`: the archived steps not yet folded into
    /// the stored record are folded in first (`foldSkill`), then the record is read. `families` names each source's
    /// declared upstream.
    public func skillRecord(near place: Place?, now: Date, settings: ConsensusLearning, families: [String: String] = [:],
                            configuration: ConsensusConfiguration = ConsensusConfiguration()) async throws(UserDataError) -> SkillRecord {
        try await foldSkill(families: families, configuration: configuration)
        let ledger = try await skillLedger(near: place)
        return ledger.record(near: place.map(Self.placeKey), now: now, settings: settings, families: families, configuration: configuration)
    }

    /// The place key of the record's groups: the archive's rounded coordinates.
    public static func placeKey(_ place: Place) -> String {
        let (latitude, longitude) = rounded(place.coordinate)
        return "\(latitude),\(longitude)"
    }

    /// Folds every archived step that an observation now stands for, and that was not folded before, into the stored
    /// record; returns how many steps were settled. A place's steps are due once its latest observation is at or past
    /// their valid time (no later report can be nearer), so the work is what arrived since the last fold, never the
    /// archive. A step no observation stands for waits (`folded` = 2) until one arrives near its valid time.
    @discardableResult
    public func foldSkill(families: [String: String] = [:], configuration: ConsensusConfiguration = ConsensusConfiguration())
        async throws(UserDataError) -> Int {
        try await write { connection throws(StoreError) in
            var settled = 0
            let cells = try connection.query("SELECT latitude, longitude, max(observed_at) FROM archive_observations GROUP BY latitude, longitude")
            for cell in cells {
                guard let latitude = cell[0].double, let longitude = cell[1].double, let latest = cell[2].double else { continue }
                let due = Int64(latest)
                let place: [SQLValue] = [.real(latitude), .real(longitude)]
                let before = try Self.ledger(connection, latitude: latitude, longitude: longitude)
                var folder = SkillFolder(before, declared: families, configuration: configuration)
                // A few days of valid times at a time, in time order: a long archive's first fold stays small in memory.
                while let start = try connection.query("""
                    SELECT min(valid_at) FROM archive_steps WHERE folded = 0 AND latitude = ? AND longitude = ? AND valid_at <= ?
                    """, place + [.integer(due)]).first?.first?.int.map(Int64.init) {
                    let end = min(due, start + Self.foldChunkSeconds - 1)
                    let range: [SQLValue] = place + [.integer(start), .integer(end)]
                    let rows = try connection.query("""
                        SELECT provider, issued_at, valid_at, period_hours, condition, fields FROM archive_steps
                        WHERE folded = 0 AND latitude = ? AND longitude = ? AND valid_at BETWEEN ? AND ?
                        """, range).compactMap { row -> (step: ArchivedStep, key: [SQLValue])? in
                        guard let provider = row[0].text, let issued = row[1].double, let valid = row[2].double, let fields = row[5].text else { return nil }
                        return (ArchivedStep(provider: provider, latitude: latitude, longitude: longitude, issuedAt: Date(timeIntervalSince1970: issued),
                                             validAt: Date(timeIntervalSince1970: valid), periodHours: row[3].double ?? 1, condition: row[4].text,
                                             values: Self.values(fields)), [row[0], row[2], row[1]])
                    }
                    let steps = rows.map(\.step)
                    if !steps.isEmpty {
                        let first = steps.map(\.issuedAt.timeIntervalSince1970).min()! - 5_400
                        let last = steps.map(\.validAt.timeIntervalSince1970).max()! + SkillFolder.matchWithinSeconds
                        let observations = try Self.observations(connection, latitude: latitude, longitude: longitude, from: first, to: last)
                        let matched = folder.fold(steps, observations: observations)
                        // Only the steps left unmatched wait: a step folded just now beside them at the same valid time stays folded.
                        for index in steps.indices where !matched[index] {
                            try connection.query("""
                                UPDATE archive_steps SET folded = 2
                                WHERE folded = 0 AND latitude = ? AND longitude = ? AND provider = ? AND valid_at = ? AND issued_at = ?
                                """, place + rows[index].key)
                        }
                        settled += steps.count
                    }
                    try connection.query("UPDATE archive_steps SET folded = 1 WHERE folded = 0 AND latitude = ? AND longitude = ? AND valid_at BETWEEN ? AND ?",
                                         range)
                }
                try Self.save(folder.ledger, replacing: before, connection, latitude: latitude, longitude: longitude)
            }
            return settled
        }
    }

    /// The valid times folded together, in seconds: three days.
    static let foldChunkSeconds: Int64 = 3 * 86_400

    /// The stored record near `place` (every place when nil), as folded so far.
    public func skillLedger(near place: Place? = nil) async throws(UserDataError) -> SkillLedger {
        let coordinates = place.map { Self.rounded($0.coordinate) }
        return try await read { connection throws(StoreError) in
            try Self.ledger(connection, latitude: coordinates?.0, longitude: coordinates?.1)
        }
    }

    /// Makes the steps near an observation's time wait for folding again when no observation stood for them before.
    static func reopenSteps(_ connection: Connection, latitude: Double, longitude: Double, observedAt: Int64) throws(StoreError) {
        let window = Int64(SkillFolder.matchWithinSeconds)
        try connection.query("""
            UPDATE archive_steps SET folded = 0 WHERE folded = 2 AND latitude = ? AND longitude = ? AND valid_at BETWEEN ? AND ?
            """, [.real(latitude), .real(longitude), .integer(observedAt - window), .integer(observedAt + window)])
    }

    private static func observations(_ connection: Connection, latitude: Double, longitude: Double, from: Double, to: Double)
        throws(StoreError) -> [ArchivedObservation] {
        try connection.query("""
            SELECT source, station, observed_at, condition, fields FROM archive_observations
            WHERE latitude = ? AND longitude = ? AND observed_at BETWEEN ? AND ?
            """, [.real(latitude), .real(longitude), .integer(Int64(from.rounded(.down))), .integer(Int64(to.rounded(.up)))]).compactMap { row in
            guard let source = row[0].text, let station = row[1].text, let observed = row[2].double, let fields = row[4].text else { return nil }
            return ArchivedObservation(source: source, station: station, latitude: latitude, longitude: longitude,
                                       observedAt: Date(timeIntervalSince1970: observed), condition: row[3].text, values: values(fields))
        }
    }
}
