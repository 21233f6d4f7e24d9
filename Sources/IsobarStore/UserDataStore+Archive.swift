import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// An observation (or a provider's current values standing in for one) waiting to be archived with others.
public struct ObservationToArchive: Sendable {
    /// What was observed, and when.
    public var sample: WeatherSample
    /// The source's id: `metar`, or `proxy` for a provider's current values.
    public var source: String
    /// The station, or for a proxy the provider's id.
    public var station: String
    /// The place it stands for.
    public var place: Place

    /// Creates one.
    public init(_ sample: WeatherSample, source: String, station: String, place: Place) {
        self.sample = sample
        self.source = source
        self.station = station
        self.place = place
    }
}

/// What the archive holds.
public struct ArchiveStats: Sendable, Equatable {
    /// Archived forecast steps.
    public var steps: Int
    /// Archived observations.
    public var observations: Int
    /// Providers with archived steps, sorted.
    public var providers: [String]
    /// Distinct places (rounded coordinates) with archived steps.
    public var places: Int
    /// The earliest and latest issue times, when there are steps.
    public var issued: ClosedRange<Date>?
}

extension UserDataStore {
    /// Archives a live answer's forecast steps (never its past ones), issued at the hour its fetch fell in; an issue
    /// archived twice in one hour keeps the later. Returns the number of steps written.
    @discardableResult
    public func archive(_ report: WeatherReport) async throws(UserDataError) -> Int {
        let rows = Self.stepRows(report)
        guard !rows.isEmpty else { return 0 }
        return try await write { connection throws(StoreError) in
            try Self.insertSteps(rows, connection)
            return rows.count
        }
    }

    /// Archives an observation of `place` by `source` at `station`; steps near its time that no observation stood for
    /// wait to be folded into the skill record again.
    public func archiveObservation(_ sample: WeatherSample, source: String, station: String, place: Place) async throws(UserDataError) {
        let observation = ObservationToArchive(sample, source: source, station: station, place: place)
        try await write { connection throws(StoreError) in try Self.insertObservation(observation, connection) }
    }

    /// Archives many live answers' forecast steps and many observations in one transaction (as `archive(_:)` and
    /// `archiveObservation` each do one), then, when `pruningBefore` is given, removes what `pruneArchive` would.
    /// Returns the number of steps written.
    @discardableResult
    public func archive(_ reports: [WeatherReport], observations: [ObservationToArchive], pruningBefore cutoff: Date? = nil)
        async throws(UserDataError) -> Int {
        guard reports.contains(where: { !$0.hourly.isEmpty }) || !observations.isEmpty || cutoff != nil else { return 0 }
        return try await write { connection throws(StoreError) in
            // One report's rows at a time: a batch's thousands of steps are never all in memory as rows at once.
            var written = 0
            for report in reports {
                let rows = Self.stepRows(report)
                try Self.insertSteps(rows, connection)
                written += rows.count
            }
            for observation in observations { try Self.insertObservation(observation, connection) }
            if let cutoff { _ = try Self.prune(before: cutoff, connection) }
            return written
        }
    }

    /// The rows of a report's steps from the hour it was fetched in.
    private static func stepRows(_ report: WeatherReport) -> [[SQLValue]] {
        let issuedAt = hourFloor(report.fetchedAt)
        let (latitude, longitude) = rounded(report.place.coordinate)
        return report.hourly.filter { $0.time >= issuedAt }.map { step in
            [.text(report.providerID), .real(latitude), .real(longitude), .integer(Int64(issuedAt.timeIntervalSince1970)),
             .integer(Int64(step.time.timeIntervalSince1970.rounded())), .real(step.periodHours),
             step.condition.map { SQLValue.text($0.id) } ?? .null, .text(fields(of: step))]
        }
    }

    private static func insertSteps(_ rows: [[SQLValue]], _ connection: Connection) throws(StoreError) {
        for row in rows {
            // An upsert, not a replacement: a step already folded into the skill record stays folded.
            try connection.query("""
                INSERT INTO archive_steps(provider, latitude, longitude, issued_at, valid_at, period_hours, condition, fields)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT DO UPDATE SET period_hours = excluded.period_hours, condition = excluded.condition, fields = excluded.fields
                """, row)
        }
    }

    private static func insertObservation(_ observation: ObservationToArchive, _ connection: Connection) throws(StoreError) {
        let (latitude, longitude) = rounded(observation.place.coordinate)
        let sample = observation.sample
        let observedAt = Int64(sample.time.timeIntervalSince1970.rounded())
        try connection.query("""
            INSERT OR REPLACE INTO archive_observations(source, station, latitude, longitude, observed_at, condition, fields)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [.text(observation.source), .text(observation.station), .real(latitude), .real(longitude), .integer(observedAt),
                  sample.condition.map { SQLValue.text($0.id) } ?? .null, .text(fields(of: sample))])
        try reopenSteps(connection, latitude: latitude, longitude: longitude, observedAt: observedAt)
    }

    /// What the archive holds.
    public func archiveStats() async throws(UserDataError) -> ArchiveStats {
        try await read { connection throws(StoreError) in
            let steps = try connection.query("SELECT count(*), min(issued_at), max(issued_at) FROM archive_steps").first ?? []
            let places = try connection.query("SELECT count(*) FROM (SELECT DISTINCT latitude, longitude FROM archive_steps)").first?.first?.int
            let providers = try connection.query("SELECT DISTINCT provider FROM archive_steps ORDER BY provider").compactMap { $0.first?.text }
            let observations = try connection.query("SELECT count(*) FROM archive_observations").first?.first?.int
            var issued: ClosedRange<Date>?
            if steps.count == 3, let first = steps[1].double, let last = steps[2].double {
                issued = Date(timeIntervalSince1970: first)...Date(timeIntervalSince1970: last)
            }
            return ArchiveStats(steps: steps.first?.int ?? 0, observations: observations ?? 0, providers: providers,
                                places: places ?? 0, issued: issued)
        }
    }

    /// Removes steps valid and observations made before `cutoff`; returns how many rows went.
    @discardableResult
    public func pruneArchive(before cutoff: Date) async throws(UserDataError) -> Int {
        try await write { connection throws(StoreError) in try Self.prune(before: cutoff, connection) }
    }

    private static func prune(before cutoff: Date, _ connection: Connection) throws(StoreError) -> Int {
        let seconds = SQLValue.integer(Int64(cutoff.timeIntervalSince1970.rounded(.down)))
        try connection.query("DELETE FROM archive_steps WHERE valid_at < ?", [seconds])
        var removed = try connection.query("SELECT changes()").first?.first?.int ?? 0
        try connection.query("DELETE FROM archive_observations WHERE observed_at < ?", [seconds])
        removed += try connection.query("SELECT changes()").first?.first?.int ?? 0
        return removed
    }

    /// Removes every archived step and observation, and the skill record learned from them (the cities and home stay);
    /// returns how many archive rows went.
    @discardableResult
    public func clearArchive() async throws(UserDataError) -> Int {
        let removed = try await pruneArchive(before: Date(timeIntervalSince1970: 1e12))
        try await write { connection throws(StoreError) in _ = try connection.query("DELETE FROM skill") }
        return removed
    }

    /// Archived steps, in place, provider, valid-time and issue-time order; only those near `place` (same rounded
    /// coordinates) when one is given.
    public func archivedSteps(near place: Place? = nil) async throws(UserDataError) -> [ArchivedStep] {
        let (filter, arguments) = Self.placeFilter(place)
        return try await read { connection throws(StoreError) in
            try connection.query("""
                SELECT provider, latitude, longitude, issued_at, valid_at, period_hours, condition, fields FROM archive_steps \(filter)
                ORDER BY latitude, longitude, provider, valid_at, issued_at
                """, arguments).compactMap { row in
                guard let provider = row[0].text, let latitude = row[1].double, let longitude = row[2].double,
                      let issued = row[3].double, let valid = row[4].double, let period = row[5].double, let fields = row[7].text
                else { return nil }
                return ArchivedStep(provider: provider, latitude: latitude, longitude: longitude, issuedAt: Date(timeIntervalSince1970: issued),
                                    validAt: Date(timeIntervalSince1970: valid), periodHours: period, condition: row[6].text,
                                    values: Self.values(fields))
            }
        }
    }

    /// Archived observations in place, source and time order; only those near `place` when one is given.
    public func archivedObservations(near place: Place? = nil) async throws(UserDataError) -> [ArchivedObservation] {
        let (filter, arguments) = Self.placeFilter(place)
        return try await read { connection throws(StoreError) in
            try connection.query("""
                SELECT source, station, latitude, longitude, observed_at, condition, fields FROM archive_observations \(filter)
                ORDER BY latitude, longitude, source, observed_at
                """, arguments).compactMap { row in
                guard let source = row[0].text, let station = row[1].text, let latitude = row[2].double, let longitude = row[3].double,
                      let observed = row[4].double, let fields = row[6].text else { return nil }
                return ArchivedObservation(source: source, station: station, latitude: latitude, longitude: longitude,
                                           observedAt: Date(timeIntervalSince1970: observed), condition: row[5].text,
                                           values: Self.values(fields))
            }
        }
    }

    private static func placeFilter(_ place: Place?) -> (String, [SQLValue]) {
        guard let place else { return ("", []) }
        let (latitude, longitude) = rounded(place.coordinate)
        return ("WHERE latitude = ? AND longitude = ?", [.real(latitude), .real(longitude)])
    }

    static func hourFloor(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 3_600).rounded(.down) * 3_600)
    }

    static func rounded(_ coordinate: Coordinate) -> (Double, Double) {
        ((coordinate.latitude * 100).rounded() / 100, (coordinate.longitude * 100).rounded() / 100)
    }

    /// A sample's values as a compact JSON object by quantity id, to a tenth (what any provider's precision allows).
    static func fields(of sample: WeatherSample) -> String {
        let members = Quantity.allCases.compactMap { quantity -> String? in
            guard let value = sample[quantity], value.isFinite else { return nil }
            return "\"\(quantity.rawValue)\":\(JSONOutput.format((value * 10).rounded() / 10))"
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func values(_ fields: String) -> [String: Double] {
        guard let members = try? JSONDocument(parsing: fields).rootValue.members() else { return [:] }
        var values: [String: Double] = [:]
        for (key, value) in members { if let number = try? value.double() { values[key] = number } }
        return values
    }
}
