/// A plain-text table with padded columns; the first column is left-aligned, the others right-aligned.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []
    /// Columns to align left besides the first.
    var leftAligned: Set<Int> = [0]

    /// The table as lines, columns separated by two spaces; `bold` wraps the header when colour is on.
    func render(bold: (String) -> String = { $0 }) -> String {
        let columns = header.count
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.prefix(columns).enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            (0..<columns).map { index in
                let cell = index < cells.count ? cells[index] : ""
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return leftAligned.contains(index) ? cell + padding : padding + cell
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        return ([bold(line(header))] + rows.map(line)).joined(separator: "\n") + "\n"
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}

/// ANSI styling that disappears when colour is off.
struct Style {
    let enabled: Bool

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func yellow(_ text: String) -> String { wrap(text, "33") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
