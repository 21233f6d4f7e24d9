import FoundationEssentials
import IsobarCore

/// What an import added to the archive.
public struct ArchiveImportCount: Sendable, Equatable {
    /// Forecast steps added (those already archived are skipped).
    public var steps = 0
    /// Observations added (those already archived are skipped).
    public var observations = 0

    /// Counts.
    public init(steps: Int = 0, observations: Int = 0) {
        self.steps = steps
        self.observations = observations
    }
}

extension UserDataStore {
    /// Adds steps and observations read from another archive's export, skipping those already archived (same place,
    /// provider or source, issue and valid time); new steps are folded into the skill record with the next fold, and
    /// steps an imported observation now stands for wait for it again.
    @discardableResult
    public func importArchive(steps: [ArchivedStep], observations: [ArchivedObservation]) async throws(UserDataError) -> ArchiveImportCount {
        let stepRows: [[SQLValue]] = steps.map { step in
            let (latitude, longitude) = (Self.rounded(step.latitude), Self.rounded(step.longitude))
            return [.text(step.provider), .real(latitude), .real(longitude), .integer(Int64(step.issuedAt.timeIntervalSince1970.rounded())),
                    .integer(Int64(step.validAt.timeIntervalSince1970.rounded())), .real(step.periodHours),
                    step.condition.map { SQLValue.text($0) } ?? .null, .text(Self.fields(step.values))]
        }
        let observationRows: [[SQLValue]] = observations.map { observation in
            let (latitude, longitude) = (Self.rounded(observation.latitude), Self.rounded(observation.longitude))
            return [.text(observation.source), .text(observation.station), .real(latitude), .real(longitude),
                    .integer(Int64(observation.observedAt.timeIntervalSince1970.rounded())),
                    observation.condition.map { SQLValue.text($0) } ?? .null, .text(Self.fields(observation.values))]
        }
        return try await write { connection throws(StoreError) in
            var count = ArchiveImportCount()
            for row in stepRows {
                try connection.query("""
                    INSERT OR IGNORE INTO archive_steps(provider, latitude, longitude, issued_at, valid_at, period_hours, condition, fields)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, row)
                count.steps += connection.changes
            }
            for row in observationRows {
                try connection.query("""
                    INSERT OR IGNORE INTO archive_observations(source, station, latitude, longitude, observed_at, condition, fields)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, row)
                guard connection.changes > 0, let latitude = row[2].double, let longitude = row[3].double, case .integer(let time) = row[4] else { continue }
                count.observations += 1
                try Self.reopenSteps(connection, latitude: latitude, longitude: longitude, observedAt: time)
            }
            return count
        }
    }

    /// A coordinate rounded as the archive keeps it, to 0.01°.
    static func rounded(_ degrees: Double) -> Double { (degrees * 100).rounded() / 100 }

    /// Values as the archive's compact JSON object by quantity id, to a tenth.
    static func fields(_ values: [String: Double]) -> String {
        let members = Quantity.allCases.compactMap { quantity -> String? in
            guard let value = values[quantity.rawValue], value.isFinite else { return nil }
            return "\"\(quantity.rawValue)\":\(JSONOutput.format((value * 10).rounded() / 10))"
        }
        return "{" + members.joined(separator: ",") + "}"
    }
}
