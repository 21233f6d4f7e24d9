/// One way to make a table narrower.
public enum Narrowing {
    /// Shorter headers, by column; `legend` (what an abbreviation stands for) is said under the table.
    case headers([Int: String], legend: String? = nil)
    /// Every cell of some columns, not their headers, rewritten shorter; `loses` names what goes ("ranges"), said under
    /// the table.
    case cells([Int], loses: String? = nil, (String) -> String)
    /// The column's header and cells cut with "…" as far as needed, never below `minimum` cells.
    case truncate(Int, minimum: Int)
    /// The column left out, named under the table.
    case drop(Int)
}

extension TextTable {
    /// The table fitted to `width` cells: when it is wider, the narrowings are applied in order until it fits, and a line
    /// under it says what was abbreviated or left out. A step that would cut or leave out an `uncut` column splits the
    /// table into parts instead (after the steps that only abbreviate, before any that loses something); when even that
    /// or all the steps are not enough, the table is turned (each row a block of `header value` lines). No line is wider
    /// than `width`; nil width: as `render(bold:)`.
    public func render(width: Int?, bold: (String) -> String = { $0 }) -> String {
        guard let width, self.width > width else { return render(bold: bold) }
        var table = self
        // The table after the steps that lose nothing, with their legends: what is split into parts when it comes to that.
        var abbreviated = self
        var abbreviatedLegends: [(text: String, columns: Set<Int>)] = []
        var lossless = true
        // Column widths, kept up to date as steps change columns, so that each step costs one column's cells.
        var widths = header.indices.map { self.width(of: $0) }
        func total() -> Int {
            let shown = table.visible
            return shown.reduce(0) { $0 + widths[$1] } + 2 * max(0, shown.count - 1)
        }
        var legends: [(text: String, columns: Set<Int>)] = []
        var losses: [(what: String, column: Int)] = []
        steps: for step in narrowing {
            switch step {
            case .truncate(let column, _) where uncut.contains(column), .drop(let column) where uncut.contains(column):
                // In parts: as abbreviated, or as narrowed so far when that takes fewer parts.
                let whole = Self.groups(abbreviated, width: width)
                let narrowed = Self.groups(table, width: width)
                if let narrowed, narrowed.count < whole?.count ?? .max {
                    return parts(table, narrowed, bold: bold) + note(table, width: width, legends: legends, losses: losses, parts: narrowed.count)
                }
                if let whole {
                    return parts(abbreviated, whole, bold: bold)
                        + note(abbreviated, width: width, legends: abbreviatedLegends, losses: [], parts: whole.count)
                }
                break steps
            case .cells(_, let loses, _) where loses != nil: lossless = false
            case .truncate, .drop: lossless = false
            default: break
            }
            switch step {
            case .headers(let short, let legend):
                for (column, text) in short where column < table.header.count {
                    table.header[column] = text
                    widths[column] = table.width(of: column)
                }
                if let legend { legends.append((legend, Set(short.keys))) }
            case .cells(let columns, let loses, let shorten):
                for column in columns where column < header.count {
                    for index in table.rows.indices where column < table.rows[index].count {
                        table.rows[index][column] = shorten(table.rows[index][column])
                    }
                    if let loses { losses.append((loses, column)) }
                    widths[column] = table.width(of: column)
                }
            case .truncate(let column, let minimum):
                guard column < header.count else { break }
                let current = widths[column]
                let target = max(minimum, current - (total() - width))
                guard target < current else { break }
                table.header[column] = table.header[column].truncated(toCells: target)
                for index in table.rows.indices where column < table.rows[index].count {
                    table.rows[index][column] = table.rows[index][column].truncated(toCells: target)
                }
                widths[column] = table.width(of: column)
            case .drop(let column):
                table.hidden.insert(column)
            }
            if lossless {
                abbreviated = table
                abbreviatedLegends = legends
            }
            if total() <= width { break steps }
        }
        guard total() <= width else { return paragraphs(width: width) }
        return table.render(bold: bold) + note(table, width: width, legends: legends, losses: losses)
    }

    /// "To fit 60 columns: OWM = OpenWeatherMap; no ranges for Wind m/s; Sources left out.", wrapped to the width.
    private func note(_ fitted: TextTable, width: Int, legends: [(text: String, columns: Set<Int>)],
                      losses: [(what: String, column: Int)], parts: Int = 1) -> String {
        var said = legends.filter { !$0.columns.isSubset(of: fitted.hidden) }.map(\.text)
        var seen: [String] = []
        for loss in losses where !seen.contains(loss.what) {
            seen.append(loss.what)
            let columns = Set(losses.filter { $0.what == loss.what }.map(\.column))
            if columns == Set(narrowing.flatMap { step -> [Int] in
                if case .cells(let all, let what, _) = step, what == loss.what { return all }
                return []
            }) {
                said.append("no \(loss.what)")
                continue
            }
            let names = columns.subtracting(fitted.hidden).sorted().map { fitted.header[$0] }
            if !names.isEmpty { said.append("no \(loss.what) for \(names.joined(separator: ", "))") }
        }
        let dropped = fitted.hidden.subtracting(hidden).sorted().map { header[$0] }
        if !dropped.isEmpty { said.append("\(dropped.joined(separator: ", ")) left out") }
        if parts > 1 { said.append("in \(parts) parts") }
        guard !said.isEmpty else { return "" }
        return TextWrap.fit("To fit \(width) columns: \(said.joined(separator: "; ")).", width: width) + "\n"
    }

    /// The columns after the first in groups that each fit `width` beside the first: as few groups as possible, with as
    /// even a number of columns as possible; nil when one column beside the first does not fit.
    public static func groups(_ table: TextTable, width: Int) -> [[Int]]? {
        guard let first = table.visible.first else { return nil }
        let label = table.width(of: first)
        let columns = Array(table.visible.dropFirst())
        func split(atMost cap: Int) -> [[Int]]? {
            var groups: [[Int]] = []
            var used = 0
            for column in columns {
                let cells = table.width(of: column)
                guard label + 2 + cells <= width else { return nil }
                if groups.isEmpty || used + 2 + cells > width || groups[groups.count - 1].count >= cap {
                    groups.append([column])
                    used = label + 2 + cells
                } else {
                    groups[groups.count - 1].append(column)
                    used += 2 + cells
                }
            }
            return groups
        }
        guard let fewest = split(atMost: .max) else { return nil }
        let even = split(atMost: (columns.count + fewest.count - 1) / max(1, fewest.count))
        return even.map { $0.count == fewest.count ? $0 : fewest } ?? fewest
    }

    /// The table drawn in parts, one per group of columns, each after the first column, a blank line between them.
    private func parts(_ table: TextTable, _ groups: [[Int]], bold: (String) -> String) -> String {
        let first = table.visible.first ?? 0
        return groups.map { group in
            var part = table
            part.hidden = Set(table.header.indices).subtracting([first] + group)
            return part.render(bold: bold)
        }.joined(separator: "\n")
    }

    /// Each row as its first cell, then one line for each other cell, after its header: the table turned, the layout
    /// of last resort.
    private func paragraphs(width: Int) -> String {
        let columns = visible.dropFirst()
        let labelWidth = columns.map { header[$0].cellWidth }.max() ?? 0
        var lines: [String] = []
        for row in rows {
            lines += TextWrap.wrap(cell(row, visible.first ?? 0), width: width)
            for column in columns where !cell(row, column).isEmpty {
                let label = header[column] + String(repeating: " ", count: labelWidth - header[column].cellWidth)
                lines += TextWrap.wrap("  \(label)  \(cell(row, column))", width: width)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
