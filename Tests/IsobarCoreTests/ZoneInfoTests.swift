import Foundation
import IsobarCore
import Testing

@Suite("ZoneInfo")
struct ZoneInfoTests {
    /// An instant from a UTC wall-clock time.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Date {
        Date(timeIntervalSince1970: Double(CivilTime.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60))
    }

    static func date(_ year: Int, _ month: Int, _ day: Int) -> LocalDate { LocalDate(year: year, month: month, day: day)! }

    static func hours(_ range: Range<Date>) -> Double { range.upperBound.timeIntervalSince(range.lowerBound) / 3600 }

    // MARK: New York, west of UTC, with DST

    /// DST ends on Sunday 1 November 2026 at 02:00 EDT = 06:00 UTC, when clocks go back to 01:00 EST.
    @Test func newYorkFallBackMakesA25HourDay() throws {
        let zone = try ZoneInfo.load(identifier: "America/New_York")
        #expect(zone.offset(at: Self.utc(2026, 11, 1, 5, 59)) == -4 * 3600)
        #expect(zone.offset(at: Self.utc(2026, 11, 1, 6, 0)) == -5 * 3600)
        let day = zone.interval(of: Self.date(2026, 11, 1))
        // Midnight EDT (UTC−4) on 1 November is 04:00 UTC: day 20 758 × 86 400 s + 4 h = 1 793 505 600.
        #expect(day.lowerBound == Date(timeIntervalSince1970: 1_793_505_600))
        #expect(day.lowerBound == Self.utc(2026, 11, 1, 4))
        // Midnight EST (UTC−5) on 2 November is 05:00 UTC.
        #expect(day.upperBound == Self.utc(2026, 11, 2, 5))
        #expect(Self.hours(day) == 25)
        #expect(Self.hours(zone.interval(of: Self.date(2026, 11, 2))) == 24)
    }

    /// DST starts on Sunday 8 March 2026 at 02:00 EST = 07:00 UTC, when clocks jump to 03:00 EDT.
    @Test func newYorkSpringForwardMakesA23HourDay() throws {
        let zone = try ZoneInfo.load(identifier: "America/New_York")
        #expect(zone.offset(at: Self.utc(2026, 3, 8, 6, 59)) == -5 * 3600)
        #expect(zone.offset(at: Self.utc(2026, 3, 8, 7, 0)) == -4 * 3600)
        #expect(zone.localTimeType(at: Self.utc(2026, 3, 8, 7)).abbreviation == "EDT")
        #expect(zone.localTimeType(at: Self.utc(2026, 3, 8, 7)).isDaylightSaving)
        let day = zone.interval(of: Self.date(2026, 3, 8))
        #expect(day.lowerBound == Self.utc(2026, 3, 8, 5))
        #expect(day.upperBound == Self.utc(2026, 3, 9, 4))
        #expect(Self.hours(day) == 23)
        #expect(zone.startOfDay(Self.date(2026, 3, 7)) == Self.utc(2026, 3, 7, 5))
    }

    @Test func newYorkLocalDatesAroundMidnight() throws {
        let zone = try ZoneInfo.load(identifier: "America/New_York")
        // 03:59 UTC on 28 November is 22:59 EST on the 27th.
        #expect(zone.localDate(of: Self.utc(2026, 11, 28, 3, 59)) == Self.date(2026, 11, 27))
        #expect(zone.localDate(of: Self.utc(2026, 11, 28, 5, 0)) == Self.date(2026, 11, 28))
    }

    /// The bundled file's table ends in 2037; later instants follow the footer `EST5EDT,M3.2.0,M11.1.0`.
    @Test func newYorkBeyondTheTableFollowsTheFooterRule() throws {
        let zone = try ZoneInfo.load(identifier: "America/New_York")
        #expect(zone.offset(at: Self.utc(2050, 1, 15, 12)) == -5 * 3600)
        #expect(zone.offset(at: Self.utc(2050, 7, 1, 12)) == -4 * 3600)
        // 2050: 13 March and 6 November are the second and first Sundays.
        #expect(zone.offset(at: Self.utc(2050, 3, 13, 6, 59)) == -5 * 3600)
        #expect(zone.offset(at: Self.utc(2050, 3, 13, 7)) == -4 * 3600)
        #expect(zone.offset(at: Self.utc(2050, 11, 6, 5, 59)) == -4 * 3600)
        #expect(zone.offset(at: Self.utc(2050, 11, 6, 6)) == -5 * 3600)
        #expect(Self.hours(zone.interval(of: Self.date(2050, 11, 6))) == 25)
    }

    // MARK: Europe and Asia

    /// BST from 01:00 UTC on 29 March to 01:00 UTC on 25 October 2026.
    @Test func london() throws {
        let zone = try ZoneInfo.load(identifier: "Europe/London")
        #expect(zone.offset(at: Self.utc(2026, 1, 15, 12)) == 0)
        #expect(zone.offset(at: Self.utc(2026, 3, 29, 0, 59)) == 0)
        #expect(zone.offset(at: Self.utc(2026, 3, 29, 1)) == 3600)
        #expect(zone.offset(at: Self.utc(2026, 10, 25, 0, 59)) == 3600)
        #expect(zone.offset(at: Self.utc(2026, 10, 25, 1)) == 0)
        #expect(zone.startOfDay(Self.date(2026, 7, 1)) == Self.utc(2026, 6, 30, 23))
        #expect(Self.hours(zone.interval(of: Self.date(2026, 3, 29))) == 23)
        #expect(Self.hours(zone.interval(of: Self.date(2026, 10, 25))) == 25)
    }

    /// Tokyo is UTC+9 all year: a local day starts at 15:00 UTC the day before.
    @Test func tokyoEastOfUTC() throws {
        let zone = try ZoneInfo.load(identifier: "Asia/Tokyo")
        #expect(zone.offset(at: Self.utc(2026, 1, 15)) == 9 * 3600)
        #expect(zone.offset(at: Self.utc(2026, 7, 15)) == 9 * 3600)
        #expect(zone.localTimeType(at: Self.utc(2026, 7, 15)).abbreviation == "JST")
        let day = zone.interval(of: Self.date(2026, 11, 28))
        #expect(day.lowerBound == Self.utc(2026, 11, 27, 15))
        #expect(Self.hours(day) == 24)
        #expect(zone.localDate(of: Self.utc(2026, 11, 27, 15)) == Self.date(2026, 11, 28))
        #expect(zone.localDate(of: Self.utc(2026, 11, 27, 14, 59)) == Self.date(2026, 11, 27))
    }

    /// Minsk had EET/EEST until 27 March 2011 and has kept UTC+3 without DST since.
    @Test func minskHasNoDSTSince2011() throws {
        let zone = try ZoneInfo.load(identifier: "Europe/Minsk")
        #expect(zone.offset(at: Self.utc(2010, 1, 15)) == 2 * 3600)
        #expect(zone.offset(at: Self.utc(2010, 7, 15)) == 3 * 3600)
        #expect(zone.offset(at: Self.utc(2026, 1, 15)) == 3 * 3600)
        #expect(zone.offset(at: Self.utc(2026, 7, 15)) == 3 * 3600)
        #expect(zone.offset(at: Self.utc(2060, 7, 15)) == 3 * 3600)
        #expect(!zone.localTimeType(at: Self.utc(2026, 7, 15)).isDaylightSaving)
        #expect(zone.transitions(from: Self.utc(2012, 1, 1), to: Self.utc(2060, 1, 1)).isEmpty)
        for month in 1...12 { #expect(Self.hours(zone.interval(of: Self.date(2026, month, 1))) == 24) }
    }

    /// Sydney (southern hemisphere): AEDT (UTC+11) in January, AEST (UTC+10) in July, also past the table.
    @Test func sydneyDaylightTimeSpansTheNewYear() throws {
        let zone = try ZoneInfo.load(identifier: "Australia/Sydney")
        for year in [2026, 2050] {
            #expect(zone.offset(at: Self.utc(year, 1, 15)) == 11 * 3600)
            #expect(zone.offset(at: Self.utc(year, 7, 15)) == 10 * 3600)
            #expect(zone.offset(at: Self.utc(year, 12, 31, 12)) == 11 * 3600)
        }
        // 2026: AEDT ends Sunday 5 April 03:00 local = 16:00 UTC on the 4th.
        #expect(zone.offset(at: Self.utc(2026, 4, 4, 15, 59)) == 11 * 3600)
        #expect(zone.offset(at: Self.utc(2026, 4, 4, 16)) == 10 * 3600)
    }

    /// Havana skips midnight on 8 March 2026 (00:00 CST → 01:00 CDT at 05:00 UTC): the day starts at the change.
    @Test func aDayWhoseMidnightIsSkippedStartsAtTheChange() throws {
        let zone = try ZoneInfo.load(identifier: "America/Havana")
        let day = zone.interval(of: Self.date(2026, 3, 8))
        #expect(day.lowerBound == Self.utc(2026, 3, 8, 5))
        #expect(day.upperBound == Self.utc(2026, 3, 9, 4))
        #expect(Self.hours(day) == 23)
        // 1 November: 01:00 CDT goes back to 00:00 CST, so midnight happens twice; the day starts at the first.
        #expect(zone.startOfDay(Self.date(2026, 11, 1)) == Self.utc(2026, 11, 1, 4))
    }

    /// Beirut goes back from 00:00 EEST on 25 October 2026 to 23:00 EET on the 24th: the 24th lasts 25 hours.
    @Test func aChangeBackOverMidnightLengthensTheDayBefore() throws {
        let zone = try ZoneInfo.load(identifier: "Asia/Beirut")
        let day = zone.interval(of: Self.date(2026, 10, 24))
        #expect(day.lowerBound == Self.utc(2026, 10, 23, 21))
        #expect(day.upperBound == Self.utc(2026, 10, 24, 22))
    }

    @Test func transitionsOfAYear() throws {
        let zone = try ZoneInfo.load(identifier: "America/New_York")
        let changes = zone.transitions(from: Self.utc(2026, 1, 1), to: Self.utc(2027, 1, 1))
        #expect(changes.map(\.instant) == [Self.utc(2026, 3, 8, 7), Self.utc(2026, 11, 1, 6)])
        #expect(changes.map(\.after.abbreviation) == ["EDT", "EST"])
        let later = zone.transitions(from: Self.utc(2050, 1, 1), to: Self.utc(2051, 1, 1))
        #expect(later.map(\.instant) == [Self.utc(2050, 3, 13, 7), Self.utc(2050, 11, 6, 6)])
    }

    // MARK: POSIX TZ strings

    @Test func posixRuleMatchesTheTable() throws {
        let rule = try ZoneInfo(identifier: "US/Eastern rule", posixTZ: "EST5EDT,M3.2.0,M11.1.0")
        let table = try ZoneInfo.load(identifier: "America/New_York")
        var instant = Self.utc(2026, 1, 1)
        while instant < Self.utc(2027, 1, 1) {
            #expect(rule.offset(at: instant) == table.offset(at: instant), "at \(instant)")
            instant += 3 * 3600 + 17 * 60
        }
    }

    @Test func posixRuleForms() throws {
        #expect(try ZoneInfo(identifier: "t", posixTZ: "<+0330>-3:30").offset(at: Self.utc(2026, 6, 1)) == 12_600)
        #expect(try ZoneInfo(identifier: "t", posixTZ: "<-03>3").offset(at: Self.utc(2026, 6, 1)) == -10_800)
        #expect(try ZoneInfo(identifier: "t", posixTZ: "UTC0").offset(at: Self.utc(2026, 6, 1)) == 0)
        // No rule after the DST name: the POSIX default (second Sunday of March to first Sunday of November).
        let defaulted = try ZoneInfo(identifier: "t", posixTZ: "EST5EDT")
        #expect(defaulted.offset(at: Self.utc(2026, 7, 1)) == -4 * 3600)
        // Jn never counts 29 February: J60 is 1 March in every year; zero-based 59 is 29 February in a leap year.
        let julian = try ZoneInfo(identifier: "t", posixTZ: "AAA0BBB,J60/0,J300/0")
        #expect(julian.offset(at: Self.utc(2028, 2, 29, 23)) == 0)
        #expect(julian.offset(at: Self.utc(2028, 3, 1, 0)) == 3600)
        let zeroBased = try ZoneInfo(identifier: "t", posixTZ: "AAA0BBB,59/0,299/0")
        #expect(zeroBased.offset(at: Self.utc(2028, 2, 28, 23)) == 0)
        #expect(zeroBased.offset(at: Self.utc(2028, 2, 29, 0)) == 3600)
        // Version 3 times outside 0…24 h, and a DST offset given explicitly.
        let extended = try ZoneInfo(identifier: "t", posixTZ: "<-03>3<-02>2,M3.5.0/-2,M10.5.0/-1")
        #expect(extended.offset(at: Self.utc(2026, 7, 1)) == -2 * 3600)
        #expect(extended.offset(at: Self.utc(2026, 12, 1)) == -3 * 3600)
    }

    @Test(arguments: ["", "E5", "EST", "EST5EDT,M3.2.0", "EST5EDT,M13.2.0,M11.1.0", "EST5EDT,M3.6.0,M11.1.0", "EST5EDT,J0,J10", "<+03-3", "EST99"])
    func malformedPosixStringsAreRefused(_ text: String) {
        #expect(throws: ZoneInfoError(.corrupt, "")) { try ZoneInfo(identifier: "t", posixTZ: text) }
    }

    /// POSIX-style `Etc/GMT+5` is five hours west of UTC; `UTC` has one type and no transitions.
    @Test func fixedZones() throws {
        #expect(try ZoneInfo.load(identifier: "Etc/GMT+5").offset(at: Self.utc(2026, 7, 1)) == -5 * 3600)
        let utc = try ZoneInfo.load(identifier: "UTC")
        #expect(utc.offset(at: Self.utc(2026, 7, 1)) == 0)
        #expect(utc.startOfDay(Self.date(2026, 11, 28)) == Self.utc(2026, 11, 28))
    }

    // MARK: Failure modes

    @Test func aMissingZoneIsNotFound() {
        #expect(throws: ZoneInfoError(.notFound, "")) { try ZoneInfo.load(identifier: "Mars/Olympus_Mons") }
        #expect(throws: ZoneInfoError(.notFound, "")) { try ZoneInfo.load(identifier: "America") }
        do {
            _ = try ZoneInfo.load(identifier: "Mars/Olympus_Mons")
        } catch {
            #expect(error.message.contains("Mars/Olympus_Mons"))
        }
    }

    @Test(arguments: ["../etc/passwd", "/etc/passwd", "America/../../etc/passwd", "..", "Europe/..", "", "Europe/Minsk\u{0}", "Europe\\Minsk", "Europe/Mi nsk"])
    func identifiersThatLeaveTheDirectoryAreRefused(_ identifier: String) {
        #expect(throws: ZoneInfoError(.invalidIdentifier, "")) { try ZoneInfo.load(identifier: identifier) }
    }

    /// `zone.tab` sits among the zone files but is text.
    @Test func aFileThatIsNotAZoneIsCorrupt() {
        #expect(throws: ZoneInfoError(.corrupt, "")) { try ZoneInfo.load(identifier: "zone.tab") }
    }

    @Test func corruptFilesAreRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zoneinfo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = TZifBuilder(version: 2, transitions: [(0, 1)], types: [(-18_000, false, "EST"), (-14_400, true, "EDT")], footer: "EST5EDT,M3.2.0,M11.1.0").bytes
        var badIndex = TZifBuilder(version: 1, transitions: [(0, 1)], types: [(0, false, "UTC")]).bytes
        badIndex[44 + 4] = 7  // The transition's type index, past the one type.
        let cases: [(String, [UInt8])] = [
            ("Empty", []),
            ("NotTZif", Array("Hello, world, this is not a zone file at all....".utf8)),
            ("Truncated", Array(good.prefix(good.count / 2))),
            ("NoFooter", Array(good.dropLast("EST5EDT,M3.2.0,M11.1.0".utf8.count + 2))),
            ("BadFooter", TZifBuilder(version: 2, transitions: [], types: [(0, false, "UTC")], footer: "nonsense").bytes),
            ("BadIndex", badIndex),
        ]
        for (name, bytes) in cases {
            try Data(bytes).write(to: directory.appendingPathComponent(name))
            #expect(throws: ZoneInfoError(.corrupt, ""), "\(name)") { try ZoneInfo.load(identifier: name, directory: directory.path) }
        }
        try Data(good).write(to: directory.appendingPathComponent("Good"))
        #expect(try ZoneInfo.load(identifier: "Good", directory: directory.path).offset(at: Self.utc(2030, 7, 1)) == -14_400)
    }

    // MARK: Versions

    @Test func versionOneFileUsesItsThirtyTwoBitTable() throws {
        // UTC+1 until 2000-01-01, then UTC+2 (a DST type) for ever: version 1 has no footer.
        let bytes = TZifBuilder(version: 1, transitions: [(946_684_800, 1)], types: [(3600, false, "AAA"), (7200, true, "BBB")]).bytes
        let zone = try ZoneInfo(identifier: "v1", tzif: bytes)
        #expect(zone.offset(at: Self.utc(1999, 12, 31, 22, 59)) == 3600)
        #expect(zone.offset(at: Self.utc(2000, 1, 1)) == 7200)
        #expect(zone.offset(at: Self.utc(2100, 1, 1)) == 7200)
        #expect(zone.localTimeType(at: Self.utc(2000, 1, 1)) == .init(utcOffsetSeconds: 7200, isDaylightSaving: true, abbreviation: "BBB"))
    }

    @Test func versionTwoFileUsesTheSixtyFourBitTableAndTheFooter() throws {
        // A transition before 1901 only fits the 64-bit table (the 32-bit one is left empty here, as zic -b slim does).
        let early: Int64 = -3_000_000_000
        let bytes = TZifBuilder(version: 3, transitions: [(early, 1)], types: [(1800, false, "LMT"), (3600, false, "CET"), (7200, true, "CEST")],
                                footer: "CET-1CEST,M3.5.0,M10.5.0/3").bytes
        let zone = try ZoneInfo(identifier: "v3", tzif: bytes)
        #expect(zone.offset(at: Date(timeIntervalSince1970: Double(early - 1))) == 1800)
        #expect(zone.offset(at: Date(timeIntervalSince1970: Double(early))) == 3600)
        #expect(zone.offset(at: Self.utc(2026, 7, 1)) == 7200)
        #expect(zone.offset(at: Self.utc(2026, 12, 1)) == 3600)
    }
}

/// Writes TZif bytes (RFC 8536): a version 1 file has only the 32-bit block; later versions an empty 32-bit block,
/// the 64-bit block and the footer.
struct TZifBuilder {
    var version: Int
    var transitions: [(Int64, UInt8)]
    var types: [(Int32, Bool, String)]
    var footer: String = ""

    var bytes: [UInt8] {
        var characters: [UInt8] = []
        var indexes: [UInt8] = []
        for type in types {
            indexes.append(UInt8(characters.count))
            characters += Array(type.2.utf8) + [0]
        }
        func header(timeCount: Int, typeCount: Int, characterCount: Int) -> [UInt8] {
            var result = Array("TZif".utf8) + [version == 1 ? 0 : UInt8(ascii: "0") + UInt8(version)] + Array(repeating: 0, count: 15)
            for count in [0, 0, 0, timeCount, typeCount, characterCount] { result += Self.bigEndian(Int64(count), size: 4) }
            return result
        }
        func block(timeSize: Int) -> [UInt8] {
            var result = header(timeCount: transitions.count, typeCount: types.count, characterCount: characters.count)
            for transition in transitions { result += Self.bigEndian(transition.0, size: timeSize) }
            result += transitions.map(\.1)
            for (index, type) in types.enumerated() { result += Self.bigEndian(Int64(type.0), size: 4) + [type.1 ? 1 : 0, indexes[index]] }
            return result + characters
        }
        if version == 1 { return block(timeSize: 4) }
        // An empty 32-bit block: no transitions, one type (UTC), one character.
        let empty = header(timeCount: 0, typeCount: 1, characterCount: 1) + Self.bigEndian(0, size: 4) + [0, 0] + [0]
        return empty + block(timeSize: 8) + [10] + Array(footer.utf8) + [10]
    }

    static func bigEndian(_ value: Int64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * Int64($0))) }
    }
}
