/// A place as JSON, written and read one way everywhere (JSON lines, the geocoding cache, the home setting, the bundled
/// place list): `name`, `admin_area`, `country_code`, `latitude`, `longitude`, then `timezone`. Reading is strict: `name` and
/// both coordinates must be there, the others may be absent or null, and a member of another type or a coordinate out of
/// range makes the whole place unreadable.
public enum PlaceJSON {
    /// The members that name and locate a place, in order: `name`, `admin_area`, `country_code`, `latitude`, `longitude`.
    public static func locating(_ place: Place) -> [(String, JSONOutput)] {
        [("name", .string(place.name)), ("admin_area", .string(place.adminArea)), ("country_code", .string(place.countryCode)),
         ("latitude", .number(place.coordinate.latitude)), ("longitude", .number(place.coordinate.longitude))]
    }

    /// The place object: the locating members and `timezone`.
    public static func object(_ place: Place) -> JSONOutput {
        .object(locating(place) + [("timezone", .string(place.timeZoneIdentifier))])
    }

    /// A JSON array of place objects.
    public static func array(_ places: [Place]) -> String { JSONOutput.array(places.map(object)).serialized() }

    /// The place an object holds, with its `utc_offset_seconds` when it has one.
    public static func place(_ value: JSONValue) throws(PlaceJSONError) -> Place {
        let read: () throws(JSONError) -> (Place?) = {
            guard let coordinate = Coordinate(latitude: try value.double("latitude"), longitude: try value.double("longitude")) else { return nil }
            return Place(name: try value.string("name"), adminArea: try value.optionalString("admin_area"),
                         countryCode: try value.optionalString("country_code"), coordinate: coordinate,
                         utcOffsetSeconds: try value.optionalInt("utc_offset_seconds"), timeZoneIdentifier: try value.optionalString("timezone"))
        }
        let place: Place?
        do {
            place = try read()
        } catch {
            throw .unreadable(error)
        }
        guard let place else { throw .coordinatesOutOfRange(value.path) }
        return place
    }

    /// The places of a JSON array; nil when the text is not an array, and without the elements that are not readable places.
    public static func places(_ text: String) -> [Place]? {
        guard let items = try? JSONDocument(parsing: text).rootValue.elements() else { return nil }
        return items.compactMap { try? place($0) }
    }
}

/// Why a JSON value is not a place.
public enum PlaceJSONError: Error, Sendable {
    /// A member is missing or of another type.
    case unreadable(JSONError)
    /// The latitude or longitude at this path is out of range.
    case coordinatesOutOfRange(JSONPath)
}

extension JSONOutputBuffer {
    /// The members that name and locate a place (see `PlaceJSON.locating`), written into the open object.
    public mutating func placeMembers(_ place: Place) {
        key("name")
        string(place.name)
        key("admin_area")
        string(place.adminArea)
        key("country_code")
        string(place.countryCode)
        key("latitude")
        number(place.coordinate.latitude)
        key("longitude")
        number(place.coordinate.longitude)
    }
}
