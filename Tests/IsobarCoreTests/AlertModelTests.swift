import FoundationEssentials
import IsobarCore
import Testing

/// The CAP vocabulary, references and areas.
@Suite("Alert model")
struct AlertModelTests {
    @Test func capAxesReadWithoutRegardToCaseAndUnknownOtherwise() {
        #expect(AlertSeverity(cap: "SEVERE") == .severe)
        #expect(AlertSeverity(cap: "catastrophic") == .unknown)
        #expect(AlertSeverity(cap: nil) == .unknown)
        #expect(AlertUrgency(cap: "immediate") == .immediate)
        #expect(AlertCertainty(cap: "Very Likely") == .likely)
        #expect(AlertCertainty(cap: "observed") == .observed)
        #expect(AlertMessageType(cap: "Update") == .update)
        #expect(AlertMessageType(cap: "Ack") == nil)
        #expect(AlertSeverity.extreme > .severe && AlertSeverity.minor > .unknown)
    }

    @Test func capReferencesAreTriplesAndMalformedOnesAreSkipped() {
        let references = AlertIdentity.references(cap: "w-nws@noaa.gov,urn:oid:1,2026-12-02T06:00:00-05:00  bad ,,x met.no,2")
        #expect(references.map(\.identifier) == ["urn:oid:1", "2"])
        #expect(references[0].sender == "w-nws@noaa.gov")
        #expect(references[0].sent == CivilTime.instant(iso: "2026-12-02T11:00:00Z"))
        #expect(references[1].sent == nil)
    }

    @Test func endIsTheEarlierOfEndsAndExpires() {
        let base = Date(timeIntervalSince1970: 0)
        var alert = Alert(identity: AlertIdentity(sender: "", identifier: "x"), event: "Fog", source: "s")
        #expect(alert.end == nil && alert.isCurrent(at: base))
        alert.expires = base.addingTimeInterval(100)
        alert.ends = base.addingTimeInterval(50)
        #expect(alert.end == base.addingTimeInterval(50))
        #expect(!alert.isCurrent(at: base.addingTimeInterval(50)))
    }

    @Test func polygonsDecideWhenPresentElseCodesElseUnknown() {
        let point = Coordinate(latitude: 59.9, longitude: 10.7)!
        let box = [(59, 10), (59, 11), (60, 11), (60, 10)].map { Coordinate(latitude: Double($0.0), longitude: Double($0.1))! }
        #expect(AlertArea(polygons: [box], codes: ["EMMA_ID:NO999"]).contains(point, placeCodes: ["EMMA_ID:NO999"]) == true)
        #expect(AlertArea(codes: ["EMMA_ID:NO001"]).contains(point, placeCodes: ["EMMA_ID:NO001"]) == true)
        #expect(AlertArea(codes: ["EMMA_ID:NO001"]).contains(point, placeCodes: ["EMMA_ID:NO002"]) == false)
        #expect(AlertArea(codes: ["EMMA_ID:NO001"]).contains(point) == nil)
    }

    @Test func aPolygonAcrossTheAntimeridianHoldsPointsOnBothSides() {
        // Around the Chatham Islands and the dateline: 170°E to 170°W.
        let ring = [(-40, 170), (-40, -170), (-50, -170), (-50, 170)].map { Coordinate(latitude: Double($0.0), longitude: Double($0.1))! }
        #expect(AlertPolygon.contains(ring, Coordinate(latitude: -45, longitude: 179)!))
        #expect(AlertPolygon.contains(ring, Coordinate(latitude: -45, longitude: -179)!))
        #expect(AlertPolygon.contains(ring, Coordinate(latitude: -45, longitude: 180)!))
        #expect(!AlertPolygon.contains(ring, Coordinate(latitude: -45, longitude: 0)!))
        #expect(!AlertPolygon.contains(ring, Coordinate(latitude: -45, longitude: 160)!))
        #expect(!AlertPolygon.contains(ring, Coordinate(latitude: -30, longitude: 179)!))
    }

    @Test func anOrdinaryPolygonHoldsItsInsideOnlyAndTooFewCornersHoldNothing() {
        let triangle = [(0, 0), (0, 10), (10, 0)].map { Coordinate(latitude: Double($0.0), longitude: Double($0.1))! }
        #expect(AlertPolygon.contains(triangle, Coordinate(latitude: 2, longitude: 2)!))
        #expect(!AlertPolygon.contains(triangle, Coordinate(latitude: 8, longitude: 8)!))
        #expect(!AlertPolygon.contains(Array(triangle.prefix(2)), Coordinate(latitude: 0, longitude: 1)!))
    }
}
