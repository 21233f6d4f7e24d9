/// What the text after a comma can mean: a country (code, ISO alpha-3 code or name) or a
/// first-level area (admin1 code such as `TX`, or a known name such as `Illinois`).
struct QualifierTable: Sendable {
    private var countries: [String: Set<UInt16>] = [:]
    private var areas: [String: [AdminArea]] = [:]

    init(countries: [CountryRecord], admins: [AdminRecord]) {
        for country in countries {
            guard let packed = GazetteerData.packCountry(Array(country.code.utf8)) else { continue }
            for text in [country.code, country.iso3] + country.names {
                self.countries[SearchFolding.foldedString(text), default: []].insert(packed)
            }
        }
        for admin in admins {
            let area = AdminArea(country: admin.country, code: Array(SearchFolding.foldedString(admin.code).utf8))
            areas[SearchFolding.foldedString(admin.name), default: []].append(area)
        }
    }

    /// The filter for one qualifier as typed.
    func filter(_ qualifier: String) -> QualifierFilter {
        let folded = SearchFolding.foldedString(qualifier)
        return QualifierFilter(countries: countries[folded] ?? [], adminCode: Array(folded.utf8), areas: areas[folded] ?? [])
    }
}

/// An admin1 area: its country and its code folded to lower case.
struct AdminArea: Sendable, Hashable {
    var country: UInt16
    var code: [UInt8]
}

/// Whether a city lies in what one qualifier names.
struct QualifierFilter: Sendable {
    let countries: Set<UInt16>
    let adminCode: [UInt8]
    let areas: [AdminArea]

    func matches(_ city: CityRecord, bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if countries.contains(city.country) { return true }
        let code = UnsafeBufferPointer(rebasing: bytes[Int(city.adminStart)..<Int(city.adminEnd)])
        if Self.equalIgnoringASCIICase(code, adminCode) { return true }
        return areas.contains { $0.country == city.country && Self.equalIgnoringASCIICase(code, $0.code) }
    }

    /// `stored` (any case) equals `folded` (lower case).
    private static func equalIgnoringASCIICase(_ stored: UnsafeBufferPointer<UInt8>, _ folded: [UInt8]) -> Bool {
        guard stored.count == folded.count, !folded.isEmpty else { return false }
        for (byte, expected) in zip(stored, folded) {
            let lowered = (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
            guard lowered == expected else { return false }
        }
        return true
    }
}
