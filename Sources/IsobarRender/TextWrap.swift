import IsobarCore

/// Breaks lines of prose that are wider than the terminal.
public enum TextWrap: Sendable {
    /// `text` with every line wider than `width` cells broken at spaces (nil: no limit, the text as it is).
    public static func fit(_ text: String, width: Int?) -> String {
        guard let width else { return text }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.flatMap { wrap(String($0), width: width) }.joined(separator: "\n")
    }

    /// One line as lines of at most `width` cells: broken at spaces, continuation lines indented two spaces more than
    /// the first, a word longer than a line cut; a lone `·` or `—`, and a unit after its number, stay on the line before.
    public static func wrap(_ line: String, width: Int) -> [String] {
        guard line.cellWidth > width else { return [line] }
        let lead = line.prefix { $0 == " " }.count
        let indent = lead + 2 <= width / 2 ? lead + 2 : 0
        var lines: [String] = []
        var current = String(repeating: " ", count: lead)
        var currentWidth = lead
        var fresh = true
        for (gap, word) in words(line.dropFirst(lead)) {
            let wordWidth = word.cellWidth
            if !fresh && currentWidth + gap + wordWidth <= width {
                current += String(repeating: " ", count: gap) + word
                currentWidth += gap + wordWidth
                continue
            }
            if !fresh {
                lines.append(current)
                current = String(repeating: " ", count: indent)
                currentWidth = indent
            }
            if wordWidth <= width - currentWidth {
                current += word
            } else {
                let pieces = word.split(everyCells: max(1, width - currentWidth))
                current += pieces[0]
                for piece in pieces.dropFirst().joined().split(everyCells: max(1, width - indent)) {
                    lines.append(current)
                    current = String(repeating: " ", count: indent) + piece
                }
            }
            currentWidth = current.cellWidth
            fresh = false
        }
        lines.append(current)
        return lines.map { $0.trimmingTrailingSpaces() }
    }

    /// The words of a line with the number of spaces before each; `·`, `—` and units are joined to the word before them.
    private static func words(_ text: Substring) -> [(gap: Int, word: String)] {
        var result: [(gap: Int, word: String)] = []
        var gap = 0
        var word = ""
        func finish() {
            guard !word.isEmpty else { return }
            var bare = Substring(word)
            while let end = bare.last, ",;.)".contains(end) { bare = bare.dropLast() }
            if let last = result.last, sticky.contains(String(bare)) {
                result[result.count - 1] = (last.gap, last.word + String(repeating: " ", count: gap) + word)
            } else {
                result.append((gap, word))
            }
            word = ""
            gap = 0
        }
        for character in text {
            if character == " " {
                finish()
                gap += 1
            } else {
                word.append(character)
            }
        }
        finish()
        return result
    }

    /// Words that never start a line: separators, and unit symbols (but "in", which is also a word).
    private static let sticky: Set<String> = Set(["·", "—"] + UnitSystem.allCases.flatMap { units -> [String] in
        let dimensions: [String] = Dimension.allCases.map { units.symbol($0) }
        let hourly: [String] = Quantity.allCases.map { units.symbol(for: $0) }
        let daily: [String] = DailyQuantity.allCases.map { units.symbol(for: $0) }
        return dimensions + hourly + daily
    }).subtracting(["in"])
}
