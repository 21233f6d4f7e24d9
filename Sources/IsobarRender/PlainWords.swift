import IsobarConsensus
import IsobarCore

/// Numbers, units, directions and dates as a screen reader reads them well: `minus 0.4 degrees Celsius`, `from the
/// south-west`, `Saturday 28 November`.
public enum PlainWords: Sendable {
    /// A value in the user's units with the decimals a table shows, trailing zeros dropped, `minus` for negatives.
    public static func number(_ value: Double, _ dimension: Dimension, _ units: UnitSystem) -> String {
        spoken(units.convert(value, dimension), decimals: units.decimals(dimension))
    }

    /// A difference (a spread) in the user's units, spoken like `number`.
    public static func difference(_ value: Double, _ dimension: Dimension, _ units: UnitSystem) -> String {
        spoken(units.convertDifference(value, dimension), decimals: units.decimals(dimension))
    }

    /// `value` rounded to `decimals`, trailing zeros dropped, `minus` for negatives (never `minus 0`).
    public static func spoken(_ value: Double, decimals: Int) -> String {
        var text = TableRenderer.fixed(value, decimals: decimals)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if text == "-0" { text = "0" }
        return text.hasPrefix("-") ? "minus " + text.dropFirst() : text
    }

    /// A value with its unit spelled out: `minus 0.4 degrees Celsius`, `1 metre per second`.
    public static func measure(_ value: Double, _ dimension: Dimension, _ units: UnitSystem) -> String {
        let text = number(value, dimension, units)
        return "\(text) \(unit(dimension, units, singular: isOne(text)))"
    }

    /// An 80 % interval said: `likely between minus 1.5 and plus 1.3` (`plus` when the low end is below zero), the unit
    /// after it when `withUnit`; `likely 0.2` when both ends read the same.
    public static func likely(_ low: Double, _ high: Double, _ dimension: Dimension, _ units: UnitSystem, withUnit: Bool) -> String {
        let (from, to) = (number(low, dimension, units), number(high, dimension, units))
        let unit = withUnit ? " " + unit(dimension, units, singular: isOne(to)) : ""
        guard from != to else { return "likely \(to)\(unit)" }
        let signed = from.hasPrefix("minus ") && !to.hasPrefix("minus ") && to != "0" ? "plus " + to : to
        return "likely between \(from) and \(signed)\(unit)"
    }

    /// Where an 80 % interval comes from, in words: `from the record of past forecasts`, `from the providers' spread`.
    public static func basis(_ bases: Set<IntervalBasis>) -> String {
        switch (bases.contains(.record), bases.contains(.spread)) {
        case (true, false): "from the record of past forecasts"
        case (true, true): "from the record of past forecasts, or without one from the providers' spread"
        default: "from the providers' spread"
        }
    }

    /// True for a number said as one or minus one, which take a singular unit: `minus 1 degree Celsius`.
    public static func isOne(_ text: String) -> Bool { text == "1" || text == "minus 1" }

    /// The unit spelled out, singular for exactly one; a unit without a spelling (a quantity added later) is its symbol.
    public static func unit(_ dimension: Dimension, _ units: UnitSystem, singular: Bool = false) -> String {
        let symbol = units.symbol(dimension)
        guard let (one, many) = spelled[symbol] else { return symbol }
        return singular ? one : many
    }

    /// Each unit symbol's spelling: singular, plural.
    private static let spelled: [String: (String, String)] = [
        "°C": ("degree Celsius", "degrees Celsius"), "°F": ("degree Fahrenheit", "degrees Fahrenheit"), "K": ("kelvin", "kelvin"),
        "%": ("percent", "percent"), "hPa": ("hectopascal", "hectopascals"), "inHg": ("inch of mercury", "inches of mercury"),
        "m/s": ("metre per second", "metres per second"), "mph": ("mile per hour", "miles per hour"), "°": ("degree", "degrees"),
        "km": ("kilometre", "kilometres"), "mi": ("mile", "miles"), "m": ("metre", "metres"),
        "mm/h": ("millimetre per hour", "millimetres per hour"), "in/h": ("inch per hour", "inches per hour"),
        "mm": ("millimetre", "millimetres"), "in": ("inch", "inches"),
        "UVI": ("point", "points"), "index": ("point", "points"), "iso8601": ("local time", "local time"), "s": ("second", "seconds"),
        "µg/m³": ("microgram per cubic metre", "micrograms per cubic metre"), "grains/m³": ("grain per cubic metre", "grains per cubic metre"),
    ]

    /// The unit of a difference: temperatures differ by `degrees` (or kelvin), whatever their scale.
    public static func differenceUnit(_ dimension: Dimension, _ units: UnitSystem, singular: Bool) -> String {
        guard dimension == .temperature else { return unit(dimension, units, singular: singular) }
        if units == .standard { return "kelvin" }
        return singular ? "degree" : "degrees"
    }

    /// The compass point a wind comes from, in words: `the south-west`.
    public static func direction(_ degrees: Double) -> String {
        let names = ["north", "north-north-east", "north-east", "east-north-east", "east", "east-south-east", "south-east",
                     "south-south-east", "south", "south-south-west", "south-west", "west-south-west", "west", "west-north-west",
                     "north-west", "north-north-west"]
        guard let index = Compass.points.firstIndex(of: Compass.point(degrees)) else { return "an unknown direction" }
        return "the " + names[index]
    }

    /// The weekday in full: `Saturday`.
    public static func weekday(_ date: LocalDate) -> String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][date.isoWeekday - 1]
    }

    /// The day in full: `Saturday 28 November`.
    public static func day(_ date: LocalDate) -> String {
        let (_, month, day) = date.components
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
                      "December"]
        return "\(weekday(date)) \(day) \(months[month - 1])"
    }

    /// Items joined as a list is said: `a`, `a and b`, `a, b and c`.
    public static func list(_ items: [String], conjunction: String = "and") -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items[items.count - 1]
    }
}
