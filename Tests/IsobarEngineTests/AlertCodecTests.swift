import FoundationEssentials
import IsobarCore
import IsobarEngine
import Testing

/// A kept alert answer holds every field of its alerts, the awareness parameters and the placing among them, and an entry
/// kept before those fields existed still reads.
@Suite struct AlertCodecTests {
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
