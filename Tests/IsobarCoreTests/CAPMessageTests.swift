import FoundationEssentials
import IsobarCore
import Testing

/// CAP 1.2 messages read into alerts: languages, times, references, areas, and the errors of a bad message.
@Suite("CAP messages")
struct CAPMessageTests {
    static let oslo = Coordinate(latitude: 59.9127, longitude: 10.7461)!

    /// A message with an info block per `(language, event)`.
    static func message(type: String = "Alert", status: String = "Actual", references: String? = nil, infos: [(String?, String)] = [("en-GB", "Wind")],
                        expires: String? = "2026-11-28T22:00:00+01:00", area: String = "") -> String {
        let blocks = infos.map { language, event in
            """
              <info>
                \(language.map { "<language>\($0)</language>" } ?? "")
                <event>\(event)</event><urgency>Future</urgency><severity>Moderate</severity><certainty>Likely</certainty>
                <onset>2026-11-28T09:00:00+01:00</onset>\(expires.map { "<expires>\($0)</expires>" } ?? "")
                <headline>\(event) headline</headline>
                <description>
                  Text as sent &amp; kept.
                </description>
                \(area)
              </info>
            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
              <identifier>2.49.0.1.578.0.1</identifier><sender>noreply@met.no</sender><sent>2026-11-28T06:00:00+01:00</sent>
              <status>\(status)</status><msgType>\(type)</msgType><scope>Public</scope>
              \(references.map { "<references>\($0)</references>" } ?? "")
            \(blocks.joined(separator: "\n"))
            </alert>
            """
    }

    static func alerts(_ text: String, wanted: String? = nil) throws -> [Alert] {
        try CAPMessage.alerts(Array(text.utf8), source: "met-alerts", language: AlertLanguage(wanted: wanted))
    }

    @Test func aMessageIsReadWithItsTextAsSent() throws {
        let alert = try #require(try Self.alerts(Self.message()).first)
        #expect(alert.identity == AlertIdentity(sender: "noreply@met.no", identifier: "2.49.0.1.578.0.1", sent: CivilTime.instant(iso: "2026-11-28T05:00:00Z")))
        #expect(alert.event == "Wind" && alert.headline == "Wind headline" && alert.description == "Text as sent & kept.")
        #expect(alert.severity == .moderate && alert.urgency == .future && alert.certainty == .likely)
        #expect(alert.expires == CivilTime.instant(iso: "2026-11-28T21:00:00Z"))
        #expect(alert.source == "met-alerts" && alert.language == "en-GB" && alert.languageNote == nil)
    }

    @Test func theReadersLanguageIsChosenElseEnglishElseTheFirstAndItIsSaid() throws {
        let infos: [(String?, String)] = [("no", "Vind"), ("en-GB", "Wind")]
        #expect(try Self.alerts(Self.message(infos: infos), wanted: "nb_NO.UTF-8").map(\.event) == ["Vind"])
        #expect(try Self.alerts(Self.message(infos: infos), wanted: "nb_NO.UTF-8").first?.languageNote == nil)
        let none = try Self.alerts(Self.message(infos: infos), wanted: nil)
        #expect(none.map(\.event) == ["Wind"] && none.first?.languageNote == nil)
        let french = try Self.alerts(Self.message(infos: infos), wanted: "fr_FR.UTF-8")
        #expect(french.map(\.event) == ["Wind"])
        #expect(french.first?.languageNote == "in English: the issuer sent none in fr")
        let norwegianOnly = try Self.alerts(Self.message(infos: [("no", "Vind"), ("se", "Biegga")]), wanted: "de")
        #expect(norwegianOnly.map(\.event) == ["Vind"])
        #expect(norwegianOnly.first?.languageNote == "in no: the issuer sent none in de or English")
    }

    @Test func anInfoWithoutALanguageIsUSEnglishAndTwoEventsInOneLanguageAreBothKept() throws {
        let alerts = try Self.alerts(Self.message(infos: [(nil, "Wind"), (nil, "Snow"), ("no", "Vind")]))
        #expect(alerts.map(\.event) == ["Wind", "Snow"])
        #expect(alerts.allSatisfy { $0.language == "en-US" })
        let active = AlertMerge.active(alerts, at: CivilTime.instant(iso: "2026-11-28T10:00:00Z")!)
        #expect(active.count == 2, "one identity, two events: neither hides the other")
    }

    @Test func aMissingExpiresStaysWhileListed() throws {
        let alert = try #require(try Self.alerts(Self.message(expires: nil)).first)
        #expect(alert.expires == nil && alert.end == nil)
        #expect(alert.isCurrent(at: .distantFuture))
    }

    @Test func referencesToUnknownMessagesAreKeptAndChangeNothingElse() throws {
        let update = try Self.alerts(Self.message(type: "Update", references: "noreply@met.no,2.49.0.1.578.0.0,2026-11-27T06:00:00+01:00 bad"))
        #expect(update.first?.references.map(\.identifier) == ["2.49.0.1.578.0.0"])
        let active = AlertMerge.active(update, at: CivilTime.instant(iso: "2026-11-28T10:00:00Z")!)
        #expect(active.map(\.alert.event) == ["Wind"], "an Update of a message never seen is shown itself")
    }

    @Test func aCancelWithoutInfoStillWithdrawsWhatItReferences() throws {
        let text = Self.message(type: "Cancel", references: "noreply@met.no,X9,2026-11-27T06:00:00+01:00", infos: [])
        let cancel = try #require(try Self.alerts(text).first)
        #expect(cancel.messageType == .cancel && cancel.references.map(\.identifier) == ["X9"])
    }

    @Test func exercisesTestsAndAcknowledgementsCarryNoWarning() throws {
        #expect(try Self.alerts(Self.message(status: "Exercise")).isEmpty)
        #expect(try Self.alerts(Self.message(status: "Test")).isEmpty)
        #expect(try Self.alerts(Self.message(type: "Ack")).isEmpty)
    }

    @Test func polygonsAndGeocodesMakeTheArea() throws {
        let area = """
            <area><areaDesc>Oslo</areaDesc><polygon>59.5,10.2 60.3,10.2 60.3,11.4 59.5,11.4 59.5,10.2</polygon>
            <geocode><valueName>county</valueName><value>03</value></geocode></area>
            <area><areaDesc>Coast</areaDesc><geocode><valueName>EMMA_ID</valueName><value>NO003</value></geocode></area>
            """
        let alert = try #require(try Self.alerts(Self.message(area: area)).first)
        #expect(alert.area.description == "Oslo; Coast")
        #expect(alert.area.codes == ["county:03", "EMMA_ID:NO003"])
        #expect(alert.area.polygons.count == 1 && alert.area.contains(Self.oslo) == true)
        #expect(alert.area.contains(Coordinate(latitude: 63.43, longitude: 10.39)!) == false, "Trondheim")
    }

    @Test func aPolygonAcrossTheAntimeridianHoldsPointsOnBothSides() throws {
        let area = "<area><areaDesc>Bering Sea</areaDesc><polygon>50,170 50,-170 60,-170 60,170 50,170</polygon></area>"
        let alert = try #require(try Self.alerts(Self.message(area: area)).first)
        #expect(alert.area.contains(Coordinate(latitude: 55, longitude: 179.5)!) == true)
        #expect(alert.area.contains(Coordinate(latitude: 55, longitude: -179.5)!) == true)
        #expect(alert.area.contains(Coordinate(latitude: 55, longitude: 0)!) == false)
        #expect(alert.area.contains(Coordinate(latitude: 55, longitude: 160)!) == false)
    }

    @Test(arguments: [
        ("<rss/>", "not a CAP alert (the document is <rss>)"),
        ("<alert><sender>s</sender></alert>", "the CAP element <identifier> is missing"),
        ("<alert><identifier>i</identifier><sender>s</sender><sent>yesterday</sent></alert>", "i: <sent> \"yesterday\" is not a time"),
        ("<alert><identifier>i", "not XML: line 1: <identifier> is never closed"),
    ])
    func aMalformedMessageIsAClearError(text: String, message: String) {
        #expect(throws: CAPError(message)) { try Self.alerts(text) }
    }

    @Test func badFieldsAreErrorsNamingTheMessage() {
        #expect(throws: CAPError("2.49.0.1.578.0.1: <expires> \"soon\" is not a time")) { try Self.alerts(Self.message(expires: "soon")) }
        #expect(throws: CAPError("2.49.0.1.578.0.1: msgType Mystery is not a CAP message type")) { try Self.alerts(Self.message(type: "Mystery")) }
        let open = "<area><polygon>59,10 60,10 60,11</polygon></area>"
        #expect(throws: CAPError("2.49.0.1.578.0.1: a polygon needs at least four points, the last repeating the first")) {
            try Self.alerts(Self.message(area: open))
        }
        let swapped = "<area><polygon>59;10 60,10 60,11 59,10</polygon></area>"
        #expect(throws: CAPError("2.49.0.1.578.0.1: the polygon point \"59;10\" is not a latitude,longitude pair")) {
            try Self.alerts(Self.message(area: swapped))
        }
    }
}
