import IsobarPlaces

/// Text for a terminal that shows ASCII only (see `TextCharset`).
public enum ASCIIText: Sendable {
    /// `text` in ASCII, every line as many cells wide as before so that tables stay aligned: dashes become `-`, `…`
    /// becomes `~` inside a line and `...` at its end, `°` is dropped (its cell given back at the next gap between columns), letters
    /// lose their accents, chart and box characters become their ASCII counterparts, anything else becomes `?` per cell.
    public static func fold(_ text: String) -> String {
        guard !isASCII(text) else { return text }
        let characters = Array(text)
        var result = ""
        result.reserveCapacity(text.utf8.count)
        // Cells owed by characters dropped on this line, given back at its next gap of two spaces or more (between columns).
        var owed = 0
        for (index, character) in characters.enumerated() {
            if character.isASCII {
                if character == " " && owed > 0 && index + 1 < characters.count && characters[index + 1] == " " {
                    result += String(repeating: " ", count: owed)
                    owed = 0
                }
                if character.isNewline { owed = 0 }
                result.append(character)
                continue
            }
            switch character {
            case "°":
                owed += 1
            case "…":
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                result += next == nil || next?.isNewline == true ? "..." : "~"
            default:
                result += replacement(character)
            }
        }
        return result
    }

    /// JSON text with every character outside ASCII written as a `\u` escape: the same JSON values, in ASCII bytes (outside
    /// strings JSON is ASCII already, and inside them a `\u` escape means the character itself).
    public static func escapingJSON(_ text: String) -> String {
        guard !isASCII(text) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 32)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                result.unicodeScalars.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return result
    }

    /// True when every byte of `text` is ASCII.
    public static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

    /// The ASCII that takes the place of one character outside ASCII, as many cells wide.
    private static func replacement(_ character: Character) -> String {
        if let symbol = symbols[character] { return symbol }
        if let letter = SearchFolding.baseLetter(of: character) { return String(letter) }
        if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 {
            switch scalar.value {
            case 0x2500...0x257F: return boxDrawing(scalar)
            case 0x2580...0x259F: return "#"
            default: break
            }
        }
        return String(repeating: "?", count: CellText.width(of: character))
    }

    /// A box-drawing character as `-`, `|` or `+`.
    private static func boxDrawing(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x2500, 0x2501, 0x2504, 0x2505, 0x2508, 0x2509, 0x254C, 0x254D, 0x2550: "-"
        case 0x2502, 0x2503, 0x2506, 0x2507, 0x250A, 0x250B, 0x254E, 0x254F, 0x2551: "|"
        default: "+"
        }
    }

    /// Symbols Isobar writes, each with its one-cell ASCII form; the chart's characters map as `ChartGlyphs` draws them.
    private static let symbols: [Character: String] = {
        var table: [Character: String] = [
            "–": "-", "—": "-", "−": "-", "‐": "-", "‑": "-", "‒": "-", "―": "-", "·": "|", "•": "*",
            "‘": "'", "’": "'", "‚": "'", "′": "'", "“": "\"", "”": "\"", "„": "\"", "″": "\"", "«": "<", "»": ">",
            "×": "x", "≈": "~", "≤": "<", "≥": ">", "→": ">", "←": "<", "↑": "^", "↓": "v", "±": "+", "µ": "u",
            "\u{A0}": " ", "¹": "1", "²": "2", "³": "3",
        ]
        let unicode = ChartGlyphs.unicode
        let ascii = ChartGlyphs.ascii
        for (wide, narrow) in zip(unicode.marks, ascii.marks) { table[wide] = String(narrow) }
        for (wide, narrow) in [(unicode.overlap, ascii.overlap), (unicode.band, ascii.band), (unicode.barFull, ascii.barFull),
                               (unicode.tick, ascii.tick), (unicode.rule, ascii.rule), (unicode.corner, ascii.corner),
                               (unicode.baseline, ascii.baseline)] {
            table[wide] = String(narrow)
        }
        for part in unicode.barParts { table[part] = String(ascii.barFull) }
        return table
    }()
}
