import Foundation

/// One Markdown page of the repository's documentation: README.md or a page in docs/.
struct MarkdownPage: Sendable {
    /// The path from the package root, e.g. `docs/guide.md`.
    let path: String
    /// The whole text.
    let text: String

    /// README.md and every docs/*.md, README first.
    static func all() throws -> [MarkdownPage] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/docs").filter { $0.hasSuffix(".md") }.sorted()
        return try (["README.md"] + docs.map { "docs/" + $0 }).map { path in
            MarkdownPage(path: path, text: try String(contentsOfFile: packageRoot + "/" + path, encoding: .utf8))
        }
    }

    /// The page's lines.
    var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// The fenced code blocks, in order.
    var blocks: [FencedBlock] { FencedBlock.all(in: lines) }

    /// The lines outside fenced code blocks, with their numbers (from 1).
    var prose: [(number: Int, text: String)] {
        var inside = false
        var result: [(Int, String)] = []
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("```") { inside.toggle(); continue }
            if !inside { result.append((index + 1, line)) }
        }
        return result
    }

    /// Every link target written `[text](target)` outside code, with its line number.
    var links: [(line: Int, target: String)] {
        prose.flatMap { line in MarkdownPage.linkTargets(in: line.text).map { (line.number, $0) } }
    }

    /// The anchors its headings get on GitHub (`## How it merges` → `how-it-merges`; a repeated one gets `-1`, `-2`…).
    var anchors: Set<String> {
        var seen: [String: Int] = [:]
        var result = Set<String>()
        for line in prose.map(\.text) where line.hasPrefix("#") {
            let heading = line.drop { $0 == "#" }
            guard heading.first == " " else { continue }
            let anchor = MarkdownPage.anchor(for: String(heading))
            let count = seen[anchor, default: 0]
            seen[anchor] = count + 1
            result.insert(count == 0 ? anchor : "\(anchor)-\(count)")
        }
        return result
    }

    /// The link targets of one line of prose, inline code left out.
    static func linkTargets(in line: String) -> [String] {
        let outsideCode = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
        var targets: [String] = []
        var rest = Substring(outsideCode)
        while let opening = rest.range(of: "](") {
            let after = rest[opening.upperBound...]
            guard let closing = after.firstIndex(of: ")") else { break }
            targets.append(String(after[..<closing]))
            rest = after[after.index(after: closing)...]
        }
        return targets
    }

    /// GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces as hyphens.
    static func anchor(for heading: String) -> String {
        let text = heading.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "`", with: "")
        return String(text.unicodeScalars.compactMap { scalar -> Character? in
            if scalar == " " { return "-" }
            if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) { return Character(scalar) }
            return nil
        })
    }
}

/// A fenced code block: its info string (`sh`, `json`, or empty) and its lines.
struct FencedBlock: Sendable {
    /// The word after the opening fence.
    let info: String
    /// The lines between the fences.
    let lines: [String]
    /// The line number (from 1) of the opening fence.
    let line: Int

    /// The fenced blocks of a page's lines.
    static func all(in lines: [String]) -> [FencedBlock] {
        var blocks: [FencedBlock] = []
        var open: (info: String, line: Int, lines: [String])?
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var current = open {
                if trimmed == "```" {
                    blocks.append(FencedBlock(info: current.info, lines: current.lines, line: current.line))
                    open = nil
                } else {
                    current.lines.append(line)
                    open = current
                }
            } else if trimmed.hasPrefix("```") {
                open = (String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces), index + 1, [])
            }
        }
        return blocks
    }

    /// The commands of a shell block: with `$ ` prompts, the prompted lines only (the others are output); without, every
    /// line that is not blank or a comment; a line ending in a backslash joined with the next.
    var commands: [String] {
        let prompted = lines.contains { $0.hasPrefix("$ ") }
        var commands: [String] = []
        var continuing = false
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if continuing, let last = commands.popLast() {
                commands.append(String(last.dropLast()) + " " + trimmed)
            } else if prompted {
                guard line.hasPrefix("$ ") else { continue }
                commands.append(String(line.dropFirst(2)).trimmingCharacters(in: .whitespaces))
            } else {
                guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
                commands.append(trimmed)
            }
            continuing = commands.last?.hasSuffix("\\") ?? false
        }
        return commands
    }
}
