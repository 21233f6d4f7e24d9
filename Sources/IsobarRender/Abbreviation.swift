import IsobarCore

/// Shorter forms of table text, for narrow terminals.
public enum Abbreviation: Sendable {
    /// A cell starting with a condition's label, that label in at most 10 cells: `p. cloudy (?)`, `t-storm`.
    public static func condition(_ cell: String) -> String {
        guard let (label, short) = conditions.first(where: { cell.hasPrefix($0.label) }) else { return cell }
        return short + cell.dropFirst(label.count)
    }

    /// A value without the providers' range: `1.2* (0.9…1.5)` → `1.2*`.
    public static func withoutRange(_ cell: String) -> String {
        guard let open = cell.firstRange(of: " (") else { return cell }
        return String(cell[..<open.lowerBound])
    }

    /// A compare table's spread without the spread of every value that follows it when an outlier was left out:
    /// `1.6 (4.5 with *)` → `1.6*`, `1.6 (4.5 with *) !` → `1.6* !`; other cells as they are.
    public static func spreadWithoutAllValues(_ cell: String) -> String {
        guard cell.contains(" with *)"), let open = cell.firstRange(of: " (") else { return cell }
        return String(cell[..<open.lowerBound]) + "*" + (cell.hasSuffix(" !") ? " !" : "")
    }

    /// A day without its month: `Sat Nov 28 (23 h)` → `Sat 28 (23 h)`.
    public static func dayWithoutMonth(_ cell: String) -> String {
        var words = cell.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count >= 3, (1...12).map(TableRenderer.monthName).contains(String(words[1])) else { return cell }
        words.remove(at: 1)
        return words.joined(separator: " ")
    }

    /// Each name as the initials of its words (`OpenWeatherMap` → `OWM`, `Open-Meteo` → `OM`, a qualifier in brackets left
    /// out: `National Weather Service (US)` → `NWS`) when it has several and the initials are unique among the names;
    /// otherwise the name as it is.
    public static func initials(_ names: [String]) -> [String] {
        let candidates = names.map { name -> String in
            var initials = ""
            var previous: Character?
            let unbracketed = name.firstIndex(of: "(").map { name[..<$0] } ?? Substring(name)
            for character in unbracketed {
                let startsWord = character.isLetter && (previous.map { !$0.isLetter || ($0.isLowercase && character.isUppercase) } ?? true)
                if startsWord { initials.append(contentsOf: character.uppercased()) }
                previous = character
            }
            return initials.count >= 2 && initials.count < name.count ? initials : name
        }
        return zip(names, candidates).map { name, short in candidates.filter { $0 == short }.count == 1 ? short : name }
    }

    /// A quantity's label in at most 9 cells, for the rows of a narrow compare table.
    public static func quantity(_ quantity: Quantity) -> String { quantity.spec.shortLabel }

    /// Full and short condition labels, longest first so that a label is never taken for a shorter one it starts with.
    private static let conditions: [(label: String, short: String)] = Condition.allCases.map { condition in
        let short = switch condition {
        case .mainlyClear: "m. clear"
        case .partlyCloudy: "p. cloudy"
        case .freezingDrizzle: "fz drizzle"
        case .rainShowers: "rain shwrs"
        case .freezingRain: "fz rain"
        case .rainAndSnow: "sleet"
        case .snowGrains: "sn. grains"
        case .snowShowers: "snow shwrs"
        case .thunderstorm: "t-storm"
        case .thunderstormWithHail: "hailstorm"
        default: condition.label
        }
        return (condition.label, short)
    }.sorted { $0.label.count > $1.label.count }
}
