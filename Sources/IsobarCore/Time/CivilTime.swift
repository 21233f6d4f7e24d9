import FoundationEssentials

/// A calendar day in the proleptic Gregorian calendar, with no time zone attached.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let daysSinceEpoch: Int

    /// The day `daysSinceEpoch` days after 1970-01-01.
    public init(daysSinceEpoch: Int) { self.daysSinceEpoch = daysSinceEpoch }

    /// The day with the given year (1–9999), month (1–12) and day (1–31), or nil when it does not exist.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...CivilTime.daysIn(month: month, year: year)).contains(day) else { return nil }
        daysSinceEpoch = CivilTime.days(year: year, month: month, day: day)
    }

    /// Parses `yyyy-MM-dd`.
    public init?(iso text: Substring) {
        var copy = String(text)
        guard let date = copy.withUTF8({ CivilTime.localDate(isoBytes: $0) }) else { return nil }
        self = date
    }

    /// The local day of an instant at a fixed UTC offset.
    public init(_ instant: Date, utcOffsetSeconds: Int) {
        let seconds = Int((instant.timeIntervalSince1970).rounded(.down)) + utcOffsetSeconds
        daysSinceEpoch = seconds.floorDivided(by: 86_400)
    }

    /// Year, month and day.
    public var components: (year: Int, month: Int, day: Int) { CivilTime.civil(fromDays: daysSinceEpoch) }

    /// Monday = 1 … Sunday = 7.
    public var isoWeekday: Int { (daysSinceEpoch + 3).floorModulo(7) + 1 }

    /// Three-letter English weekday name.
    public var weekdayName: String { ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][isoWeekday - 1] }

    /// `yyyy-MM-dd`.
    public var description: String {
        let (year, month, day) = components
        return "\(CivilTime.pad(year, 4))-\(CivilTime.pad(month, 2))-\(CivilTime.pad(day, 2))"
    }

    /// The instant this day starts at a fixed UTC offset.
    public func start(utcOffsetSeconds: Int) -> Date {
        Date(timeIntervalSince1970: Double(daysSinceEpoch * 86_400 - utcOffsetSeconds))
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }
}

/// Calendar arithmetic and ISO-8601 text without ICU.
public enum CivilTime {
    /// Days since 1970-01-01 of a Gregorian date (H. Hinnant's algorithm).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The Gregorian date of a day count since 1970-01-01.
    public static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days in a month of a year.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Parses a zone-less local time `yyyy-MM-ddTHH:mm[:ss]` at a fixed UTC offset into an instant.
    public static func instant(localISO text: String, utcOffsetSeconds: Int) -> Date? {
        var copy = text
        return copy.withUTF8 { instant(localISOBytes: $0, utcOffsetSeconds: utcOffsetSeconds) }
    }

    /// Parses UTF-8 bytes of `yyyy-MM-ddTHH:mm[:ss]` (or with a space for `T`) at a fixed UTC offset, without allocating.
    public static func instant(localISOBytes bytes: UnsafeBufferPointer<UInt8>, utcOffsetSeconds: Int) -> Date? {
        guard bytes.count == 16 || bytes.count == 19, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84 || bytes[10] == 32, bytes[13] == 58,
              let year = digits(bytes, 0, 4), let month = digits(bytes, 5, 2), let day = digits(bytes, 8, 2),
              let hour = digits(bytes, 11, 2), let minute = digits(bytes, 14, 2), hour < 24, minute < 60 else { return nil }
        var second = 0
        if bytes.count == 19 {
            guard bytes[16] == 58, let parsed = digits(bytes, 17, 2), parsed < 60 else { return nil }
            second = parsed
        }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        let local = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(local - utcOffsetSeconds))
    }

    /// Parses UTF-8 bytes of `yyyy-MM-dd`.
    public static func localDate(isoBytes bytes: UnsafeBufferPointer<UInt8>) -> LocalDate? {
        guard bytes.count == 10, bytes[4] == 45, bytes[7] == 45,
              let year = digits(bytes, 0, 4), let month = digits(bytes, 5, 2), let day = digits(bytes, 8, 2) else { return nil }
        return LocalDate(year: year, month: month, day: day)
    }

    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
            let digit = Int(bytes[index]) - 48
            guard (0...9).contains(digit) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// Parses an ISO-8601 instant with `Z` or a `±HH:MM` offset and optional fractional seconds, e.g. `2026-11-28T09:00:00.5Z`.
    public static func instant(iso text: String) -> Date? {
        var body = Substring(text)
        var offset = 0
        if body.hasSuffix("Z") {
            body = body.dropLast()
        } else if body.count > 6 {
            let suffix = body.suffix(6)
            let sign = suffix.first
            let parts = suffix.dropFirst().split(separator: ":")
            guard sign == "+" || sign == "-", parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]) else { return nil }
            offset = (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
            body = body.dropLast(6)
        } else {
            return nil
        }
        var fraction = 0.0
        if body.count > 19, body[body.index(body.startIndex, offsetBy: 19)] == "." {
            let digits = body.dropFirst(20)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Double("0." + digits) else { return nil }
            fraction = value
            body = body.prefix(19)
        }
        return instant(localISO: String(body), utcOffsetSeconds: offset)?.addingTimeInterval(fraction)
    }

    /// `yyyy-MM-ddTHH:mm:ss±HH:MM` for an instant shown at a fixed UTC offset (`Z` never used, so the offset is explicit).
    public static func iso(_ instant: Date, utcOffsetSeconds: Int) -> String {
        let (date, secondOfDay) = split(instant, utcOffsetSeconds: utcOffsetSeconds)
        let clock = "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay % 3600 / 60, 2)):\(pad(secondOfDay % 60, 2))"
        return "\(date)T\(clock)\(offsetText(utcOffsetSeconds))"
    }

    /// `HH:mm` of an instant at a fixed UTC offset.
    public static func clock(_ instant: Date, utcOffsetSeconds: Int) -> String {
        let (_, secondOfDay) = split(instant, utcOffsetSeconds: utcOffsetSeconds)
        return "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay % 3600 / 60, 2))"
    }

    /// `+03:00`, `-05:00`, `+00:00`.
    public static func offsetText(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        return (seconds < 0 ? "-" : "+") + "\(pad(magnitude / 3600, 2)):\(pad(magnitude % 3600 / 60, 2))"
    }

    private static func split(_ instant: Date, utcOffsetSeconds: Int) -> (LocalDate, Int) {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + utcOffsetSeconds
        return (LocalDate(daysSinceEpoch: seconds.floorDivided(by: 86_400)), seconds.floorModulo(86_400))
    }

    /// `00` to `99`.
    private static let twoDigits = (0..<100).map { ($0 < 10 ? "0" : "") + String($0) }

    static func pad(_ value: Int, _ width: Int) -> String {
        if width == 2, (0..<100).contains(value) { return twoDigits[value] }
        let text = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

extension Int {
    /// Division rounding toward negative infinity.
    func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// Remainder with the sign of the divisor.
    func floorModulo(_ divisor: Int) -> Int {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
