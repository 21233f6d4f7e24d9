/// Lines over a band, and bars, drawn on a canvas: the pieces every chart is made of.
public enum ChartPlot: Sendable {
    /// Draws a band (the providers' range) and lines (one value per hour, nil for a gap) on a scale that holds them all:
    /// the band as shading, each line in its own mark and colour, `overlap` where lines share a cell.
    public static func lines(_ lines: [[Double?]], band: [ClosedRange<Double>?] = [], columns: ChartColumns, maxRows: Int,
                      glyphs: ChartGlyphs) -> (canvas: ChartCanvas, scale: ChartScale) {
        let bandColumns = (0..<columns.count).map { columns.range(band, at: $0) }
        let lineColumns = lines.map { line in (0..<columns.count).map { columns.value(line, at: $0) } }
        let values = bandColumns.compactMap { $0 }.flatMap { [$0.lowerBound, $0.upperBound] } + lineColumns.flatMap { $0.compactMap { $0 } }
        let scale = ChartScale(low: values.min() ?? 0, high: values.max() ?? 0, maxRows: maxRows)
        var canvas = ChartCanvas(rows: scale.rows, columns: columns.count)
        for (column, range) in bandColumns.enumerated() {
            guard let range else { continue }
            for row in scale.row(of: range.upperBound)...scale.row(of: range.lowerBound) {
                canvas.put(glyphs.band, row: row, column: column, ink: .band)
            }
        }
        for (index, line) in lineColumns.enumerated() {
            for (column, value) in line.enumerated() {
                guard let value else { continue }
                let row = scale.row(of: value)
                if case .line(let other) = canvas.ink(row: row, column: column), other != index {
                    canvas.put(glyphs.overlap, row: row, column: column)
                } else if canvas.character(row: row, column: column) != glyphs.overlap {
                    canvas.put(glyphs.mark(index), row: row, column: column, ink: .line(index))
                }
            }
        }
        return (canvas, scale)
    }

    /// Draws bars from zero (the highest value of each column's hours) in `rows` rows up to `top`, with partial tops in
    /// Unicode; any amount above zero shows at least a sliver.
    public static func bars(_ values: [Double?], top: Double, rows: Int, columns: ChartColumns, glyphs: ChartGlyphs) -> ChartCanvas {
        var canvas = ChartCanvas(rows: rows, columns: columns.count)
        guard top > 0 else { return canvas }
        for column in 0..<columns.count {
            guard let value = columns.highest(values, at: column), value > 0 else { continue }
            let filled = min(Double(rows), value / top * Double(rows))
            for level in 0..<rows {
                let part = filled - Double(level)
                if part >= 1 {
                    canvas.put(glyphs.barFull, row: rows - 1 - level, column: column, ink: .line(0))
                    continue
                }
                if let character = partialTop(part, isBottom: level == 0, glyphs: glyphs) {
                    canvas.put(character, row: rows - 1 - level, column: column, ink: .line(0))
                }
                break
            }
        }
        return canvas
    }

    /// The top of a bar filling `part` (0…1) of a cell: eighths in Unicode, `#` from a half in ASCII; the bottom cell
    /// of an amount above zero is never empty.
    private static func partialTop(_ part: Double, isBottom: Bool, glyphs: ChartGlyphs) -> Character? {
        if glyphs.barParts.isEmpty {
            if part >= 0.5 { return glyphs.barFull }
            return isBottom ? "." : nil
        }
        let eighths = Int((part * 8).rounded(.down))
        if eighths >= 1 { return glyphs.barParts[min(eighths, glyphs.barParts.count) - 1] }
        return isBottom ? glyphs.barParts[0] : nil
    }

    /// The rows of a canvas behind a left axis: each row's label right-aligned in `labelWidth` cells, then the tick
    /// (labelled rows) or the rule.
    public static func framed(_ canvas: ChartCanvas, labels: [String?], labelWidth: Int, glyphs: ChartGlyphs, palette: ChartPalette) -> [String] {
        (0..<canvas.rows).map { row in
            let label = row < labels.count ? labels[row] : nil
            let padded = String(repeating: " ", count: max(0, labelWidth - (label?.count ?? 0))) + (label ?? "")
            return "\(padded) \(label == nil ? glyphs.rule : glyphs.tick)" + canvas.text(row: row, palette: palette)
        }
    }
}
