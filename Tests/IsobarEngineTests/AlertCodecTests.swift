import FoundationEssentials
import IsobarCore
import IsobarEngine
import Testing

/// A kept alert answer reads back as it was sent: every field, the tags of a source that gives them, and nothing invented.
@Suite struct AlertCodecTests {
    static let start = Date(timeIntervalSince1970: 1_795_910_400)

    @Test func anAlertWithTagsAndUnknownAxesReadsBackTheSame() throws {
        var alert = Alert(identity: AlertIdentity(sender: "NWS Upton NY", identifier: "Winter Storm Warning@2026-11-29T00:00:00+00:00"),
                          event: "Winter Storm Warning", description: "* WHAT...Heavy snow.\n\n* WHERE...New York City.", onset: Self.start,
                          ends: Self.start.addingTimeInterval(82_800), senderName: "NWS Upton NY", source: "openweathermap-alerts")
        alert.tags = ["Snow/Ice", "Wind"]
        let decoded = try #require(AlertCodec.decode(AlertCodec.encode([alert], notices: ["left out a warning"])))
        #expect(decoded.alerts == [alert] && decoded.notices == ["left out a warning"])
        #expect(decoded.alerts[0].severity == .unknown && decoded.alerts[0].identity.sent == nil && decoded.alerts[0].language == nil)
    }

    @Test func anEntryKeptBeforeTagsWereKeptReadsWithNone() throws {
        let alert = Alert(identity: AlertIdentity(sender: "w-nws.webmaster@noaa.gov", identifier: "urn:oid:1"), event: "Wind Advisory",
                          source: "nws-alerts")
        let text = AlertCodec.encode([alert], notices: [])
        let older = text.replacingAll(#""tags":[],"#, with: "")
        #expect(older != text, "the entry as written before tags were kept")
        #expect(try #require(AlertCodec.decode(older)).alerts == [alert])
    }
}
