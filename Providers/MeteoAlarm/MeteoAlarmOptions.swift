import IsobarCore
import IsobarPlaces

/// The options of a `meteoalarm` entry: the country whose feed is read, and the area codes the user gives for places.
public struct MeteoAlarmOptions: Sendable, Equatable {
    /// The places the user named area codes for: a place's name (compared after folding case and accents) or coordinates.
    public enum PlaceKey: Sendable, Equatable {
        /// A place's name, folded.
        case name(String)
        /// A coordinate, matched within 0.01° (about a kilometre) in latitude and longitude.
        case coordinate(Coordinate)

        /// True when `place` is the one meant.
        public func matches(_ place: Place) -> Bool {
            switch self {
            case .name(let folded): SearchFolding.foldedString(place.name) == folded
            case .coordinate(let point):
                abs(point.latitude - place.coordinate.latitude) <= 0.01 && abs(point.longitude - place.coordinate.longitude) <= 0.01
            }
        }
    }

    /// `country`: the country whose warnings are read.
    public var country: MeteoAlarmCountry
    /// `areas`: for each place named, its area codes as `SCHEME:VALUE` (`EMMA_ID:UK012`), in the entry's order.
    public var areas: [(place: PlaceKey, codes: [String])]

    /// Options for `country`, with `areas`.
    public init(country: MeteoAlarmCountry, areas: [(place: PlaceKey, codes: [String])] = []) {
        self.country = country
        self.areas = areas
    }

    /// The area codes configured for `place`: every entry that names it.
    public func codes(for place: Place) -> Set<String> {
        Set(areas.filter { $0.place.matches(place) }.flatMap(\.codes))
    }

    /// Equal when the country and the areas are.
    public static func == (lhs: MeteoAlarmOptions, rhs: MeteoAlarmOptions) -> Bool {
        lhs.country == rhs.country && lhs.areas.map(\.place) == rhs.areas.map(\.place) && lhs.areas.map(\.codes) == rhs.areas.map(\.codes)
    }

    /// The keys a meteoalarm entry has of its own.
    public static let keys = ["country", "areas"]

    /// `country` (required: an ISO code such as `GB`, or the feeds' name such as `united-kingdom`) and `areas` (an object
    /// from a place's name or `LAT,LON` to a non-empty list of codes; a code without a scheme is an `EMMA_ID`).
    public static func read(_ source: OptionSource) throws(OptionError) -> ProviderOptions {
        try OptionError.reading {
            let path = source.entry.path
            guard let text = try source.entry.optionalString("country") else {
                throw OptionError("\(path).country is missing: a meteoalarm entry reads one country's feed (e.g. \"country\": \"GB\")")
            }
            guard let country = MeteoAlarmCountry(text) else {
                throw OptionError("\(path).country '\(text)' has no MeteoAlarm feed; countries: "
                                  + MeteoAlarmCountry.all.map(\.code).joined(separator: " "))
            }
            var areas: [(place: PlaceKey, codes: [String])] = []
            if let value = try source.entry.nonNullMember("areas") {
                for (key, list) in try value.members() {
                    let codes = try list.elements().map { code throws(JSONError) in try code.string() }
                    guard !codes.isEmpty else { throw OptionError("\(list.path) must list at least one area code") }
                    areas.append((try placeKey(key, path: list.path), try codes.map { code throws(OptionError) in try areaCode(code, path: list.path) }))
                }
            }
            let notes = ["country: \(country.code) (\(country.feed))"] + (areas.isEmpty ? [] : ["area codes for \(areas.count) place(s)"])
            return ProviderOptions(MeteoAlarmOptions(country: country, areas: areas), endpoint: "country=\(country.code)", notes: notes)
        }
    }

    /// `LAT,LON` as a coordinate, anything else as a place's name.
    static func placeKey(_ key: String, path: JSONPath) throws(OptionError) -> PlaceKey {
        let parts = key.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
        if parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) {
            guard let coordinate = Coordinate(latitude: latitude, longitude: longitude) else {
                throw OptionError("\(path): '\(key)' is not a coordinate (latitude -90…90, longitude -180…180)")
            }
            return .coordinate(coordinate)
        }
        let folded = SearchFolding.foldedString(key)
        guard !folded.isEmpty else { throw OptionError("\(path): a place needs a name or LAT,LON") }
        return .name(folded)
    }

    /// `UK012` as `EMMA_ID:UK012`; `NUTS3:FR101` as given; white space or an empty part is refused.
    static func areaCode(_ code: String, path: JSONPath) throws(OptionError) -> String {
        let parts = code.split(separator: ":", omittingEmptySubsequences: false)
        guard !code.isEmpty, !code.contains(where: \.isWhitespace), parts.count <= 2, !parts.contains(where: \.isEmpty) else {
            throw OptionError("\(path) has '\(code)', not an area code (e.g. UK012 or EMMA_ID:UK012)")
        }
        return parts.count == 2 ? code : "EMMA_ID:" + code
    }
}
