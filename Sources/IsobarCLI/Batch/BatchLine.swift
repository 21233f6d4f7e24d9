import IsobarCore

/// Why an input line is not asked about, as written in its `input_error` line.
public enum InputErrorCode: String, Sendable, CaseIterable {
    /// A name no gazetteer or geocoder knows.
    case unknownPlace = "unknown_place"
    /// Coordinates out of range or malformed.
    case badCoordinates = "bad_coordinates"
    /// A line starting with `{` that is not valid JSON.
    case invalidJSON = "invalid_json"
    /// A line longer than the longest accepted.
    case lineTooLong = "line_too_long"
    /// Anything else: control characters, a JSON object without a place, an `id` that is not a string.
    case badInput = "bad_input"
}

/// An input line that cannot be asked about.
struct BatchLineError: Error, Sendable, Equatable {
    /// What kind of problem.
    var code: InputErrorCode
    /// One sentence for people.
    var message: String
    /// The line's `id`, when it gave one before the problem.
    var id: String?
}

/// What one good input line asks about, before its name is resolved.
struct BatchAsk: Sendable, Equatable {
    /// A name or coordinates as text (resolved as everywhere), or coordinates given as JSON numbers.
    enum Target: Sendable, Equatable {
        /// Text to resolve: a name or `LAT,LON`.
        case text(String)
        /// Coordinates from a JSON object.
        case coordinate(Coordinate)
    }

    /// The place asked about.
    var target: Target
    /// The `id` to echo on every line, when given.
    var id: String?

    /// What the line asked, as shown in the place's `query`.
    var query: String {
        switch target {
        case .text(let text): text.trimmingSpaces()
        case .coordinate(let coordinate): "\(JSONOutput.format(coordinate.latitude)),\(JSONOutput.format(coordinate.longitude))"
        }
    }
}

/// Reads one line of batch input: a name, `LAT,LON`, or a JSON object with an `id` and a `place` or `latitude` and `longitude`.
enum BatchLine {
    /// The line's request; nil for a blank line (skipped); an error for a line that cannot be asked about.
    static func parse(_ line: InputLine) -> Result<BatchAsk, BatchLineError>? {
        if line.isTooLong {
            return .failure(BatchLineError(code: .lineTooLong, message: "the line is longer than \(InputLines.maxLineBytes) bytes"))
        }
        let text = line.text.trimmingSpaces()
        guard !text.isEmpty else { return nil }
        if text.hasPrefix("{") { return object(text) }
        return plain(text, id: nil)
    }

    /// A name or coordinates typed as text: coordinates are checked here, names when resolved.
    private static func plain(_ text: String, id: String?) -> Result<BatchAsk, BatchLineError> {
        let trimmed: String
        do throws(PlaceError) {
            trimmed = try PlaceDirectory.validate(text)
        } catch {
            return .failure(BatchLineError(code: .badInput, message: error.message, id: id))
        }
        do throws(PlaceError) {
            _ = try PlaceDirectory.coordinate(trimmed)
        } catch {
            return .failure(BatchLineError(code: .badCoordinates, message: error.message, id: id))
        }
        return .success(BatchAsk(target: .text(trimmed), id: id))
    }

    private static func object(_ text: String) -> Result<BatchAsk, BatchLineError> {
        let root: JSONValue
        do {
            root = try JSONDocument(parsing: Array(text.utf8)).rootValue
        } catch {
            return .failure(BatchLineError(code: .invalidJSON, message: "not valid JSON: \(error)"))
        }
        guard root.kind == .object else {
            return .failure(BatchLineError(code: .badInput, message: "a line starting with { must be a JSON object"))
        }
        let id: String?
        switch (try? root.member(ifPresent: "id")) ?? nil {
        case nil: id = nil
        case let value? where value.kind == .string: id = try? value.string()
        case let value? where value.kind == .null: id = nil
        case .some:
            return .failure(BatchLineError(code: .badInput, message: "id must be a string"))
        }
        let place = (try? root.member(ifPresent: "place")) ?? nil
        let latitude = (try? root.member(ifPresent: "latitude")) ?? nil
        let longitude = (try? root.member(ifPresent: "longitude")) ?? nil
        if let place {
            guard latitude == nil && longitude == nil else {
                return .failure(BatchLineError(code: .badInput, message: "give either place or latitude and longitude, not both", id: id))
            }
            guard place.kind == .string, let name = try? place.string() else {
                return .failure(BatchLineError(code: .badInput, message: "place must be a string", id: id))
            }
            return plain(name, id: id)
        }
        guard let latitude, let longitude else {
            return .failure(BatchLineError(code: .badInput, message: "the object needs a place, or a latitude and a longitude", id: id))
        }
        guard latitude.kind == .number, longitude.kind == .number, let lat = try? latitude.double(), let lon = try? longitude.double() else {
            return .failure(BatchLineError(code: .badCoordinates, message: "latitude and longitude must be numbers", id: id))
        }
        guard let coordinate = Coordinate(latitude: lat, longitude: lon) else {
            return .failure(BatchLineError(code: .badCoordinates,
                                           message: "coordinates out of range: latitude must be -90 to 90 and longitude -180 to 180", id: id))
        }
        return .success(BatchAsk(target: .coordinate(coordinate), id: id))
    }
}
