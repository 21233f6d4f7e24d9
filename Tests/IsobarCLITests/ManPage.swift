import Foundation

/// The man page, docs/isobar.1, read as sections of tagged paragraphs (`.TP` entries), in plain text.
struct ManPage {
    /// One `.TP` entry: its tag line and the lines of its body, both in plain text.
    struct Entry {
        /// The tag, e.g. `--units SYSTEM` or `cities add PLACE`.
        let tag: String
        /// The body's lines.
        let body: [String]
    }

    /// Entries after one introduction (the text of a section's start, or after `.PP`, up to the first `.TP`).
    struct Group {
        /// The introduction in plain text, one string.
        let intro: String
        /// The entries that follow it.
        let entries: [Entry]
    }

    /// The roff source's lines.
    let lines: [String]

    /// Reads docs/isobar.1.
    static func load() throws -> ManPage {
        let text = try String(contentsOfFile: packageRoot + "/docs/isobar.1", encoding: .utf8)
        return ManPage(lines: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }

    /// The groups of section `name` (as written after `.SH`, without quotes).
    func groups(_ name: String) -> [Group] {
        guard let start = lines.firstIndex(where: { ManPage.plain($0) == name && $0.hasPrefix(".SH") }) else { return [] }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".SH") } ?? lines.endIndex
        var groups: [Group] = []
        var intro: [String] = []
        var entries: [Entry] = []
        var tag: String?
        var body: [String] = []
        func closeEntry() {
            if let tag { entries.append(Entry(tag: tag, body: body)) }
            tag = nil
            body = []
        }
        var index = start + 1
        while index < end {
            let line = lines[index]
            if line.hasPrefix(".TP") {
                closeEntry()
                index += 1
                tag = index < end ? ManPage.plain(lines[index]) : ""
            } else if line.hasPrefix(".PP") {
                closeEntry()
                groups.append(Group(intro: intro.joined(separator: " "), entries: entries))
                intro = []
                entries = []
            } else if tag != nil {
                body.append(ManPage.plain(line))
            } else {
                intro.append(ManPage.plain(line))
            }
            index += 1
        }
        closeEntry()
        groups.append(Group(intro: intro.joined(separator: " "), entries: entries))
        return groups
    }

    /// Every entry of section `name`.
    func entries(_ name: String) -> [Entry] { groups(name).flatMap(\.entries) }

    /// A line as it reads: a font macro's arguments (joined directly for the alternating ones, `.BR`, `.BI`…), quotes and
    /// font escapes removed, `\-` as `-`.
    static func plain(_ line: String) -> String {
        guard line.hasPrefix(".") else { return unescape(line) }
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        let macro = parts[0].dropFirst()
        let arguments = parts.count > 1 ? quotedArguments(parts[1]) : []
        let alternating = macro.count == 2 && macro.allSatisfy { "BIR".contains($0) }
        return unescape(arguments.joined(separator: alternating ? "" : " "))
    }

    /// The words of a tag or a sentence: split at spaces, brackets and bars, without the punctuation around them (a value
    /// name such as `ID=W,...` kept whole).
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { " []|".contains($0) }).compactMap { piece in
            var word = piece.trimmingCharacters(in: CharacterSet(charactersIn: ",:;()"))
            if word.hasSuffix("."), !word.hasSuffix("...") { word.removeLast() }
            return word.isEmpty ? nil : word
        }
    }

    private static func quotedArguments(_ text: String) -> [String] {
        var arguments: [String] = []
        var current = ""
        var quoted = false
        var started = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if character == "\"" {
                if quoted, characters.first == "\"" {
                    current.append("\"")
                    characters.removeFirst()
                } else {
                    quoted.toggle()
                    started = true
                }
            } else if character == " " && !quoted {
                if started || !current.isEmpty { arguments.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started || !current.isEmpty { arguments.append(current) }
        return arguments
    }

    private static func unescape(_ text: String) -> String {
        var result = text
        for (escape, plain) in [("\\fB", ""), ("\\fI", ""), ("\\fR", ""), ("\\fP", ""), ("\\-", "-"), ("\\(mu", "×"),
                                ("\\(de", "°"), ("\\(dq", "\""), ("\\ ", " "), ("\\&", "")] {
            result = result.replacingOccurrences(of: escape, with: plain)
        }
        return result
    }
}
