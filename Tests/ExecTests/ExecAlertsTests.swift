import Exec
import Foundation
import IsobarCore
import Testing

/// A program's report may carry `alerts` (the `alerts` kind): CAP fields by name, read strictly.
@Suite("Exec: alerts in a report")
struct ExecAlertsTests {
    let place = Place(name: "New York", coordinate: Coordinate(latitude: 40.7143, longitude: -74.006)!)
    let now = Date(timeIntervalSince1970: 1_795_856_400)

    func read(_ report: String) throws(ProviderError) -> WeatherReport {
        let answer: JSONValue
        do {
            answer = try JSONDocument(parsing: #"{"report":{"units":"si",\#(report)}}"#).rootValue
        } catch {
            throw ProviderError(.badResponse(path: "$"), "test JSON: \(error)")
        }
        return try ExecReportReader(providerID: "p").read(answer, request: WeatherRequest(place: place, kinds: [.alerts]), now: now)
    }

    @Test func anAlertIsReadWithItsIdentityAxesTimesAndArea() throws {
        let report = try read(#"""
            "alerts":[{"identifier":"w2","sender":"s@example.org","sent":"2026-11-28T08:00:00Z","message_type":"Update",
             "references":[{"sender":"s@example.org","identifier":"w1","sent":"2026-11-27T20:00:00Z"}],"event":"Gale Warning",
             "headline":"Gale","severity":"Severe","urgency":"Expected","certainty":"Likely","onset":"2026-11-28T12:00:00Z",
             "expires":"2026-11-29T00:00:00Z","area":{"description":"Coast","codes":["EMMA_ID:XX001"],
             "polygons":[[[40,-75],[40,-73],[41,-73],[41,-75]]]},"sender_name":"Example Met","language":"en"}]
            """#)
        let alert = try #require(report.alerts.first)
        #expect(alert.identity == AlertIdentity(sender: "s@example.org", identifier: "w2", sent: CivilTime.instant(iso: "2026-11-28T08:00:00Z")))
        #expect(alert.messageType == .update && alert.references.map(\.identifier) == ["w1"])
        #expect(alert.severity == .severe && alert.urgency == .expected && alert.certainty == .likely)
        #expect(alert.area.polygons.first?.count == 4 && alert.area.codes == ["EMMA_ID:XX001"])
        #expect(alert.source == "p")
        #expect(alert.area.contains(place.coordinate) == true)
    }

    @Test func anEmptyAlertListIsAnAnswerButNoMemberAtAllIsNot() throws {
        #expect(try read(#""alerts":[]"#).alerts.isEmpty)
        #expect(throws: ProviderError.self) { try read(#""timezone":"UTC""#) }
    }

    @Test func wrongAlertFieldsAreRefusedNamingTheirPath() {
        for (body, path) in [
            (#""alerts":[{"identifier":"a","event":"Fog","severity":"Catastrophic"}]"#, "$.report.alerts[0].severity"),
            (#""alerts":[{"identifier":"a","event":"Fog","expires":"tomorrow"}]"#, "$.report.alerts[0].expires"),
            (#""alerts":[{"identifier":"a","event":"Fog","colour":"red"}]"#, "$.report.alerts[0].colour"),
            (#""alerts":[{"identifier":"","event":"Fog"}]"#, "$.report.alerts[0].identifier"),
            (#""alerts":[{"identifier":"a","event":"Fog","area":{"polygons":[[[40,-75],[40,-73]]]}}]"#, "$.report.alerts[0].area.polygons[0]"),
        ] {
            do {
                _ = try read(body)
                Issue.record("accepted: \(body)")
            } catch {
                #expect(error.code == .badResponse(path: path), "\(body): \(error.message)")
            }
        }
    }
}
