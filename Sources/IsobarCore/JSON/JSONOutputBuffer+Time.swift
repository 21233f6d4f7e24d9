import FoundationEssentials

extension JSONOutputBuffer {
    /// The string `CivilTime.iso` gives, `yyyy-MM-ddTHH:mm:ss±HH:MM`, written digit by digit.
    public mutating func isoTime(_ instant: Date, utcOffsetSeconds offset: Int) {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + offset
        let secondOfDay = seconds.floorModulo(86_400)
        beginPlainString()
        appendDate(LocalDate(daysSinceEpoch: seconds.floorDivided(by: 86_400)))
        appendByte(UInt8(ascii: "T"))
        appendPadded(secondOfDay / 3600, width: 2)
        appendByte(UInt8(ascii: ":"))
        appendPadded(secondOfDay % 3600 / 60, width: 2)
        appendByte(UInt8(ascii: ":"))
        appendPadded(secondOfDay % 60, width: 2)
        let magnitude = abs(offset)
        appendByte(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        appendPadded(magnitude / 3600, width: 2)
        appendByte(UInt8(ascii: ":"))
        appendPadded(magnitude % 3600 / 60, width: 2)
        endPlainString()
    }

    /// The string `LocalDate.description` gives, `yyyy-MM-dd`.
    public mutating func isoDate(_ date: LocalDate) {
        beginPlainString()
        appendDate(date)
        endPlainString()
    }

    private mutating func appendDate(_ date: LocalDate) {
        let (year, month, day) = date.components
        appendPadded(year, width: 4)
        appendByte(UInt8(ascii: "-"))
        appendPadded(month, width: 2)
        appendByte(UInt8(ascii: "-"))
        appendPadded(day, width: 2)
    }
}
