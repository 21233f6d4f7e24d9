import FoundationEssentials
import IsobarCore
import IsobarEngine
import Testing

/// A kept alert answer reads back as it was sent: every field, the tags of a source that gives them, the awareness
/// parameters and the placing, and nothing invented; an entry kept before those fields existed still reads.
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

    static let alert: Alert = {
        var alert = Alert(identity: AlertIdentity(sender: "met@example.org", identifier: "GB-1", sent: Date(timeIntervalSince1970: 1_795_800_000)),
                          event: "Yellow rain warning", severity: .moderate, urgency: .future, certainty: .likely,
                          expires: Date(timeIntervalSince1970: 1_795_900_000),
                          area: AlertArea(description: "London & South East England", codes: ["EMMA_ID:UK012"]), source: "meteoalarm")
        alert.awarenessLevel = "2; yellow; Moderate"
        alert.awarenessType = "10; Rain"
        alert.placedBy = "the configured area code EMMA_ID:UK012"
        return alert
    }()

    @Test func theAwarenessParametersAndThePlacingAreKept() throws {
        let kept = try #require(AlertCodec.decode(AlertCodec.encode([Self.alert], notices: ["1 warning could not be placed"])))
        #expect(kept.alerts == [Self.alert])
        #expect(kept.notices == ["1 warning could not be placed"])
    }

    @Test func anEntryKeptWithoutThemReadsAsNotSaid() throws {
        let text = AlertCodec.encode([Self.alert], notices: [])
        let added = #","awareness_level":"2; yellow; Moderate","awareness_type":"10; Rain","#
            + #""placed_by":"the configured area code EMMA_ID:UK012""#
        let old = text.replacing(added, with: "")
        #expect(old != text)
        let kept = try #require(AlertCodec.decode(old))
        #expect(kept.alerts.first?.awarenessLevel == nil && kept.alerts.first?.placedBy == nil)
        #expect(kept.alerts.first?.event == "Yellow rain warning")
    }
}
