/// Text measured in terminal cells: wide East Asian characters and emoji take 2, combining marks, zero-width
/// characters and ANSI escape sequences take none.
extension String {
    /// The terminal cells the text takes.
    public var cellWidth: Int {
        // Most table text is Latin with a few symbols (°, ·, –, …): one cell a scalar, no need to find graphemes.
        var simple = 0
        for scalar in unicodeScalars {
            let value = scalar.value
            guard (0x20..<0x7F).contains(value) || (0xA0..<0x300).contains(value) || (0x2010...0x2027).contains(value) else {
                simple = -1
                break
            }
            simple += 1
        }
        if simple >= 0 { return simple }
        var total = 0
        CellText.walk(self) { _, width in
            total += width
            return true
        }
        return total
    }

    /// The text cut to at most `cells` cells, ending with "…" when something was cut; escape sequences are kept.
    public func truncated(toCells cells: Int) -> String {
        guard cellWidth > cells else { return self }
        let budget = max(0, cells - 1)
        var kept = ""
        var used = 0
        var full = false
        CellText.walk(self) { piece, width in
            if width == 0 {
                kept += piece
            } else if !full && used + width <= budget {
                kept += piece
                used += width
            } else {
                full = true
            }
            return true
        }
        // Trailing spaces before the ellipsis say nothing.
        while kept.last == " " { kept.removeLast() }
        return kept + "…"
    }

    /// Pieces of at most `cells` cells each (at least one character each), for words too long for a line.
    public func split(everyCells cells: Int) -> [String] {
        var pieces: [String] = []
        var current = ""
        var used = 0
        CellText.walk(self) { piece, width in
            if used + width > cells && used > 0 {
                pieces.append(current)
                current = ""
                used = 0
            }
            current += piece
            used += width
            return true
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }
}

/// Walks text one visible character or one escape sequence at a time.
public enum CellText: Sendable {
    /// Calls `body` with each character (its width in cells) or whole ANSI escape sequence (width 0), until it returns false.
    public static func walk(_ text: String, _ body: (String, Int) -> Bool) {
        var escape: String?
        for character in text {
            if var sequence = escape {
                sequence.append(character)
                let scalar = character.unicodeScalars.first?.value ?? 0
                // ESC [ … final byte (0x40–0x7E) ends a CSI sequence; ESC and one other character end the rest.
                let ended = sequence.count == 2 ? character != "[" : (0x40...0x7E).contains(scalar)
                escape = ended ? nil : sequence
                if ended && !body(sequence, 0) { return }
                continue
            }
            if character == "\u{1B}" {
                escape = String(character)
                continue
            }
            if !body(String(character), width(of: character)) { return }
        }
        if let escape { _ = body(escape, 0) }
    }

    /// The cells one character takes: the widest of its scalars, 2 when it asks for emoji presentation.
    public static func width(of character: Character) -> Int {
        var widest = 0
        for scalar in character.unicodeScalars {
            if scalar.value == 0xFE0F { return 2 }
            widest = max(widest, width(of: scalar))
        }
        return widest
    }

    /// The cells one scalar takes on its own.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        // Hangul vowels and final consonants join the syllable before them.
        if (0x1160...0x11FF).contains(value) { return 0 }
        if scalar.properties.isEmojiPresentation || wide.contains(where: { $0.contains(value) }) { return 2 }
        return 1
    }

    /// East Asian Wide and Fullwidth blocks (after Markus Kuhn's wcwidth, brought up to date).
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
