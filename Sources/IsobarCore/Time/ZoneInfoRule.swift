/// The rule of a POSIX `TZ` string such as `EST5EDT,M3.2.0,M11.1.0`: what a TZif file's footer says for instants past its table.
struct ZoneInfoRule: Sendable, Equatable {
    /// A day of the year in one of the three POSIX forms.
    enum Day: Sendable, Equatable {
        /// `Jn`: day 1…365, never counting 29 February.
        case julian(Int)
        /// `n`: day 0…365, counting 29 February.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1…5, 5 = last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// A change of local time: a day and the wall-clock seconds into it (which may be negative or past 24 h).
    struct Change: Sendable, Equatable {
        var day: Day
        var seconds: Int
    }

    /// Standard time.
    var standard: ZoneInfo.LocalTimeType
    /// Daylight saving time, for zones that have it.
    var daylight: ZoneInfo.LocalTimeType?
    /// Start of daylight saving time, in local standard time.
    var start = Change(day: .monthWeekDay(month: 3, week: 2, weekday: 0), seconds: 7200)
    /// End of daylight saving time, in local daylight time.
    var end = Change(day: .monthWeekDay(month: 11, week: 1, weekday: 0), seconds: 7200)

    /// Parses a POSIX `TZ` string; nil when it is malformed.
    init?(_ text: String) {
        var scanner = RuleScanner(Array(text.utf8))
        guard let standardName = scanner.name(), let standardOffset = scanner.offset() else { return nil }
        standard = ZoneInfo.LocalTimeType(utcOffsetSeconds: -standardOffset, isDaylightSaving: false, abbreviation: standardName)
        if scanner.isAtEnd { return }
        guard let daylightName = scanner.name() else { return nil }
        var daylightOffset = standard.utcOffsetSeconds + 3600
        if !scanner.isAtEnd && scanner.peek != UInt8(ascii: ",") {
            guard let offset = scanner.offset() else { return nil }
            daylightOffset = -offset
        }
        daylight = ZoneInfo.LocalTimeType(utcOffsetSeconds: daylightOffset, isDaylightSaving: true, abbreviation: daylightName)
        if scanner.isAtEnd { return }  // No rule: the POSIX default (US rules since 2007).
        guard scanner.take(","), let start = scanner.change(), scanner.take(","), let end = scanner.change(), scanner.isAtEnd else {
            return nil
        }
        self.start = start
        self.end = end
    }

    /// The local time type in force at an instant (seconds since 1970 UTC).
    func localTimeType(at seconds: Int64) -> ZoneInfo.LocalTimeType {
        guard let daylight else { return standard }
        let localDay = (Int(seconds) + standard.utcOffsetSeconds).floorDivided(by: 86_400)
        let year = CivilTime.civil(fromDays: localDay).year
        let (start, end) = changes(inYear: year)
        let inDaylight = start < end ? (start <= seconds && seconds < end) : !(end <= seconds && seconds < start)
        return inDaylight ? daylight : standard
    }

    /// The instants (seconds since 1970 UTC) daylight saving time starts and ends in a year.
    func changes(inYear year: Int) -> (start: Int64, end: Int64) {
        let daylightOffset = daylight?.utcOffsetSeconds ?? standard.utcOffsetSeconds
        let start = Self.dayNumber(start.day, year: year) * 86_400 + start.seconds - standard.utcOffsetSeconds
        let end = Self.dayNumber(end.day, year: year) * 86_400 + end.seconds - daylightOffset
        return (Int64(start), Int64(end))
    }

    /// Every change of local time from `lower` (exclusive) to `upper` (inclusive), in order.
    func transitions(after lower: Int64, through upper: Int64) -> [ZoneInfo.Transition] {
        guard let daylight else { return [] }
        let firstYear = CivilTime.civil(fromDays: Int(lower).floorDivided(by: 86_400)).year - 1
        let lastYear = CivilTime.civil(fromDays: Int(upper).floorDivided(by: 86_400)).year + 1
        var result: [ZoneInfo.Transition] = []
        for year in firstYear...lastYear {
            let (start, end) = changes(inYear: year)
            for (instant, before, after) in [(start, standard, daylight), (end, daylight, standard)] where lower < instant && instant <= upper {
                result.append(ZoneInfo.Transition(seconds: instant, before: before, after: after))
            }
        }
        return result.sorted { $0.seconds < $1.seconds }
    }

    /// Days since 1970-01-01 of a rule day in a year.
    static func dayNumber(_ day: Day, year: Int) -> Int {
        let newYear = CivilTime.days(year: year, month: 1, day: 1)
        switch day {
        case .julian(let number):
            let isLeap = CivilTime.daysIn(month: 2, year: year) == 29
            return newYear + number - 1 + (isLeap && number >= 60 ? 1 : 0)
        case .zeroBased(let number):
            return newYear + number
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilTime.days(year: year, month: month, day: 1)
            let firstWeekday = (first + 4).floorModulo(7)  // 1970-01-01 was a Thursday.
            var day = first + (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
            while day >= first + CivilTime.daysIn(month: month, year: year) { day -= 7 }
            return day
        }
    }
}

/// Reads the parts of a POSIX `TZ` string.
private struct RuleScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }
    var peek: UInt8? { isAtEnd ? nil : bytes[index] }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard peek == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// `EST` (three or more letters) or `<+0330>` (quoted: letters, digits, `+` and `-`).
    mutating func name() -> String? {
        let begin = index
        if take("<") {
            while let byte = peek, byte != UInt8(ascii: ">") {
                guard Self.isLetter(byte) || Self.isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else { return nil }
                index += 1
            }
            guard take(">"), index - begin >= 5 else { return nil }
            return String(decoding: bytes[(begin + 1)..<(index - 1)], as: UTF8.self)
        }
        while let byte = peek, Self.isLetter(byte) { index += 1 }
        return index - begin >= 3 ? String(decoding: bytes[begin..<index], as: UTF8.self) : nil
    }

    /// `[+|-]hh[:mm[:ss]]` as seconds; POSIX offsets count west of UTC as positive.
    mutating func offset() -> Int? { signedTime(maxHours: 24) }

    /// `[+|-]hh[:mm[:ss]]` with hours up to `maxHours`.
    mutating func signedTime(maxHours: Int) -> Int? {
        var sign = 1
        if take("-") { sign = -1 } else { _ = take("+") }
        guard let hours = number(maxDigits: 3), hours <= maxHours else { return nil }
        var seconds = hours * 3600
        if take(":") {
            guard let minutes = number(maxDigits: 2), minutes < 60 else { return nil }
            seconds += minutes * 60
            if take(":") {
                guard let extra = number(maxDigits: 2), extra < 60 else { return nil }
                seconds += extra
            }
        }
        return sign * seconds
    }

    /// `Jn`, `n` or `Mm.w.d`, then an optional `/time` (default 02:00).
    mutating func change() -> ZoneInfoRule.Change? {
        let day: ZoneInfoRule.Day
        if take("J") {
            guard let number = number(maxDigits: 3), (1...365).contains(number) else { return nil }
            day = .julian(number)
        } else if take("M") {
            guard let month = number(maxDigits: 2), (1...12).contains(month), take("."),
                  let week = number(maxDigits: 1), (1...5).contains(week), take("."),
                  let weekday = number(maxDigits: 1), (0...6).contains(weekday) else { return nil }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            guard let number = number(maxDigits: 3), (0...365).contains(number) else { return nil }
            day = .zeroBased(number)
        }
        var seconds = 7200
        if take("/") {
            guard let time = signedTime(maxHours: 167) else { return nil }
            seconds = time
        }
        return ZoneInfoRule.Change(day: day, seconds: seconds)
    }

    private mutating func number(maxDigits: Int) -> Int? {
        var value = 0
        var count = 0
        while count < maxDigits, let byte = peek, Self.isDigit(byte) {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            index += 1
            count += 1
        }
        return count > 0 ? value : nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
