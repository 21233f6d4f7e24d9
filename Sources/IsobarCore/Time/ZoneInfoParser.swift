/// The tables of a TZif file (RFC 8536, versions 1–4): transitions, local time types and the POSIX footer.
struct ZoneInfoTables: Sendable, Equatable {
    /// Transition instants, seconds since 1970 UTC, strictly increasing.
    var times: [Int64]
    /// The index into `types` of the local time type each transition starts.
    var typeIndexes: [Int]
    /// The local time types; the first applies before the first transition.
    var types: [ZoneInfo.LocalTimeType]
    /// The footer's POSIX `TZ` string, when the file has a non-empty one.
    var footer: String?
}

/// Parses TZif bytes, using the 64-bit section when the file has one; leap-second records are skipped.
enum ZoneInfoParser {
    /// The tables of a TZif file; `name` is used in errors.
    static func parse(_ bytes: [UInt8], name: String) throws(ZoneInfoError) -> ZoneInfoTables {
        var reader = ByteReader(bytes: bytes, name: name)
        // The 32-bit block of a version 2+ file is skipped unchecked (`zic -b slim` leaves it nearly empty).
        let first = try reader.header(validating: false)
        guard first.version >= 2 else {
            try first.validate(reader)
            return try reader.block(first, timeSize: 4)
        }
        try reader.skip(first.blockSize(timeSize: 4))
        let second = try reader.header(validating: true)
        var tables = try reader.block(second, timeSize: 8)
        tables.footer = try reader.footer()
        return tables
    }
}

/// The counts in a TZif header.
private struct Header {
    var version: Int
    var isUTCCount: Int
    var isStandardCount: Int
    var leapCount: Int
    var timeCount: Int
    var typeCount: Int
    var characterCount: Int

    /// Refuses counts no valid file has.
    func validate(_ reader: ByteReader) throws(ZoneInfoError) {
        guard typeCount >= 1, characterCount >= 1 else { throw reader.corrupt("it declares no local time types") }
        guard [0, typeCount].contains(isUTCCount), [0, typeCount].contains(isStandardCount) else {
            throw reader.corrupt("its indicator counts do not match its type count")
        }
    }

    func blockSize(timeSize: Int) -> Int {
        timeCount * timeSize + timeCount + typeCount * 6 + characterCount + leapCount * (timeSize + 4) + isStandardCount + isUTCCount
    }
}

/// Reads big-endian fields from TZif bytes, refusing to read past the end.
private struct ByteReader {
    let bytes: [UInt8]
    let name: String
    var index = 0

    func corrupt(_ detail: String) -> ZoneInfoError {
        ZoneInfoError(.corrupt, "the time zone file for \(name) is corrupt: \(detail)")
    }

    mutating func skip(_ count: Int) throws(ZoneInfoError) {
        guard count >= 0, bytes.count - index >= count else { throw corrupt("it ends early") }
        index += count
    }

    mutating func integer(size: Int) throws(ZoneInfoError) -> Int64 {
        guard bytes.count - index >= size else { throw corrupt("it ends early") }
        var value: UInt64 = 0
        for offset in 0..<size { value = value << 8 | UInt64(bytes[index + offset]) }
        index += size
        // Sign-extend from `size` bytes.
        let shift = UInt64(64 - size * 8)
        return Int64(bitPattern: value << shift) >> Int64(shift)
    }

    mutating func byte() throws(ZoneInfoError) -> UInt8 {
        guard index < bytes.count else { throw corrupt("it ends early") }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func header(validating: Bool) throws(ZoneInfoError) -> Header {
        guard bytes.count - index >= 44, bytes[index..<(index + 4)].elementsEqual("TZif".utf8) else {
            throw corrupt("no TZif header")
        }
        let versionByte = bytes[index + 4]
        let version: Int
        switch versionByte {
        case 0: version = 1
        case UInt8(ascii: "2")...UInt8(ascii: "4"): version = Int(versionByte - UInt8(ascii: "0"))
        default: throw corrupt("unknown version byte \(versionByte)")
        }
        try skip(20)
        var counts: [Int] = []
        for _ in 0..<6 { counts.append(Int(try integer(size: 4))) }
        let header = Header(
            version: version, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
            timeCount: counts[3], typeCount: counts[4], characterCount: counts[5])
        guard counts.allSatisfy({ $0 >= 0 && $0 < 1 << 24 }) else { throw corrupt("its counts are out of range") }
        if validating { try header.validate(self) }
        return header
    }

    mutating func block(_ header: Header, timeSize: Int) throws(ZoneInfoError) -> ZoneInfoTables {
        guard bytes.count - index >= header.blockSize(timeSize: timeSize) else { throw corrupt("it ends early") }
        var times: [Int64] = []
        times.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            let time = try integer(size: timeSize)
            guard times.last.map({ $0 < time }) ?? true else { throw corrupt("its transitions are out of order") }
            times.append(time)
        }
        var typeIndexes: [Int] = []
        typeIndexes.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            let typeIndex = Int(try byte())
            guard typeIndex < header.typeCount else { throw corrupt("a transition names local time type \(typeIndex) of \(header.typeCount)") }
            typeIndexes.append(typeIndex)
        }
        var raw: [(offset: Int, isDaylight: Bool, abbreviationIndex: Int)] = []
        for _ in 0..<header.typeCount {
            let offset = Int(try integer(size: 4))
            let isDaylight = try byte()
            let abbreviationIndex = Int(try byte())
            guard (-89_999...93_599).contains(offset), isDaylight <= 1, abbreviationIndex < header.characterCount else {
                throw corrupt("a local time type is out of range")
            }
            raw.append((offset, isDaylight == 1, abbreviationIndex))
        }
        let characters = Array(bytes[index..<(index + header.characterCount)])
        try skip(header.characterCount)
        try skip(header.leapCount * (timeSize + 4) + header.isStandardCount + header.isUTCCount)
        let types = raw.map { entry in
            let tail = characters[entry.abbreviationIndex...]
            let abbreviation = String(decoding: tail.prefix { $0 != 0 }, as: UTF8.self)
            return ZoneInfo.LocalTimeType(utcOffsetSeconds: entry.offset, isDaylightSaving: entry.isDaylight, abbreviation: abbreviation)
        }
        return ZoneInfoTables(times: times, typeIndexes: typeIndexes, types: types, footer: nil)
    }

    /// The `\n<TZ string>\n` after a version 2+ block; nil for an empty string.
    mutating func footer() throws(ZoneInfoError) -> String? {
        guard index < bytes.count, bytes[index] == 10 else { throw corrupt("the footer is missing") }
        guard let close = bytes[(index + 1)...].firstIndex(of: 10) else { throw corrupt("the footer is not terminated") }
        let text = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
        index = close + 1
        return text.isEmpty ? nil : text
    }
}
