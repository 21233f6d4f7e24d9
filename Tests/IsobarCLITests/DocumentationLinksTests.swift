import Foundation
import Testing

/// Every relative link of README.md and docs/*.md points at a file that exists, and an anchor at a heading of that page.
@Suite struct DocumentationLinksTests {
    @Test func everyRelativeLinkResolves() throws {
        let pages = try MarkdownPage.all()
        let anchors = Dictionary(uniqueKeysWithValues: pages.map { ($0.path, $0.anchors) })
        var checked = 0
        for page in pages {
            let folder = page.path.split(separator: "/").dropLast().map(String.init)
            for link in page.links where !link.target.contains("://") && !link.target.hasPrefix("mailto:") {
                checked += 1
                let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? page.path : resolved(parts[0], from: folder)
                let place = "\(page.path):\(link.line): \(link.target)"
                #expect(!file.hasPrefix("..") && FileManager.default.fileExists(atPath: packageRoot + "/" + file), "no file: \(place)")
                guard parts.count == 2 else { continue }
                let targetAnchors = try #require(anchors[file], "an anchor into a page that is not Markdown documentation: \(place)")
                #expect(targetAnchors.contains(parts[1]), "no heading for the anchor: \(place)")
            }
        }
        #expect(checked >= 20, "only \(checked) relative links found")
    }

    /// A relative path from a folder of the package, `..` taken back; a path leaving the package starts with `..`.
    private func resolved(_ target: String, from folder: [String]) -> String {
        var parts = folder
        for part in target.split(separator: "/").map(String.init) where part != "." {
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    @Test func theReadmeLinksEveryDocumentationPage() throws {
        let pages = try MarkdownPage.all()
        let readme = try #require(pages.first { $0.path == "README.md" })
        let linked = Set(readme.links.map { $0.target.split(separator: "#", omittingEmptySubsequences: false)[0] })
        for page in pages where page.path.hasPrefix("docs/") {
            #expect(linked.contains(Substring(page.path)), "README.md does not link \(page.path)")
        }
        #expect(readme.lines.count <= 300, "README.md has \(readme.lines.count) lines; reference text belongs in docs/")
    }

    @Test func linksAndAnchorsAreReadAsGitHubWritesThem() {
        #expect(MarkdownPage.linkTargets(in: "see [JSON lines](docs/json-lines.md#csv) and `[not](a-link)` or [b](#x).")
                == ["docs/json-lines.md#csv", "#x"])
        #expect(MarkdownPage.anchor(for: "JSON lines (schema 1)") == "json-lines-schema-1")
        #expect(MarkdownPage.anchor(for: "Cache, limits and failures") == "cache-limits-and-failures")
        #expect(MarkdownPage.anchor(for: "Learned weights (v2)") == "learned-weights-v2")
        let page = MarkdownPage(path: "p.md", text: "# Top\n\n```sh\n# not a heading\n```\n## Top\n### `verify` charts\n")
        #expect(page.anchors == ["top", "top-1", "verify-charts"])
    }
}
