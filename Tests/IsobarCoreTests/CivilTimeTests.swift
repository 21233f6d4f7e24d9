import FoundationEssentials
import IsobarCore
import Testing

@Suite("CivilTime and LocalDate")
struct CivilTimeTests {
    /// 2026-11-28T09:00:00Z: 20 785 days × 86 400 s + 9 h.
    static let nineUTC = Date(timeIntervalSince1970: 1_795_856_400)

    // MARK: Days ↔ civil dates

    /// Day counts computed by hand: 2000-01-01 is day 10 957 (30 years, 7 leap days);
    /// 2026-01-01 is day 20 454 (56 years, 14 leap days) and 28 November is its 332nd day;
    /// 2100-01-01 is day 47 482 (130 years, 32 leap days).
    @Test(arguments: [
        (1970, 1, 1, 0),
        (1970, 1, 2, 1),
        (1969, 12, 31, -1),
        (1900, 1, 1, -25_567),
        (1, 1, 1, -719_162),
        (2000, 1, 1, 10_957),
        (2000, 2, 29, 11_016),
        (2000, 3, 1, 11_017),
        (2025, 11, 28, 20_420),
        (2026, 1, 1, 20_454),
        (2026, 11, 28, 20_785),
        (2038, 1, 19, 24_855),
        (2100, 2, 28, 47_540),
        (2100, 3, 1, 47_541),
    ])
    func daysAndCivilDatesAgree(year: Int, month: Int, day: Int, days: Int) throws {
        #expect(CivilTime.days(year: year, month: month, day: day) == days)
        let civil = CivilTime.civil(fromDays: days)
        #expect(civil.year == year && civil.month == month && civil.day == day)
        let date = try #require(LocalDate(year: year, month: month, day: day))
        #expect(date.daysSinceEpoch == days)
        #expect(date.components.year == year && date.components.month == month && date.components.day == day)
    }

    @Test func everyDayOverFourCenturiesRoundTrips() {
        // 1800-01-01 … 2199-12-31 covers three non-leap century years and the leap year 2000.
        let first = CivilTime.days(year: 1800, month: 1, day: 1)
        let last = CivilTime.days(year: 2199, month: 12, day: 31)
        #expect(last - first + 1 == 146_097)
        var previous = CivilTime.civil(fromDays: first - 1)
        for days in first...last {
            let civil = CivilTime.civil(fromDays: days)
            if CivilTime.days(year: civil.year, month: civil.month, day: civil.day) != days {
                Issue.record("day \(days) → \(civil) does not round trip")
                return
            }
            let continues = civil.day == previous.day + 1 && civil.month == previous.month && civil.year == previous.year
            let newMonth = civil.day == 1 && previous.day == CivilTime.daysIn(month: previous.month, year: previous.year)
            if !(continues || newMonth) {
                Issue.record("day \(days): \(previous) is not followed by \(civil)")
                return
            }
            previous = civil
        }
    }

    @Test(arguments: [
        (2026, 2, 29), (2100, 2, 29), (1900, 2, 29), (2026, 13, 1), (2026, 0, 10), (2026, 4, 31), (2026, 1, 0), (2026, 1, 32),
    ])
    func invalidDatesAreRejected(year: Int, month: Int, day: Int) {
        #expect(LocalDate(year: year, month: month, day: day) == nil)
    }

    @Test func daysInMonth() {
        #expect(CivilTime.daysIn(month: 2, year: 2024) == 29)
        #expect(CivilTime.daysIn(month: 2, year: 2026) == 28)
        #expect(CivilTime.daysIn(month: 2, year: 2000) == 29)
        #expect(CivilTime.daysIn(month: 2, year: 2100) == 28)
        #expect(CivilTime.daysIn(month: 4, year: 2026) == 30)
        #expect(CivilTime.daysIn(month: 12, year: 2026) == 31)
    }

    // MARK: LocalDate text and weekdays

    @Test func isoTextOfLocalDates() throws {
        #expect(LocalDate(iso: "2026-11-28")?.daysSinceEpoch == 20_785)
        #expect(LocalDate(iso: "2026-11-28")?.description == "2026-11-28")
        #expect(LocalDate(daysSinceEpoch: 0).description == "1970-01-01")
        #expect(try #require(LocalDate(year: 5, month: 3, day: 1)).description == "0005-03-01")
        for text in ["2026-1-28", "2026-11-28x", "26-11-28", "2026/11/28", "2026-02-29", "", "2026-11-", "abcd-ef-gh"] {
            #expect(LocalDate(iso: Substring(text)) == nil, "\(text)")
        }
    }

    @Test(arguments: [
        ("1970-01-01", 4, "Thu"),
        ("1969-12-31", 3, "Wed"),
        ("2000-02-29", 2, "Tue"),
        ("2026-11-28", 6, "Sat"),
        ("2026-11-29", 7, "Sun"),
        ("2026-11-30", 1, "Mon"),
        ("1900-01-01", 1, "Mon"),
    ])
    func weekdays(date: String, isoWeekday: Int, name: String) throws {
        let local = try #require(LocalDate(iso: Substring(date)))
        #expect(local.isoWeekday == isoWeekday)
        #expect(local.weekdayName == name)
    }

    @Test func localDatesAreOrdered() {
        #expect(LocalDate(daysSinceEpoch: -1) < LocalDate(daysSinceEpoch: 0))
        #expect([LocalDate(daysSinceEpoch: 3), LocalDate(daysSinceEpoch: -5), LocalDate(daysSinceEpoch: 0)].sorted().map(\.daysSinceEpoch) == [-5, 0, 3])
    }

    @Test func startOfDayAtAnOffset() {
        let day = LocalDate(daysSinceEpoch: 20_785)
        #expect(day.start(utcOffsetSeconds: 0).timeIntervalSince1970 == 1_795_824_000)
        #expect(day.start(utcOffsetSeconds: 10_800).timeIntervalSince1970 == 1_795_813_200)
        #expect(day.start(utcOffsetSeconds: -18_000).timeIntervalSince1970 == 1_795_842_000)
    }

    // MARK: Local day of an instant

    @Test(arguments: [
        // 2026-11-28T23:30Z
        (1_795_908_600.0, 0, "2026-11-28"),
        (1_795_908_600.0, 3600, "2026-11-29"),
        (1_795_908_600.0, -18_000, "2026-11-28"),
        // 2026-11-28T03:00Z is 22:00 on the 27th in New York.
        (1_795_834_800.0, -18_000, "2026-11-27"),
        (1_795_834_800.0, 0, "2026-11-28"),
        // 2026-11-28T15:00Z is midnight starting the 29th in Tokyo; one second earlier is still the 28th.
        (1_795_878_000.0, 32_400, "2026-11-29"),
        (1_795_877_999.0, 32_400, "2026-11-28"),
        // 2026-11-28T05:00Z is midnight in New York.
        (1_795_842_000.0, -18_000, "2026-11-28"),
        (1_795_841_999.0, -18_000, "2026-11-27"),
        // Before 1970.
        (-1.0, 0, "1969-12-31"),
        (-0.5, 0, "1969-12-31"),
        (0.0, -1, "1969-12-31"),
        (-86_400.0, 0, "1969-12-31"),
        (-86_401.0, 0, "1969-12-30"),
    ])
    func localDateOfInstant(seconds: Double, offset: Int, expected: String) {
        #expect(LocalDate(Date(timeIntervalSince1970: seconds), utcOffsetSeconds: offset).description == expected)
    }

    // MARK: Parsing local times

    @Test func localISOWithoutSeconds() {
        #expect(CivilTime.instant(localISO: "2026-11-28T12:00", utcOffsetSeconds: 10_800) == Self.nineUTC)
        #expect(CivilTime.instant(localISO: "2026-11-28T09:00", utcOffsetSeconds: 0) == Self.nineUTC)
        #expect(CivilTime.instant(localISO: "2026-11-28T04:00", utcOffsetSeconds: -18_000) == Self.nineUTC)
        #expect(CivilTime.instant(localISO: "2026-11-28 12:00", utcOffsetSeconds: 10_800) == Self.nineUTC)
        #expect(CivilTime.instant(localISO: "1970-01-01T00:00", utcOffsetSeconds: 0) == Date(timeIntervalSince1970: 0))
        #expect(CivilTime.instant(localISO: "1969-12-31T23:00", utcOffsetSeconds: 0) == Date(timeIntervalSince1970: -3600))
    }

    @Test func localISOWithSeconds() {
        #expect(CivilTime.instant(localISO: "2026-11-28T12:00:30", utcOffsetSeconds: 10_800) == Self.nineUTC.addingTimeInterval(30))
        #expect(CivilTime.instant(localISO: "2026-11-28T23:59:59", utcOffsetSeconds: 0)?.timeIntervalSince1970 == 1_795_910_399)
    }

    @Test(arguments: [
        "2026-11-28 25:00",
        "2026-11-28T24:00",
        "2026-11-28T12:60",
        "2026-11-28T12:00:60",
        "2026-11-28T12:00:0",
        "2026-11-28T12:00:000",
        "2026-11-28T12",
        "2026-11-28",
        "2026-11-28X12:00",
        "2026/11/28T12:00",
        "2026-02-29T12:00",
        "2026-13-01T00:00",
        "2026-11-00T00:00",
        "garbage",
        "garbage garbage!",
        "",
        "2026-11-28T1a:00",
        "2026-11-28T12:0a",
        "2026-11-28T12-00",
        "2026-11-28T12:00Z",
        "2026-11-28T+1:00",
        "2026-11-28T12:+1",
        "2026-+1-28T12:00",
    ])
    func malformedLocalTimesAreRejected(text: String) {
        #expect(CivilTime.instant(localISO: text, utcOffsetSeconds: 0) == nil)
    }

    /// Sixteen UTF-8 bytes but only eight characters: must be rejected, not crash on the index of the `T`.
    @Test func nonASCIIInputOfTheRightByteLengthIsRejectedWithoutCrashing() async {
        await #expect(processExitsWith: .success) {
            precondition(CivilTime.instant(localISO: "éééééééé", utcOffsetSeconds: 0) == nil)
            precondition(CivilTime.instant(localISO: "ééééééééééé", utcOffsetSeconds: 0) == nil)
        }
    }

    @Test func localISOFromBytes() {
        var text = "2026-11-28T12:00:30"
        let instant = text.withUTF8 { CivilTime.instant(localISOBytes: $0, utcOffsetSeconds: 10_800) }
        #expect(instant == Self.nineUTC.addingTimeInterval(30))
        var bad = "2026-11-28T12:00:3x"
        #expect(bad.withUTF8 { CivilTime.instant(localISOBytes: $0, utcOffsetSeconds: 0) } == nil)
        var date = "2026-11-28"
        #expect(date.withUTF8 { CivilTime.localDate(isoBytes: $0) }?.daysSinceEpoch == 20_785)
    }

    // MARK: Parsing instants with a zone

    @Test(arguments: [
        "2026-11-28T09:00:00Z",
        "2026-11-28T09:00Z",
        "2026-11-28T12:00:00+03:00",
        "2026-11-28T04:00:00-05:00",
        "2026-11-28T14:45:00+05:45",
        "2026-11-28T05:30:00-03:30",
        "2026-11-28T09:00:00+00:00",
        "2026-11-29T00:00:00+15:00",
    ])
    func isoInstantsWithZones(text: String) {
        #expect(CivilTime.instant(iso: text) == Self.nineUTC)
    }

    @Test(arguments: ["2026-11-28T09:00:00", "2026-11-28T09:00:00+0300", "2026-11-28T09:00:00 03:00", "Z", "", "+03:00", "2026-11-28T09:00:00*03:00"])
    func isoInstantsWithoutAValidZoneAreRejected(text: String) {
        #expect(CivilTime.instant(iso: text) == nil)
    }

    // MARK: Formatting

    @Test(arguments: [
        (10_800, "2026-11-28T12:00:00+03:00"),
        (0, "2026-11-28T09:00:00+00:00"),
        (-18_000, "2026-11-28T04:00:00-05:00"),
        (20_700, "2026-11-28T14:45:00+05:45"),
        (-12_600, "2026-11-28T05:30:00-03:30"),
        (50_400, "2026-11-28T23:00:00+14:00"),
        (54_000, "2026-11-29T00:00:00+15:00"),
        (-36_000, "2026-11-27T23:00:00-10:00"),
    ])
    func isoFormatting(offset: Int, expected: String) {
        #expect(CivilTime.iso(Self.nineUTC, utcOffsetSeconds: offset) == expected)
        #expect(CivilTime.instant(iso: expected) == Self.nineUTC)
    }

    @Test func isoFormattingOfOtherInstants() {
        #expect(CivilTime.iso(Date(timeIntervalSince1970: 0), utcOffsetSeconds: 0) == "1970-01-01T00:00:00+00:00")
        #expect(CivilTime.iso(Date(timeIntervalSince1970: -1), utcOffsetSeconds: 0) == "1969-12-31T23:59:59+00:00")
        #expect(CivilTime.iso(Date(timeIntervalSince1970: -0.5), utcOffsetSeconds: 0) == "1969-12-31T23:59:59+00:00")
        #expect(CivilTime.iso(Self.nineUTC.addingTimeInterval(0.9), utcOffsetSeconds: 0) == "2026-11-28T09:00:00+00:00")
        #expect(CivilTime.iso(Self.nineUTC.addingTimeInterval(3723), utcOffsetSeconds: 0) == "2026-11-28T10:02:03+00:00")
    }

    @Test func clockText() {
        #expect(CivilTime.clock(Self.nineUTC, utcOffsetSeconds: 10_800) == "12:00")
        #expect(CivilTime.clock(Self.nineUTC, utcOffsetSeconds: 20_700) == "14:45")
        #expect(CivilTime.clock(Self.nineUTC.addingTimeInterval(59), utcOffsetSeconds: -18_000) == "04:00")
        #expect(CivilTime.clock(Date(timeIntervalSince1970: -60), utcOffsetSeconds: 0) == "23:59")
        #expect(CivilTime.clock(Self.nineUTC.addingTimeInterval(-32_100), utcOffsetSeconds: 0) == "00:05")
        #expect(CivilTime.offsetText(-37_800) == "-10:30")
        #expect(CivilTime.offsetText(50_400) == "+14:00")
        #expect(CivilTime.offsetText(0) == "+00:00")
    }

    @Test(arguments: [(0, "+00:00"), (10_800, "+03:00"), (-18_000, "-05:00"), (20_700, "+05:45"), (-12_600, "-03:30"), (-1800, "-00:30")])
    func offsetText(seconds: Int, expected: String) {
        #expect(CivilTime.offsetText(seconds) == expected)
    }

    @Test func formattingAndParsingRoundTrip() {
        for seconds in [-86_401.0, -1, 0, 951_782_400, 1_795_856_400, 4_107_542_399] {
            for offset in [-43_200, -12_600, 0, 20_700, 50_400] {
                let instant = Date(timeIntervalSince1970: seconds)
                let text = CivilTime.iso(instant, utcOffsetSeconds: offset)
                #expect(CivilTime.instant(iso: text) == instant, "\(text)")
            }
        }
    }
}

@Suite struct FractionalSecondsTests {
    @Test func fractionalSecondsAreKept() throws {
        let instant = try #require(CivilTime.instant(iso: "2026-11-28T09:00:00.250Z"))
        #expect(instant.timeIntervalSince1970 == 1_795_856_400.25)
        #expect(CivilTime.instant(iso: "2026-11-28T12:00:00.5+03:00")?.timeIntervalSince1970 == 1_795_856_400.5)
        #expect(CivilTime.instant(iso: "2026-11-28T09:00:00.Z") == nil)
        #expect(CivilTime.instant(iso: "2026-11-28T09:00:00.1e3Z") == nil)
    }
}
