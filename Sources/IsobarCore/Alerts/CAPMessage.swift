import FoundationEssentials

/// Why a CAP document could not be read: not XML, not a CAP alert, or a mandatory element missing or unreadable.
public struct CAPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, for people.
    public var message: String

    /// Creates an error; text from the document in `message` is made fit for one line.
    public init(_ message: String) { self.message = MessageText.oneLine(message) }

    /// The message.
    public var description: String { message }
}

/// Reads one CAP 1.2 message (OASIS; CAP 1.1 reads alike) into alerts: one per `info` block in the chosen language.
///
/// - Only `Actual` messages of type Alert, Update or Cancel carry warnings; exercises, tests and acknowledgements give none.
/// - The language: the reader's, else English, else the message's first (`AlertLanguage`); the alert says which.
/// - A missing `expires` is left nil (the alert stays while its source lists it); the parameter `eventEndingTime` (MET
///   Norway, NWS) gives `ends`.
/// - `references` are kept whether or not the messages they name were seen.
/// - The parameters `awareness_level` and `awareness_type` (MeteoAlarm's colour and kind of weather) are kept as sent.
/// - Areas: every `area` block's polygons (space-separated `lat,lon` pairs; a ring may cross the antimeridian) and
///   `geocode` codes as `valueName:value`, their descriptions joined with `; `.
/// - The text is the issuer's, only the XML layout's white space at either end removed.
public enum CAPMessage {
    /// The alerts in the CAP document `bytes`, marked with provider `source`, text in a language chosen for `language`.
    public static func alerts(_ bytes: [UInt8], source: String, language: AlertLanguage = AlertLanguage(wanted: nil)) throws(CAPError) -> [Alert] {
        let root: XMLElement
        do { root = try XMLReader.parse(bytes) } catch { throw CAPError("not XML: \(error)") }
        return try alerts(root, source: source, language: language)
    }

    /// The alerts in a CAP `alert` element.
    public static func alerts(_ root: XMLElement, source: String, language: AlertLanguage = AlertLanguage(wanted: nil)) throws(CAPError) -> [Alert] {
        guard root.localName == "alert" else { throw CAPError("not a CAP alert (the document is <\(root.name)>)") }
        let identifier = try required(root, "identifier")
        let identity = AlertIdentity(sender: try required(root, "sender"), identifier: identifier, sent: try time(root, "sent", required: true))
        guard try required(root, "status").lowercased() == "actual" else { return [] }
        let typeText = try required(root, "msgType")
        guard let type = AlertMessageType(cap: typeText) else {
            if ["ack", "error"].contains(typeText.lowercased()) { return [] }
            throw CAPError("\(identifier): msgType \(typeText) is not a CAP message type")
        }
        let references = root.childText("references").map(AlertIdentity.references(cap:)) ?? []
        let infos = root.children("info")
        if infos.isEmpty {
            // A Cancel may carry no info block: it withdraws what it references all the same.
            guard type == .cancel else { throw CAPError("\(identifier): an \(type.rawValue) with no <info> block") }
            return [Alert(identity: identity, messageType: type, references: references, event: "Cancel", source: source)]
        }
        // CAP's default language is en-US.
        let languages = infos.map { $0.childText("language") ?? "en-US" }
        var distinct: [String] = []
        for tag in languages where !distinct.contains(tag) { distinct.append(tag) }
        let (chosen, choice) = language.choose(distinct)
        let note = language.note(language: chosen, choice: choice)
        return try zip(infos, languages).filter { $0.1 == chosen }.map { info, tag throws(CAPError) in
            var alert = try self.alert(info, identity: identity, source: source)
            alert.messageType = type
            alert.references = references
            alert.language = tag
            alert.languageNote = note
            return alert
        }
    }

    /// One `info` block as an alert.
    private static func alert(_ info: XMLElement, identity: AlertIdentity, source: String) throws(CAPError) -> Alert {
        guard let event = info.childText("event") else { throw CAPError("\(identity.identifier): an <info> block with no <event>") }
        var alert = Alert(identity: identity, event: event, source: source)
        alert.headline = info.childText("headline")
        alert.description = info.childText("description")
        alert.instruction = info.childText("instruction")
        alert.severity = AlertSeverity(cap: info.childText("severity"))
        alert.urgency = AlertUrgency(cap: info.childText("urgency"))
        alert.certainty = AlertCertainty(cap: info.childText("certainty"))
        alert.onset = try time(info, "onset", identifier: identity.identifier)
        alert.effective = try time(info, "effective", identifier: identity.identifier)
        alert.expires = try time(info, "expires", identifier: identity.identifier)
        alert.senderName = info.childText("senderName")
        alert.web = info.childText("web")
        for parameter in info.children("parameter") where parameter.childText("valueName") == "eventEndingTime" {
            guard let text = parameter.childText("value"), let ends = CivilTime.instant(iso: text) else {
                throw CAPError("\(identity.identifier): the eventEndingTime parameter is not a time")
            }
            alert.ends = ends
        }
        for parameter in info.children("parameter") {
            switch parameter.childText("valueName") {
            case "awareness_level": alert.awarenessLevel = parameter.childText("value")
            case "awareness_type": alert.awarenessType = parameter.childText("value")
            default: break
            }
        }
        alert.area = try area(info.children("area"), identifier: identity.identifier)
        return alert
    }

    /// The union of `area` blocks.
    private static func area(_ blocks: [XMLElement], identifier: String) throws(CAPError) -> AlertArea {
        AlertArea(union: try blocks.map { block throws(CAPError) in try area(block, identifier: identifier) })
    }

    /// Each `area` block of an `info` block on its own, in order (for a source that places warnings area by area).
    public static func areas(of info: XMLElement, identifier: String) throws(CAPError) -> [AlertArea] {
        try info.children("area").map { block throws(CAPError) in try area(block, identifier: identifier) }
    }

    /// One `area` block: its description, polygons and `valueName:value` codes.
    private static func area(_ block: XMLElement, identifier: String) throws(CAPError) -> AlertArea {
        var area = AlertArea(description: block.childText("areaDesc"))
        for polygon in block.children("polygon") { area.polygons.append(try ring(polygon.text, identifier: identifier)) }
        for geocode in block.children("geocode") {
            guard let name = geocode.childText("valueName"), let value = geocode.childText("value") else { continue }
            area.codes.append(name + ":" + value)
        }
        return area
    }

    /// A CAP polygon: space-separated `latitude,longitude` pairs (WGS 84), at least four, the first and last alike.
    public static func ring(_ text: String, identifier: String) throws(CAPError) -> [Coordinate] {
        var ring: [Coordinate] = []
        for pair in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            let parts = pair.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                  let point = Coordinate(latitude: latitude, longitude: longitude) else {
                throw CAPError("\(identifier): the polygon point \"\(pair.prefix(40))\" is not a latitude,longitude pair")
            }
            ring.append(point)
        }
        guard ring.count >= 4, ring.first == ring.last else {
            throw CAPError("\(identifier): a polygon needs at least four points, the last repeating the first")
        }
        return ring
    }

    private static func required(_ element: XMLElement, _ name: String) throws(CAPError) -> String {
        guard let text = element.childText(name) else {
            let identifier = element.childText("identifier").map { $0 + ": " } ?? ""
            throw CAPError("\(identifier)the CAP element <\(name)> is missing")
        }
        return text
    }

    private static func time(_ element: XMLElement, _ name: String, required: Bool = false, identifier: String? = nil) throws(CAPError) -> Date? {
        guard let text = element.childText(name) else {
            if required { _ = try self.required(element, name) }
            return nil
        }
        guard let instant = CivilTime.instant(iso: text) else {
            let prefix = (identifier ?? element.childText("identifier")).map { $0 + ": " } ?? ""
            throw CAPError("\(prefix)<\(name)> \"\(text.prefix(40))\" is not a time")
        }
        return instant
    }
}
