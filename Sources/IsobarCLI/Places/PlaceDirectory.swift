import FoundationEssentials
import IsobarCore
import IsobarPlaces

/// A place name or coordinates that cannot be resolved; exits with the data-error code.
public struct PlaceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line saying what is wrong.
    public let message: String
    /// Creates the error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// The bundled list of known places, and `lat,lon` parsing.
public struct PlaceDirectory: Sendable {
    private struct Entry: Sendable {
        let place: Place
        /// The name, the ASCII name and the alternates, as written.
        let names: [String]
        /// `names` folded for matching.
        let keys: [String]
    }

    private let entries: [Entry]

    /// An empty directory (coordinates still resolve).
    public init() { entries = [] }

    /// Reads `places.json`: an array of `{name, ascii_name, alternate_names, admin_area, country_code, latitude, longitude, timezone, utc_offset_seconds}`.
    public init(bytes: [UInt8], file: String) throws(PlaceError) {
        do {
            entries = try JSONDocument(parsing: bytes).rootValue.elements().map { item in
                let place: Place
                do {
                    place = try PlaceJSON.place(item)
                } catch PlaceJSONError.coordinatesOutOfRange(let path) {
                    throw PlaceError("\(file): \(path) has coordinates out of range")
                } catch PlaceJSONError.unreadable(let error) {
                    throw error
                }
                var keys = [place.name]
                if let ascii = try item.optionalString("ascii_name") { keys.append(ascii) }
                if let alternates = try item.nonNullMember("alternate_names") {
                    keys += try alternates.stringsOrNulls().compactMap { $0 }
                }
                return Entry(place: place, names: keys, keys: keys.map(Self.fold))
            }
        } catch let error as PlaceError {
            throw error
        } catch {
            throw PlaceError("\(file): not a valid place list (\(error))")
        }
    }

    /// Checks what a user typed: not empty, no control characters, at most 200 characters; returns it trimmed.
    static func validate(_ text: String) throws(PlaceError) -> String {
        let trimmed = text.trimmingSpaces()
        guard !trimmed.isEmpty else { throw PlaceError("a place is needed: a name such as Minsk, or coordinates such as 53.9,27.57") }
        guard trimmed.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw PlaceError("the place contains control characters")
        }
        // Never more characters than bytes: the count of characters is needed only past 200 bytes.
        guard trimmed.utf8.count <= 200 || trimmed.count <= 200 else {
            throw PlaceError("the place is too long (\(trimmed.count) characters; at most 200)")
        }
        return trimmed
    }

    /// The bundled place named `Name` or `Name, CC` (country code), if any.
    func lookup(_ text: String) -> Place? { match(text)?.place }

    /// The bundled place named `Name` or `Name, CC`, with the name of it that matched as written (`Mińsk`).
    func match(_ text: String) -> (place: Place, matchedName: String)? {
        let parts = text.split(separator: ",", maxSplits: 1).map { String($0).trimmingSpaces() }
        guard let first = parts.first else { return nil }
        let name = Self.fold(first)
        let country = parts.count > 1 ? parts[1].uppercased() : nil
        for entry in entries where country == nil || entry.place.countryCode == country {
            if let index = entry.keys.firstIndex(of: name) { return (entry.place, entry.names[index]) }
        }
        return nil
    }

    /// The bundled places, in file order.
    var places: [Place] { entries.map(\.place) }

    /// True when the text looks like `lat,lon`.
    static func isCoordinateLike(_ text: String) -> Bool { (try? coordinate(text.trimmingSpaces())) != nil }

    /// Parses `lat,lon` with the gazetteer's rules; nil when the text is a name, an error when it is a bad coordinate pair.
    static func coordinate(_ text: String) throws(PlaceError) -> Coordinate? {
        do {
            if case .coordinate(let coordinate) = try PlaceQuery.parse(text) { return coordinate }
            return nil
        } catch where error.code == .invalidCoordinate {
            throw PlaceError(error.message)
        } catch {
            // Other query problems (too short, control characters) are the name's, checked elsewhere.
            return nil
        }
    }

    /// Lower case without diacritics, for matching names (the gazetteer's folding).
    static func fold(_ text: String) -> String { SearchFolding.foldedString(text) }
}
