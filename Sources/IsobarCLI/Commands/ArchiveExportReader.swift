import FoundationEssentials
import IsobarCore
import IsobarStore

/// Reads archive exports (the JSON lines `isobar archive export` writes, in metric units) back into archived steps and
/// observations: how the demo's recorded history is shipped and read, never written into the user's archive.
struct ArchiveExportReader {
    /// The archived forecast steps read.
    var steps: [ArchivedStep] = []
    /// The archived observations read.
    var observations: [ArchivedObservation] = []

    /// Reads every `*.jsonl` file in `directory`, in name order; a line of another type is skipped, a damaged one is an error.
    static func read(directory: String) throws(ConfigurationError) -> ArchiveExportReader {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".jsonl") }.sorted()
        } catch {
            throw ConfigurationError("cannot read the recorded history in \(directory)")
        }
        var reader = ArchiveExportReader()
        for name in names {
            guard let data = FileManager.default.contents(atPath: directory + "/" + name) else {
                throw ConfigurationError("cannot read \(directory)/\(name)")
            }
            // Split as bytes: splitting half a megabyte as characters takes most of the time.
            for (index, line) in [UInt8](data).split(separator: 10).enumerated() {
                do {
                    try reader.add(Array(line))
                } catch {
                    throw ConfigurationError("\(directory)/\(name) line \(index + 1): \(error.message)")
                }
            }
        }
        return reader
    }

    /// Adds one line of an export, given as its UTF-8 bytes.
    mutating func add(_ line: [UInt8]) throws(ConfigurationError) {
        do {
            let object = try JSONDocument(parsing: line).rootValue
            let type = try object.string("type")
            guard type == "archived_step" || type == "archived_observation" else { return }
            let values = try Self.values(object)
            let latitude = try object.double("latitude"), longitude = try object.double("longitude")
            let condition = try object.optionalString("condition")
            if type == "archived_step" {
                guard let issued = CivilTime.instant(iso: try object.string("issued_at")),
                      let valid = CivilTime.instant(iso: try object.string("valid_at")) else { throw ConfigurationError("an instant is not ISO-8601") }
                steps.append(ArchivedStep(provider: try object.string("provider"), latitude: latitude, longitude: longitude, issuedAt: issued,
                                          validAt: valid, periodHours: try object.optionalDouble("period_h") ?? 1, condition: condition,
                                          values: values))
            } else {
                guard let observed = CivilTime.instant(iso: try object.string("observed_at")) else { throw ConfigurationError("an instant is not ISO-8601") }
                observations.append(ArchivedObservation(source: try object.string("observed_by"), station: try object.string("station"),
                                                        latitude: latitude, longitude: longitude, observedAt: observed, condition: condition,
                                                        values: values))
            }
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError("not an archive export line (\(error))")
        }
    }

    /// The values of a line, which must be in metric units (as the history shipped with Isobar is).
    private static func values(_ object: JSONValue) throws -> [String: Double] {
        let units = try object.member(ifPresent: "units")
        var values: [String: Double] = [:]
        for (key, value) in try object.member("values").members() {
            guard let quantity = Quantity(rawValue: key) else { continue }
            if let unit = try units?.optionalString(key), unit != UnitSystem.metric.symbol(quantity.dimension) {
                throw ConfigurationError("\(key) is in \(unit); only metric exports can be read")
            }
            values[key] = try value.double()
        }
        return values
    }
}
