import FoundationEssentials
import IsobarConsensus
import IsobarCore
import Synchronization

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

/// One line of an archive export, as read: a forecast step or an observation.
public enum ArchivedRecord: Sendable, Equatable {
    /// A forecast step.
    case step(ArchivedStep)
    /// An observation.
    case observation(ArchivedObservation)
}

/// What the source of a streamed import hands over next.
public enum ArchiveImportBatch: Sendable {
    /// Records to add: a bounded number, since the import holds one batch in memory at a time.
    case records([ArchivedRecord])
    /// The input ended: what was added is kept.
    case end
    /// The input is refused: nothing it added is kept.
    case refused
}

extension UserDataStore {
    /// Adds steps and observations read from another archive's export, skipping those already archived (same place,
    /// provider or source, issue and valid time); new steps are folded into the skill record with the next fold, and
    /// steps an imported observation now stands for wait for it again.
    @discardableResult
    public func importArchive(steps: [ArchivedStep], observations: [ArchivedObservation]) async throws(UserDataError) -> ArchiveImportCount {
        let batches = [ArchiveImportBatch.records(steps.map(ArchivedRecord.step)), .records(observations.map(ArchivedRecord.observation))]
        let handed = Mutex(0)
        let next: @Sendable () -> ArchiveImportBatch = {
            handed.withLock { index in
                defer { index += 1 }
                return index < batches.count ? batches[index] : .end
            }
        }
        return try await importArchive(batches: next) ?? ArchiveImportCount()
    }

    /// Adds the records `next` hands over, batch by batch until `.end`, as `importArchive(steps:observations:)` does, in
    /// one transaction: all are kept, or, when `next` says `.refused` (or a write fails), none, and the answer is nil.
    /// `next` is called on the store's thread, so it may block reading its input; only one batch is in memory at a time.
    public func importArchive(batches next: @escaping @Sendable () -> ArchiveImportBatch) async throws(UserDataError) -> ArchiveImportCount? {
        try await write { connection throws(StoreError) in
            try connection.execute("SAVEPOINT archive_import")
            var count = ArchiveImportCount()
            while true {
                switch next() {
                case .records(let records):
                    for record in records { try Self.insert(record, connection, counting: &count) }
                case .end:
                    try connection.execute("RELEASE archive_import")
                    return count
                case .refused:
                    try connection.execute("ROLLBACK TO archive_import; RELEASE archive_import")
                    return nil
                }
            }
        }
    }

    private static func insert(_ record: ArchivedRecord, _ connection: Connection, counting count: inout ArchiveImportCount) throws(StoreError) {
        switch record {
        case .step(let step):
            try connection.query("""
                INSERT OR IGNORE INTO archive_steps(provider, latitude, longitude, issued_at, valid_at, period_hours, condition, fields)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(step.provider), .real(rounded(step.latitude)), .real(rounded(step.longitude)),
                      .integer(Int64(step.issuedAt.timeIntervalSince1970.rounded())), .integer(Int64(step.validAt.timeIntervalSince1970.rounded())),
                      .real(step.periodHours), step.condition.map { SQLValue.text($0) } ?? .null, .text(fields(step.values))])
            count.steps += connection.changes
        case .observation(let observation):
            let (latitude, longitude) = (rounded(observation.latitude), rounded(observation.longitude))
            let time = Int64(observation.observedAt.timeIntervalSince1970.rounded())
            try connection.query("""
                INSERT OR IGNORE INTO archive_observations(source, station, latitude, longitude, observed_at, condition, fields)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.text(observation.source), .text(observation.station), .real(latitude), .real(longitude), .integer(time),
                      observation.condition.map { SQLValue.text($0) } ?? .null, .text(fields(observation.values))])
            guard connection.changes > 0 else { return }
            count.observations += 1
            try reopenSteps(connection, latitude: latitude, longitude: longitude, observedAt: time)
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
