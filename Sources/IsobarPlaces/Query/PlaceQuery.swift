import IsobarCore

/// What a user typed for a place: coordinates, or a name optionally narrowed by qualifiers.
public enum PlaceQuery: Sendable, Hashable {
    /// `53.9,27.57`: latitude and longitude in decimal degrees.
    case coordinate(Coordinate)
    /// `Paris`, `Paris, TX`, `Springfield, Illinois, US`.
    case name(NameQuery)

    /// The longest query accepted, in characters.
    public static let maximumLength = 200

    /// Parses raw bytes, refusing invalid UTF-8 before anything else.
    public static func parse(bytes: [UInt8]) throws(GazetteerError) -> PlaceQuery {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw GazetteerError(.invalidQuery, "the place is not valid UTF-8 text")
        }
        return try parse(text)
    }

    /// Parses `lat,lon` as coordinates, anything else as a name with comma-separated qualifiers.
    public static func parse(_ text: String) throws(GazetteerError) -> PlaceQuery {
        // Never more characters than bytes: characters are counted only past the longest in bytes.
        if text.utf8.count > maximumLength {
            let length = text.count
            guard length <= maximumLength else {
                throw GazetteerError(.invalidQuery, "the place is too long (\(length) characters; at most \(maximumLength))")
            }
        }
        guard !text.unicodeScalars.contains(where: isControl) else {
            throw GazetteerError(.invalidQuery, "the place contains control characters")
        }
        let whole = trimmed(Substring(text))
        guard !whole.isEmpty else {
            throw GazetteerError(.invalidQuery, "a place is needed: a name such as Minsk, or coordinates such as 53.9,27.57")
        }
        if let coordinate = try CoordinateText.parse(whole) { return .coordinate(coordinate) }
        let parts = whole.split(separator: ",", omittingEmptySubsequences: false).map(trimmed)
        let name = parts[0]
        guard name.count >= 2, SearchFolding.fold(name).count >= 2 else {
            throw GazetteerError(.invalidQuery, "type at least 2 characters of the place name ('\(whole)' is too short)")
        }
        return .name(NameQuery(name: name, qualifiers: parts.dropFirst().filter { !$0.isEmpty }))
    }

    /// C0 and C1 control characters and DEL; tabs and line breaks included.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The text without surrounding white space.
    static func trimmed(_ text: Substring) -> String {
        // ASCII white space: tab, line feed, vertical tab, form feed, carriage return, space.
        if let trimmed = text.trimmedASCII(dropping: { $0 == 0x20 || (0x09...0x0D).contains($0) }) { return trimmed }
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(text[first...last])
    }
}

/// A place name to search for, with qualifiers that must each match the country or first-level area.
public struct NameQuery: Sendable, Hashable {
    /// The name or its beginning, e.g. `Paris`, `Sao Pau`, `Минск`.
    public var name: String
    /// Country codes, country names, admin1 codes or names: `US`, `TX`, `Illinois`, `France`.
    public var qualifiers: [String]

    /// Creates a name query; `PlaceQuery.parse(_:)` validates what users type.
    public init(name: String, qualifiers: [String] = []) {
        self.name = name
        self.qualifiers = qualifiers
    }
}
