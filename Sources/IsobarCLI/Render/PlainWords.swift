import IsobarCore

/// Numbers, units, directions and dates as a screen reader reads them well: `minus 0.4 degrees Celsius`, `from the
/// south-west`, `Saturday 28 November`.
enum PlainWords {
    /// A value in the user's units with the decimals a table shows, trailing zeros dropped, `minus` for negatives.
    static func number(_ value: Double, _ dimension: Dimension, _ units: UnitSystem) -> String {
        spoken(units.convert(value, dimension), decimals: units.decimals(dimension))
    }

    /// A difference (a spread) in the user's units, spoken like `number`.
    static func difference(_ value: Double, _ dimension: Dimension, _ units: UnitSystem) -> String {
        spoken(units.convertDifference(value, dimension), decimals: units.decimals(dimension))
    }

    /// `value` rounded to `decimals`, trailing zeros dropped, `minus` for negatives (never `minus 0`).
    static func spoken(_ value: Double, decimals: Int) -> String {
        var text = TableRenderer.fixed(value, decimals: decimals)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if text == "-0" { text = "0" }
        return text.hasPrefix("-") ? "minus " + text.dropFirst() : text
    }

    /// A value with its unit spelled out: `minus 0.4 degrees Celsius`, `1 metre per second`.
    static func measure(_ value: Double, _ dimension: Dimension, _ units: UnitSystem) -> String {
        let text = number(value, dimension, units)
        return "\(text) \(unit(dimension, units, singular: text == "1"))"
    }

    /// The unit spelled out, singular for exactly one.
    static func unit(_ dimension: Dimension, _ units: UnitSystem, singular: Bool = false) -> String {
        let (one, many): (String, String) = switch (units, dimension) {
        case (.metric, .temperature): ("degree Celsius", "degrees Celsius")
        case (.imperial, .temperature): ("degree Fahrenheit", "degrees Fahrenheit")
        case (.standard, .temperature): ("kelvin", "kelvin")
        case (_, .percent): ("percent", "percent")
        case (.imperial, .pressure): ("inch of mercury", "inches of mercury")
        case (_, .pressure): ("hectopascal", "hectopascals")
        case (.imperial, .speed): ("mile per hour", "miles per hour")
        case (_, .speed): ("metre per second", "metres per second")
        case (_, .direction): ("degree", "degrees")
        case (.metric, .distance): ("kilometre", "kilometres")
        case (.imperial, .distance): ("mile", "miles")
        case (.standard, .distance): ("metre", "metres")
        case (.imperial, .precipitationRate): ("inch per hour", "inches per hour")
        case (_, .precipitationRate): ("millimetre per hour", "millimetres per hour")
        case (.imperial, .precipitationAmount): ("inch", "inches")
        case (_, .precipitationAmount): ("millimetre", "millimetres")
        }
        return singular ? one : many
    }

    /// The unit of a difference: temperatures differ by `degrees` (or kelvin), whatever their scale.
    static func differenceUnit(_ dimension: Dimension, _ units: UnitSystem, singular: Bool) -> String {
        guard dimension == .temperature else { return unit(dimension, units, singular: singular) }
        if units == .standard { return "kelvin" }
        return singular ? "degree" : "degrees"
    }

    /// The compass point a wind comes from, in words: `the south-west`.
    static func direction(_ degrees: Double) -> String {
        let names = ["north", "north-north-east", "north-east", "east-north-east", "east", "east-south-east", "south-east",
                     "south-south-east", "south", "south-south-west", "south-west", "west-south-west", "west", "west-north-west",
                     "north-west", "north-north-west"]
        guard let index = Compass.points.firstIndex(of: Compass.point(degrees)) else { return "an unknown direction" }
        return "the " + names[index]
    }

    /// The weekday in full: `Saturday`.
    static func weekday(_ date: LocalDate) -> String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][date.isoWeekday - 1]
    }

    /// The day in full: `Saturday 28 November`.
    static func day(_ date: LocalDate) -> String {
        let (_, month, day) = date.components
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
                      "December"]
        return "\(weekday(date)) \(day) \(months[month - 1])"
    }

    /// Items joined as a list is said: `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}
