/// The characters a chart is drawn with: Unicode shapes on a UTF-8 terminal, ASCII otherwise (`--ascii`).
public struct ChartGlyphs: Sendable, Equatable {
    /// The marks of lines, one per line in order (cycled past the end): each line has its own shape, not only its colour.
    public let marks: [Character]
    /// Where two or more lines fall in the same cell.
    public let overlap: Character
    /// The band between the lowest and the highest provider.
    public let band: Character
    /// A bar's full cell.
    public let barFull: Character
    /// A bar's partial tops, from one eighth (index 0) up; empty in ASCII, which has none.
    public let barParts: [Character]
    /// The axis beside a labelled row.
    public let tick: Character
    /// The axis beside an unlabelled row.
    public let rule: Character
    /// Where the axis meets the baseline.
    public let corner: Character
    /// The baseline under the chart.
    public let baseline: Character

    /// Unicode: `●○◆◇■□` marks, `░` band, `▁…█` bars, box-drawing axes.
    public static let unicode = ChartGlyphs(marks: ["●", "○", "◆", "◇", "■", "□"], overlap: "≡", band: "░", barFull: "█",
                                     barParts: ["▁", "▂", "▃", "▄", "▅", "▆", "▇"], tick: "┤", rule: "│", corner: "└", baseline: "─")
    /// ASCII: `*o+x#@` marks, `:` band, `#` bars, `|+-` axes.
    public static let ascii = ChartGlyphs(marks: ["*", "o", "+", "x", "#", "@"], overlap: "=", band: ":", barFull: "#", barParts: [],
                                   tick: "|", rule: "|", corner: "+", baseline: "-")

    /// The mark of the line at `index`.
    public func mark(_ index: Int) -> Character { marks[index % marks.count] }

    /// The glyphs for an environment: ASCII when asked, or when the locale is not UTF-8 (see `TextCharset`).
    public static func choose(ascii: Bool, environment: [String: String]) -> ChartGlyphs {
        ascii || TextCharset(environment: environment) == .ascii ? .ascii : .unicode
    }
}

/// ANSI colours of chart lines; nothing when colour is off (not a terminal, or `NO_COLOR`).
public struct ChartPalette: Sendable {
    /// Colour allowed.
    public let enabled: Bool

    /// Creates a `ChartPalette` from its parts.
    public init(enabled: Bool) {
        self.enabled = enabled
    }

    private static let codes = ["36", "35", "33", "32", "34", "31"]

    /// `text` in the colour of the line at `index`.
    public func line(_ index: Int, _ text: String) -> String { wrap(text, Self.codes[index % Self.codes.count]) }
    /// `text` dimmed (the band).
    public func dim(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
}
