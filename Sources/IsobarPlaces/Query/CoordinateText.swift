import IsobarCore

/// Recognises `lat,lon` in decimal degrees: `53.9,27.57`, `53.9, 27.57`, `-23.5,-46.6`.
enum CoordinateText {
    /// The coordinate; nil when the text does not start with a number (so it is a name);
    /// an error when it does but is not exactly two numbers in range.
    static func parse(_ text: String) throws(GazetteerError) -> Coordinate? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(PlaceQuery.trimmed)
        guard let first = parts.first, looksNumeric(first) else { return nil }
        guard parts.count == 2, let latitude = number(parts[0]), let longitude = number(parts[1]) else {
            throw GazetteerError(
                .invalidCoordinate, "'\(text)' is not a coordinate pair: expected two decimal numbers such as 53.9,27.57")
        }
        guard (-90...90).contains(latitude) else {
            throw GazetteerError(.invalidCoordinate, "latitude \(parts[0]) is out of range (−90 to 90)")
        }
        guard (-180...180).contains(longitude) else {
            throw GazetteerError(.invalidCoordinate, "longitude \(parts[1]) is out of range (−180 to 180)")
        }
        guard let coordinate = Coordinate(latitude: latitude, longitude: longitude) else {
            throw GazetteerError(.invalidCoordinate, "'\(text)' is not a valid coordinate pair")
        }
        return coordinate
    }

    /// Only digits, signs, a decimal point or an exponent, with at least one digit. Read by bytes: each of those is one
    /// byte and a character of its own, and any other byte (a combining mark's included) makes the text not numeric.
    private static func looksNumeric(_ text: String) -> Bool {
        var digits = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): continue
            default: return false
            }
        }
        return digits
    }

    /// A finite decimal number, or nil.
    private static func number(_ text: String) -> Double? {
        guard looksNumeric(text), let value = Double(text), value.isFinite else { return nil }
        return value
    }
}
