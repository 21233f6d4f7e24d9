import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarStore

/// What an archive export line must hold to be imported, and the reading of one: a line that breaks a rule is refused
/// with the field it names, so that nothing the archive's own export could not write back is ever archived.
struct ArchiveLineRules: Sendable {
    /// The earliest instant a line may name: 1970-01-01T00:00:00Z.
    static let firstInstant = Date(timeIntervalSince1970: 0)
    /// The latest instant any line may name, whatever the clock: 2200-01-01T00:00:00Z.
    static let lastInstant = Date(timeIntervalSince1970: 7_258_118_400)
    /// The longest provider, source, station or condition id, in UTF-8 bytes.
    static let maxTextBytes = 128
    /// The largest magnitude of a value or of `period_h`.
    static let maxMagnitude = 1e9

    /// The latest instant a line may name (the command's clock plus a year).
    var latest: Date

    /// Rules whose latest instant is `latest`, never past `lastInstant`.
    init(latest: Date) {
        self.latest = min(latest, Self.lastInstant)
    }

    /// The record a line holds, given as its UTF-8 bytes; nil for a line of another type (skipped); an error naming the
    /// field for a line that breaks a rule.
    func record(_ line: [UInt8]) throws(ConfigurationError) -> ArchivedRecord? {
        do {
            let object = try JSONDocument(parsing: line, rejectingDuplicateKeys: true).rootValue
            let type = try object.string("type")
            guard type == "archived_step" || type == "archived_observation" else { return nil }
            let values = try Self.values(object)
            let latitude = try number(object, "latitude", within: -90...90)
            let longitude = try number(object, "longitude", within: -180...180)
            let condition = try object.optionalString("condition")
            if let condition { try text(condition, "condition") }
            if type == "archived_step" {
                let step = ArchivedStep(provider: try text(object.string("provider"), "provider"), latitude: latitude, longitude: longitude,
                                        issuedAt: try instant(object, "issued_at"), validAt: try instant(object, "valid_at"),
                                        periodHours: try optionalNumber(object, "period_h", within: 0...Self.maxMagnitude) ?? 1,
                                        condition: condition, values: values)
                return .step(step)
            }
            return .observation(ArchivedObservation(source: try text(object.string("observed_by"), "observed_by"),
                                                    station: try text(object.string("station"), "station"), latitude: latitude,
                                                    longitude: longitude, observedAt: try instant(object, "observed_at"),
                                                    condition: condition, values: values))
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError("not an archive export line (\(error))")
        }
    }

    private func number(_ object: JSONValue, _ key: String, within range: ClosedRange<Double>) throws -> Double {
        let value = try object.double(key)
        guard value.isFinite, range.contains(value) else {
            throw ConfigurationError("\(key) \(value) is outside \(JSONOutput.format(range.lowerBound))…\(JSONOutput.format(range.upperBound))")
        }
        return value
    }

    private func optionalNumber(_ object: JSONValue, _ key: String, within range: ClosedRange<Double>) throws -> Double? {
        guard try object.nonNullMember(key) != nil else { return nil }
        return try number(object, key, within: range)
    }

    private func instant(_ object: JSONValue, _ key: String) throws -> Date {
        let text = try object.string(key)
        guard let instant = CivilTime.instant(iso: text) else { throw ConfigurationError("\(key) is not an ISO-8601 instant") }
        guard instant >= Self.firstInstant, instant <= latest else {
            throw ConfigurationError("\(key) \(CivilTime.iso(instant, utcOffsetSeconds: 0)) is outside "
                + "\(CivilTime.iso(Self.firstInstant, utcOffsetSeconds: 0)) … \(CivilTime.iso(latest, utcOffsetSeconds: 0))")
        }
        return instant
    }

    @discardableResult
    private func text(_ value: String, _ key: String) throws -> String {
        guard !value.isEmpty else { throw ConfigurationError("\(key) is empty") }
        guard value.utf8.count <= Self.maxTextBytes else { throw ConfigurationError("\(key) is longer than \(Self.maxTextBytes) bytes") }
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ConfigurationError("\(key) holds a control character")
        }
        return value
    }

    /// The values of a line, which must be in metric units (as the history shipped with Isobar is) and finite.
    private static func values(_ object: JSONValue) throws -> [String: Double] {
        let units = try object.member(ifPresent: "units")
        var values: [String: Double] = [:]
        for (key, value) in try object.member("values").members() {
            guard let quantity = Quantity(rawValue: key) else { continue }
            if let unit = try units?.optionalString(key), unit != UnitSystem.metric.symbol(for: quantity) {
                throw ConfigurationError("\(key) is in \(unit); only metric exports can be read")
            }
            let number = try value.double()
            guard number.isFinite, abs(number) <= maxMagnitude else { throw ConfigurationError("values.\(key) \(number) is not a plausible value") }
            values[key] = number
        }
        return values
    }
}
