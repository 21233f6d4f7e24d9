import FoundationEssentials
import IsobarCore

/// A MeteoAlarm country feed in Atom (`feeds/meteoalarm-legacy-atom-COUNTRY`): one `entry` per warning and area, each
/// linking the warning's CAP 1.2 file (`link` of type `application/cap+xml`, `…/api/v1/warnings/feeds-COUNTRY/UUID`).
public struct MeteoAlarmFeed: Sendable, Equatable {
    /// The last path component of each CAP file the entries link, in the feed's order, each once.
    public var files: [String]
    /// When the feed was last updated (its `updated`), when said.
    public var updated: Date?

    /// Reads a feed; throws when it is not an Atom feed or an entry links a CAP file whose name cannot be read.
    public init(_ bytes: [UInt8]) throws(CAPError) {
        let root: XMLElement
        do { root = try XMLReader.parse(bytes) } catch { throw CAPError("the warning feed is not XML: \(error)") }
        guard root.localName == "feed" else { throw CAPError("the warning feed is not an Atom feed (the document is <\(root.name)>)") }
        updated = root.childText("updated").flatMap { CivilTime.instant(iso: $0) }
        files = []
        for entry in root.children("entry") {
            guard let link = entry.children("link").first(where: { $0.attribute("type") == "application/cap+xml" }) else {
                throw CAPError("an entry of the warning feed links no CAP file (\(entry.childText("title")?.prefix(60) ?? "untitled"))")
            }
            let href = link.attribute("href") ?? ""
            let name = RequestURL(string: href).flatMap { $0.path.split(separator: "/").last.map(String.init) } ?? ""
            guard Self.isFileName(name) else { throw CAPError("an entry of the warning feed links \"\(href.prefix(80))\", not a CAP file") }
            if !files.contains(name) { files.append(name) }
        }
    }

    /// A CAP file's name as the feeds give it (a UUID): letters, digits, `-`, `_` and `.`, at most 128 characters.
    static func isFileName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128 && name != "." && name != ".."
            && name.unicodeScalars.allSatisfy { character in
                character.isASCII && (character.properties.isAlphabetic || ("0"..."9").contains(character) || "-_.".unicodeScalars.contains(character))
            }
    }
}
