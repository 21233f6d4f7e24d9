import FoundationEssentials

/// An IANA time zone read from a TZif file (glibc's `/usr/share/zoneinfo`), without ICU: UTC offsets and DST-aware local days.
///
/// Instants inside the file's transition table use the table; instants after its last transition use the
/// POSIX `TZ` rule of the file's footer (for example `EST5EDT,M3.2.0,M11.1.0`); instants before the first
/// transition use the file's first local time type.
public struct ZoneInfo: Sendable, Equatable {
    /// The local time in force over an interval.
    public struct LocalTimeType: Sendable, Equatable {
        /// Seconds east of UTC.
        public var utcOffsetSeconds: Int
        /// True for daylight saving (summer) time.
        public var isDaylightSaving: Bool
        /// Abbreviation such as `EST` or `+03`.
        public var abbreviation: String

        /// Creates a local time type.
        public init(utcOffsetSeconds: Int, isDaylightSaving: Bool, abbreviation: String) {
            self.utcOffsetSeconds = utcOffsetSeconds
            self.isDaylightSaving = isDaylightSaving
            self.abbreviation = abbreviation
        }
    }

    /// One change of local time.
    public struct Transition: Sendable, Equatable {
        /// Seconds since 1970 UTC.
        let seconds: Int64
        /// The local time before the change.
        public let before: LocalTimeType
        /// The local time from the change on.
        public let after: LocalTimeType

        /// The instant of the change.
        public var instant: Date { Date(timeIntervalSince1970: Double(seconds)) }
    }

    /// Where glibc installs the zone files.
    public static let defaultDirectory = "/usr/share/zoneinfo"

    /// The zone's name, e.g. `America/New_York`.
    public let identifier: String
    private let tables: ZoneInfoTables
    private let rule: ZoneInfoRule?

    /// Reads the zone `identifier` (e.g. `Europe/Minsk`) from `directory`; refuses names with `..` or a leading `/`.
    public static func load(identifier: String, directory: String = defaultDirectory) throws(ZoneInfoError) -> ZoneInfo {
        try validate(identifier)
        let path = directory + "/" + identifier
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory else {
            throw ZoneInfoError(.notFound, "no time zone named \(identifier) in \(directory)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ZoneInfoError(.unreadable, "the time zone file for \(identifier) in \(directory) cannot be read")
        }
        return try ZoneInfo(identifier: identifier, tzif: [UInt8](data))
    }

    /// A zone from the bytes of a TZif file.
    public init(identifier: String, tzif bytes: [UInt8]) throws(ZoneInfoError) {
        let tables = try ZoneInfoParser.parse(bytes, name: identifier)
        var rule: ZoneInfoRule?
        if let footer = tables.footer {
            guard let parsed = ZoneInfoRule(footer) else {
                throw ZoneInfoError(.corrupt, "the time zone file for \(identifier) is corrupt: bad TZ string '\(footer)'")
            }
            rule = parsed
        }
        self.identifier = identifier
        self.tables = tables
        self.rule = rule
    }

    /// A zone with no table, following a POSIX `TZ` string such as `EST5EDT,M3.2.0,M11.1.0` or `<+03>-3` at every instant.
    public init(identifier: String, posixTZ text: String) throws(ZoneInfoError) {
        guard let rule = ZoneInfoRule(text) else { throw ZoneInfoError(.corrupt, "bad TZ string '\(text)'") }
        self.identifier = identifier
        self.tables = ZoneInfoTables(times: [], typeIndexes: [], types: [rule.standard], footer: text)
        self.rule = rule
    }

    /// Refuses identifiers that are empty, absolute, contain `..` or characters outside `A–Z a–z 0–9 / _ - + .`.
    static func validate(_ identifier: String) throws(ZoneInfoError) {
        let allowed = identifier.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            case UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."): true
            default: false
            }
        }
        guard !identifier.isEmpty, identifier.utf8.count <= 255, allowed, !identifier.hasPrefix("/"), !identifier.containsBytes("..") else {
            throw ZoneInfoError(.invalidIdentifier, "'\(identifier)' is not a time zone name")
        }
    }

    // MARK: Offsets

    /// The local time type in force at an instant.
    public func localTimeType(at instant: Date) -> LocalTimeType {
        localTimeType(atSeconds: Int64(instant.timeIntervalSince1970.rounded(.down)))
    }

    /// Seconds east of UTC at an instant.
    public func offset(at instant: Date) -> Int { localTimeType(at: instant).utcOffsetSeconds }

    func localTimeType(atSeconds seconds: Int64) -> LocalTimeType {
        let times = tables.times
        guard let first = times.first, let last = times.last else { return rule?.localTimeType(at: seconds) ?? tables.types[0] }
        if seconds < first { return tables.types[0] }
        if seconds >= last, let rule { return rule.localTimeType(at: seconds) }
        // The last transition at or before `seconds`.
        return tables.types[tables.typeIndexes[Self.firstIndex(in: times, after: seconds) - 1]]
    }

    /// The index of the first element of the ascending `times` greater than `seconds` (`times.count` when none is).
    private static func firstIndex(in times: [Int64], after seconds: Int64) -> Int {
        var low = 0
        var high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Every change of local time after `start` and up to `end`, from the table and then from the footer's rule.
    public func transitions(from start: Date, to end: Date) -> [Transition] {
        transitions(after: Int64(start.timeIntervalSince1970.rounded(.down)), through: Int64(end.timeIntervalSince1970.rounded(.down)))
    }

    func transitions(after lower: Int64, through upper: Int64) -> [Transition] {
        var result: [Transition] = []
        let times = tables.times
        var index = Self.firstIndex(in: times, after: lower)
        while index < times.count && times[index] <= upper {
            let before = index == 0 ? tables.types[0] : tables.types[tables.typeIndexes[index - 1]]
            result.append(Transition(seconds: times[index], before: before, after: tables.types[tables.typeIndexes[index]]))
            index += 1
        }
        if let rule {
            let ruleStart = max(lower, times.last ?? Int64.min)
            if ruleStart < upper { result += rule.transitions(after: ruleStart, through: upper) }
        }
        return result.filter { $0.before != $0.after }
    }

    // MARK: Local days

    /// The local calendar day of an instant.
    public func localDate(of instant: Date) -> LocalDate { LocalDate(instant, utcOffsetSeconds: offset(at: instant)) }

    /// The first instant of a local day: local midnight, or the end of the gap when midnight is skipped by a change of time.
    public func startOfDay(_ date: LocalDate) -> Date {
        Date(timeIntervalSince1970: Double(startOfDaySeconds(date)))
    }

    /// A local day from its first instant up to the first instant of the next day: 23, 24 or 25 hours around DST changes.
    public func interval(of date: LocalDate) -> Range<Date> {
        startOfDay(date)..<startOfDay(LocalDate(daysSinceEpoch: date.daysSinceEpoch + 1))
    }

    /// The first instant `t` whose wall clock `t + offset(t)` reaches local midnight of `date`.
    ///
    /// The wall clock rises with `t` except at changes of time, so that instant is either one where the wall clock
    /// reads exactly midnight under one of the offsets in force near it, or a change that jumps over midnight.
    func startOfDaySeconds(_ date: LocalDate) -> Int64 {
        let midnight = Int64(date.daysSinceEpoch) * 86_400
        let window: Int64 = 30 * 3600  // Wider than any UTC offset.
        let changes = transitions(after: midnight - window, through: midnight + window)
        var offsets = Set([localTimeType(atSeconds: midnight - window).utcOffsetSeconds])
        var candidates: [Int64] = []
        for change in changes {
            offsets.insert(change.after.utcOffsetSeconds)
            let before = change.seconds + Int64(change.before.utcOffsetSeconds)
            let after = change.seconds + Int64(change.after.utcOffsetSeconds)
            if before < midnight && midnight <= after { candidates.append(change.seconds) }
        }
        for offset in offsets {
            let instant = midnight - Int64(offset)
            if localTimeType(atSeconds: instant).utcOffsetSeconds == offset { candidates.append(instant) }
        }
        return candidates.min() ?? midnight - Int64(localTimeType(atSeconds: midnight).utcOffsetSeconds)
    }
}
