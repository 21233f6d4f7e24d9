/// What colour a cell of a chart is drawn in.
public enum ChartInk: Sendable, Equatable {
    /// The terminal's own.
    case plain
    /// Dimmed: the band of the providers' range.
    case band
    /// The colour of the line (or bar) at this index.
    case line(Int)
}

/// A grid of cells, each a character and its ink, drawn row by row.
public struct ChartCanvas: Sendable {
    /// Rows, top first.
    public let rows: Int
    /// Columns, left first.
    public let columns: Int
    private var cells: [[(character: Character, ink: ChartInk)]]

    /// A blank canvas.
    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
        cells = Array(repeating: Array(repeating: (" ", .plain), count: columns), count: rows)
    }

    /// The character in a cell.
    public func character(row: Int, column: Int) -> Character { cells[row][column].character }

    /// The ink of a cell.
    public func ink(row: Int, column: Int) -> ChartInk { cells[row][column].ink }

    /// Puts a character in a cell; cells outside the grid are ignored.
    public mutating func put(_ character: Character, row: Int, column: Int, ink: ChartInk = .plain) {
        guard (0..<rows).contains(row), (0..<columns).contains(column) else { return }
        cells[row][column] = (character, ink)
    }

    /// A row as text, coloured runs wrapped by `palette`, trailing spaces removed.
    public func text(row: Int, palette: ChartPalette) -> String {
        var text = ""
        var run = ""
        var runInk = ChartInk.plain
        func flush() {
            switch runInk {
            case .plain: text += run
            case .band: text += palette.dim(run)
            case .line(let index): text += palette.line(index, run)
            }
            run = ""
        }
        let cells = self.cells[row]
        let used = (cells.lastIndex { $0.character != " " } ?? -1) + 1
        for cell in cells.prefix(used) {
            let ink = cell.character == " " ? runInk : cell.ink
            if ink != runInk { flush() }
            runInk = ink
            run.append(cell.character)
        }
        flush()
        return text
    }
}
