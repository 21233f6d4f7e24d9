/// One city line of the gazetteer, its text left in the file bytes and its numbers decoded.
struct CityRecord: Sendable {
    /// Byte offsets of the line, without its line feed.
    var lineStart: UInt32
    var lineEnd: UInt32
    /// Number of the city's name; its alternates follow it.
    var firstName: UInt32
    var geonamesID: UInt32
    var population: UInt32
    var zone: UInt16
    /// The ISO country code's two ASCII bytes, the first in the high byte.
    var country: UInt16
    /// Byte offsets of the admin1 code.
    var adminStart: UInt32
    var adminEnd: UInt32
    var latitude: Double
    var longitude: Double
}

/// Where a searchable name lies in the file bytes, and whose it is.
struct NameRecord: Sendable {
    var start: UInt32
    var end: UInt32
    var city: UInt32
}

/// A country line: code, ISO alpha-3 code and names.
struct CountryRecord: Sendable {
    var code: String
    var iso3: String
    var names: [String]
}

/// An admin1 area with a known name.
struct AdminRecord: Sendable {
    var country: UInt16
    var code: String
    var name: String
}

/// The loaded gazetteer: the file bytes and the tables that point into them. Immutable once built.
struct GazetteerData: Sendable {
    let bytes: [UInt8]
    let countries: [CountryRecord]
    let admins: [AdminRecord]
    let zones: [String]
    let cities: [CityRecord]
    /// Every searchable name, numbered in file order.
    let names: [NameRecord]
    /// Name numbers sorted by folded name.
    let sorted: [UInt32]
    /// Folded qualifier text → what it can mean.
    let qualifiers: QualifierTable

    /// Packs a two-letter country code as `CityRecord.country` does.
    static func packCountry(_ code: some BidirectionalCollection<UInt8>) -> UInt16? {
        guard code.count == 2, let first = code.first, let last = code.last else { return nil }
        return UInt16(first) << 8 | UInt16(last)
    }

    /// The two-letter country code of a packed value.
    static func unpackCountry(_ packed: UInt16) -> String {
        String(decoding: [UInt8(packed >> 8), UInt8(packed & 0xFF)], as: UTF8.self)
    }

    /// The text of `bytes[start..<end]`.
    func text(_ start: UInt32, _ end: UInt32) -> String {
        String(decoding: bytes[Int(start)..<Int(end)], as: UTF8.self)
    }
}
