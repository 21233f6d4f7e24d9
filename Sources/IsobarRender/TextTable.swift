/// A plain-text table with padded columns; the first column is left-aligned, the others right-aligned.
public struct TextTable {
    /// The column titles.
    public var header: [String]
    /// The rows, each a cell per column.
    public var rows: [[String]] = []
    /// Columns to align left besides the first.
    public var leftAligned: Set<Int> = [0]
    /// Ways to make the table narrower, tried in order until it fits a width (see `render(width:bold:)`).
    public var narrowing: [Narrowing] = []
    /// Columns left out.
    public var hidden: Set<Int> = []
    /// Columns never cut nor left out to fit a width: when a narrowing step would cut or drop one, the table is split into
    /// parts instead, each repeating the first column (see `render(width:bold:)`).
    public var uncut: Set<Int> = []

    /// Creates a `TextTable` from its parts.
    public init(header: [String], rows: [[String]] = [], leftAligned: Set<Int> = [0], narrowing: [Narrowing] = [],
                hidden: Set<Int> = [], uncut: Set<Int> = []) {
        self.header = header
        self.rows = rows
        self.leftAligned = leftAligned
        self.narrowing = narrowing
        self.hidden = hidden
        self.uncut = uncut
    }

    /// The columns shown, in order.
    public var visible: [Int] { header.indices.filter { !hidden.contains($0) } }

    /// The cell of a row in a column, empty when the row is short.
    public func cell(_ row: [String], _ column: Int) -> String { column < row.count ? row[column] : "" }

    /// The cells a column takes: its widest cell or header.
    public func width(of column: Int) -> Int {
        rows.reduce(header[column].cellWidth) { max($0, cell($1, column).cellWidth) }
    }

    /// The cells the widest line can take.
    public var width: Int {
        let columns = visible
        return columns.reduce(0) { $0 + width(of: $1) } + 2 * max(0, columns.count - 1)
    }

    /// The table as lines, columns separated by two spaces; `bold` wraps the header when colour is on.
    public func render(bold: (String) -> String = { $0 }) -> String {
        let columns = visible
        let widths = columns.map { width(of: $0) }
        func line(_ cells: [String]) -> String {
            zip(columns, widths).map { index, width in
                let text = cell(cells, index)
                let padding = String(repeating: " ", count: width - text.cellWidth)
                return leftAligned.contains(index) ? text + padding : padding + text
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
struct Style: Sendable {
    let enabled: Bool

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func yellow(_ text: String) -> String { wrap(text, "33") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
