/// Parses the sections of a gazetteer file in order, checking every count, field and number.
struct GazetteerParser {
    var cursor: LineCursor
    let file: String
    private var fields: [Range<Int>] = []
    private var alternates: [Range<Int>] = []

    init(cursor: LineCursor, file: String) {
        self.cursor = cursor
        self.file = file
    }

    mutating func parse() throws(GazetteerError) -> GazetteerFile.Tables {
        let counts = try header()
        var tables = GazetteerFile.Tables()
        var line = try nextDataLine()
        for _ in 0..<counts.countries {
            try split(line, expecting: 3)
            tables.countries.append(CountryRecord(
                code: cursor.text(fields[0]), iso3: cursor.text(fields[1]),
                names: cursor.fields(fields[2], separator: 0x7C).map(cursor.text)))
            guard GazetteerData.packCountry(cursor.bytes[fields[0]]) != nil else { throw corrupt("bad country code") }
            line = try nextLine()
        }
        for _ in 0..<counts.admins {
            try split(line, expecting: 3)
            guard let country = GazetteerData.packCountry(cursor.bytes[fields[0]]) else { throw corrupt("bad country code") }
            tables.admins.append(AdminRecord(country: country, code: cursor.text(fields[1]), name: cursor.text(fields[2])))
            line = try nextLine()
        }
        for _ in 0..<counts.zones {
            guard !line.isEmpty else { throw corrupt("empty time zone name") }
            tables.zones.append(cursor.text(line))
            line = try nextLine()
        }
        tables.cities.reserveCapacity(counts.cities)
        tables.names.reserveCapacity(counts.names)
        for index in 0..<counts.cities {
            try city(line, index: index, zones: counts.zones, into: &tables)
            line = try nextLine()
        }
        guard tables.names.count == counts.names else {
            throw corrupt("the cities hold \(tables.names.count) names; the header says \(counts.names)")
        }
        tables.sorted = try sortedIndex(first: line, count: counts.index, names: counts.names)
        return tables
    }

    /// The counts in the first line, after checking the magic word and the version.
    private mutating func header() throws(GazetteerError) -> Counts {
        guard let line = cursor.nextLine(), !line.isEmpty else { throw corrupt("the file is empty") }
        let parts = cursor.fields(line)
        guard parts.count == 8, cursor.text(parts[0]) == GazetteerFile.magic else {
            throw corrupt("not an Isobar gazetteer file (the first line should start with '\(GazetteerFile.magic)')")
        }
        let version = cursor.integer(parts[1])
        guard version == GazetteerFile.formatVersion else {
            throw corrupt("format version \(cursor.text(parts[1])) is not the supported version \(GazetteerFile.formatVersion); "
                + "rebuild it with scripts/make-gazetteer.py")
        }
        let values = parts[2...].compactMap(cursor.integer).filter { $0 < Int(UInt32.max) }
        // Every entry takes at least one byte of the file, and zone numbers must fit their 16 bits.
        guard values.count == 6, values.allSatisfy({ $0 <= cursor.bytes.count }), values[2] <= Int(UInt16.max) else {
            throw corrupt("bad counts in the header")
        }
        return Counts(countries: values[0], admins: values[1], zones: values[2], cities: values[3], names: values[4], index: values[5])
    }

    /// One city line: its numbers decoded, its name and alternates recorded.
    private mutating func city(_ line: Range<Int>, index: Int, zones: Int, into tables: inout GazetteerFile.Tables) throws(GazetteerError) {
        cursor.fields(line, into: &fields, splittingLastAfter: 9, into: &alternates)
        guard fields.count == 10 else { throw corrupt("expected 10 fields, found \(fields.count)") }
        guard let id = cursor.integer(fields[0]), id <= UInt32.max,
              let population = cursor.integer(fields[7]), population <= UInt32.max,
              let zone = cursor.integer(fields[8]), zone < zones,
              let latitude = cursor.decimal(fields[5]), (-90...90).contains(latitude),
              let longitude = cursor.decimal(fields[6]), (-180...180).contains(longitude),
              let country = GazetteerData.packCountry(cursor.bytes[fields[3]]), !fields[1].isEmpty
        else { throw corrupt("a city needs an id, a name, a country code, coordinates in range, a population and a time zone") }
        let cityNumber = UInt32(index)
        tables.cities.append(CityRecord(
            lineStart: UInt32(line.lowerBound), lineEnd: UInt32(line.upperBound), firstName: UInt32(tables.names.count),
            geonamesID: UInt32(id), population: UInt32(population), zone: UInt16(zone), country: country,
            adminStart: UInt32(fields[4].lowerBound), adminEnd: UInt32(fields[4].upperBound),
            latitude: latitude, longitude: longitude))
        tables.names.append(NameRecord(start: UInt32(fields[1].lowerBound), end: UInt32(fields[1].upperBound), city: cityNumber))
        for alternate in alternates {
            guard !alternate.isEmpty else { throw corrupt("an empty alternate name") }
            tables.names.append(NameRecord(start: UInt32(alternate.lowerBound), end: UInt32(alternate.upperBound), city: cityNumber))
        }
    }

    /// The sorted name numbers, one a line, starting with `first`; nothing may follow them.
    private mutating func sortedIndex(first: Range<Int>, count: Int, names: Int) throws(GazetteerError) -> [UInt32] {
        guard count > 0 else { return [] }
        guard let head = cursor.integer(first), head < names else { throw corrupt("a name number out of range") }
        guard let rest = cursor.numberLines(count: count - 1, below: names) else {
            throw corrupt("a name number out of range, or the file ends early")
        }
        guard cursor.isAtEnd else { throw corrupt("unexpected text after the last index line") }
        return [UInt32(head)] + rest
    }

    /// The first line after the header's comment lines.
    private mutating func nextDataLine() throws(GazetteerError) -> Range<Int> {
        var line = try nextLine()
        while !line.isEmpty, cursor.bytes[line.lowerBound] == 0x23 { line = try nextLine() }
        return line
    }

    private mutating func nextLine() throws(GazetteerError) -> Range<Int> {
        guard let line = cursor.nextLine() else { throw corrupt("the file ends early (truncated?)") }
        return line
    }

    private mutating func split(_ line: Range<Int>, expecting count: Int) throws(GazetteerError) {
        cursor.fields(line, into: &fields)
        guard fields.count == count else { throw corrupt("expected \(count) fields, found \(fields.count)") }
    }

    private func corrupt(_ problem: String) -> GazetteerError {
        GazetteerError(.corruptFile, "the gazetteer file \(file) is damaged: line \(max(cursor.lineNumber, 1)): \(problem)")
    }

    private struct Counts {
        var countries, admins, zones, cities, names, index: Int
    }
}
