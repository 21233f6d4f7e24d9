import IsobarCore

extension GazetteerData {
    /// Cities matching `query`, best first: exact names, exact alternates, prefixes, then (only when
    /// nothing else matched and the query has 4 or more letters) names one edit away; more people first within each.
    /// A query that is some city's whole name or alternate is taken as complete: other cities then match by the
    /// beginning of their own name only, not of an alternate (`New York` does not bring Jakarta, "New York Van Java").
    func search(_ query: NameQuery, limit: Int) -> [PlaceMatch] {
        let folded = SearchFolding.fold(query.name)
        guard limit > 0, !folded.isEmpty else { return [] }
        let filters = query.qualifiers.map(qualifiers.filter)
        let picks = bytes.withUnsafeBufferPointer { buffer in
            var searcher = NameSearcher(data: self, bytes: buffer, query: folded, filters: filters, limit: limit)
            return searcher.run()
        }
        return picks.compactMap(match)
    }

    /// The public form of a picked city.
    private func match(_ pick: NameSearcher.Pick) -> PlaceMatch? {
        let city = cities[Int(pick.city)]
        guard let coordinate = Coordinate(latitude: city.latitude, longitude: city.longitude) else { return nil }
        let country = Self.unpackCountry(city.country)
        let adminCode = text(city.adminStart, city.adminEnd)
        let adminArea = admins.first { $0.country == city.country && $0.code == adminCode }?.name
        let name = names[Int(city.firstName)]
        let matched = names[Int(pick.name)]
        let place = Place(
            name: text(name.start, name.end), adminArea: adminArea, countryCode: country, coordinate: coordinate,
            timeZoneIdentifier: zones[Int(city.zone)])
        return PlaceMatch(
            place: place, adminCode: adminCode, population: Int(city.population), geonamesID: Int(city.geonamesID),
            matchedName: text(matched.start, matched.end), kind: pick.kind)
    }
}

/// One search over the sorted index: binary search for the folded query, then ranking.
struct NameSearcher {
    /// A chosen city and the name of it that matched.
    struct Pick {
        var city: UInt32
        var name: UInt32
        var kind: MatchKind
    }

    let data: GazetteerData
    let bytes: UnsafeBufferPointer<UInt8>
    let query: [UInt32]
    let filters: [QualifierFilter]
    let limit: Int
    private var scratch: [UInt32] = []
    private var picks: [Pick] = []
    private var picked: Set<UInt32> = []

    init(data: GazetteerData, bytes: UnsafeBufferPointer<UInt8>, query: [UInt32], filters: [QualifierFilter], limit: Int) {
        self.data = data
        self.bytes = bytes
        self.query = query
        self.filters = filters
        self.limit = limit
        scratch.reserveCapacity(64)
    }

    mutating func run() -> [Pick] {
        let range = prefixRange(query)
        var exactEnd = range.lowerBound
        while exactEnd < range.upperBound, compare(data.sorted[exactEnd], query, prefixOnly: false) == 0 { exactEnd += 1 }
        let exact = data.sorted[range.lowerBound..<exactEnd]
        take(exact.filter { isCityName($0) }, as: .exactName)
        take(exact, as: .exactAlternate)
        let prefixes = data.sorted[exactEnd..<range.upperBound]
        if picks.isEmpty {
            take(prefixes, as: .prefix)
        } else {
            let data = data
            take(prefixes.lazy.filter { data.cities[Int(data.names[Int($0)].city)].firstName == $0 }, as: .prefix)
        }
        if picks.isEmpty, query.count >= 4 { take(typoCandidates(), as: .typo) }
        return picks
    }

    /// Adds the cities named by `names` that pass the qualifiers and are not picked yet, most populous first.
    private mutating func take(_ names: some Collection<UInt32>, as kind: MatchKind) {
        guard picks.count < limit, !names.isEmpty else { return }
        var candidates: [(city: UInt32, name: UInt32)] = []
        candidates.reserveCapacity(names.count)
        for name in names {
            let city = data.names[Int(name)].city
            guard !picked.contains(city), filters.allSatisfy({ $0.matches(data.cities[Int(city)], bytes: bytes) }) else { continue }
            candidates.append((city, name))
        }
        // Cities are stored most populous first, so a lower city number ranks higher.
        candidates.sort { ($0.city, $0.name) < ($1.city, $1.name) }
        for candidate in candidates where picks.count < limit && picked.insert(candidate.city).inserted {
            picks.append(Pick(city: candidate.city, name: candidate.name, kind: kind))
        }
    }

    /// Whether name number `name` is its city's own name rather than an alternate.
    private func isCityName(_ name: UInt32) -> Bool { data.cities[Int(data.names[Int(name)].city)].firstName == name }

    /// Names one edit away from the query, among those sharing its first letter or starting with its first two swapped.
    private mutating func typoCandidates() -> [UInt32] {
        var ranges = [prefixRange([query[0]])]
        if query[1] != query[0] { ranges.append(prefixRange([query[1], query[0]])) }
        var found: [UInt32] = []
        for range in ranges {
            for name in data.sorted[range] {
                let record = data.names[Int(name)]
                SearchFolding.fold(utf8: bytes, Int(record.start)..<Int(record.end), into: &scratch, limit: query.count + 1)
                if isWithinOneEdit(scratch, query) { found.append(name) }
            }
        }
        return found
    }

    /// Positions in the sorted index of the names that start with `prefix`.
    private mutating func prefixRange(_ prefix: [UInt32]) -> Range<Int> {
        let lower = firstPosition(comparingAtLeast: 0, with: prefix, prefixOnly: false)
        let upper = firstPosition(comparingAtLeast: 1, with: prefix, prefixOnly: true)
        return lower..<max(lower, upper)
    }

    /// Binary search: the first position whose name compares to `text` as `threshold` or more.
    private mutating func firstPosition(comparingAtLeast threshold: Int, with text: [UInt32], prefixOnly: Bool) -> Int {
        var low = 0
        var high = data.sorted.count
        while low < high {
            let middle = (low + high) / 2
            if compare(data.sorted[middle], text, prefixOnly: prefixOnly) < threshold { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Compares the folded name `name` with `text`; with `prefixOnly`, a name that starts with `text` counts as equal.
    private mutating func compare(_ name: UInt32, _ text: [UInt32], prefixOnly: Bool) -> Int {
        let record = data.names[Int(name)]
        SearchFolding.fold(utf8: bytes, Int(record.start)..<Int(record.end), into: &scratch, limit: text.count + 1)
        for (left, right) in zip(scratch, text) where left != right { return left < right ? -1 : 1 }
        if scratch.count == text.count || (prefixOnly && scratch.count > text.count) { return 0 }
        return scratch.count < text.count ? -1 : 1
    }
}
