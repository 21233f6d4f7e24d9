import IsobarCore

/// MetAlerts' RSS 2.0 list of the warnings in force at a point: one `item` per CAP message, its `guid` the CAP identifier.
public enum METAlertsFeed {
    /// The CAP identifiers the feed lists, in its order, each once; an item without a `guid` is named by its link's
    /// `cap` parameter.
    public static func identifiers(_ bytes: [UInt8]) throws(CAPError) -> [String] {
        let root: XMLElement
        do { root = try XMLReader.parse(bytes) } catch { throw CAPError("the alert list is not XML: \(error)") }
        guard root.localName == "rss", let channel = root.child("channel") else {
            throw CAPError("the alert list is not an RSS feed (the document is <\(root.name)>)")
        }
        var identifiers: [String] = []
        for item in channel.children("item") {
            let identifier = item.childText("guid") ?? item.childText("link").flatMap { RequestURL(string: $0) }.flatMap { link in
                link.query.first { $0.name == "cap" }?.value
            }
            guard let identifier else { throw CAPError("an item of the alert list names no CAP message (no guid, no cap link)") }
            if !identifiers.contains(identifier) { identifiers.append(identifier) }
        }
        return identifiers
    }
}
