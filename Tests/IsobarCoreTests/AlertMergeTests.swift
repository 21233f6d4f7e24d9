import FoundationEssentials
import IsobarCore
import Testing

/// CAP's Update and Cancel, expiry, polygons and the same event from two sources.
@Suite("Alert merge")
struct AlertMergeTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let place = Coordinate(latitude: 40.71, longitude: -74.01)!

    static func alert(_ id: String, _ event: String = "Wind Advisory", type: AlertMessageType = .alert, references: [String] = [],
                      severity: AlertSeverity = .moderate, urgency: AlertUrgency = .expected, onsetHours: Double = 0,
                      expiresHours: Double? = 6, endsHours: Double? = nil, source: String = "nws", sender: String = "w-nws@noaa.gov",
                      polygon: [Coordinate] = []) -> Alert {
        Alert(identity: AlertIdentity(sender: sender, identifier: id, sent: now.addingTimeInterval(-3_600)), messageType: type,
              references: references.map { AlertIdentity(sender: sender, identifier: $0) }, event: event, severity: severity,
              urgency: urgency, onset: now.addingTimeInterval(onsetHours * 3_600),
              expires: expiresHours.map { now.addingTimeInterval($0 * 3_600) }, ends: endsHours.map { now.addingTimeInterval($0 * 3_600) },
              area: AlertArea(polygons: polygon.isEmpty ? [] : [polygon]), source: source)
    }

    static func ids(_ active: [ActiveAlert]) -> [String] { active.map(\.alert.identity.identifier) }

    @Test func anUpdateReplacesTheWatchItReferences() {
        let watch = Self.alert("watch", "Winter Storm Watch", severity: .severe, urgency: .future)
        let warning = Self.alert("warning", "Winter Storm Warning", type: .update, references: ["watch"], severity: .severe)
        #expect(Self.ids(AlertMerge.active([watch, warning], at: Self.now)) == ["warning"])
        #expect(Self.ids(AlertMerge.active([warning, watch], at: Self.now)) == ["warning"])
    }

    @Test func aCancelWithdrawsWhatItReferencesAndIsNotShown() {
        let advisory = Self.alert("a1")
        let other = Self.alert("a2", "Flood Watch")
        let cancel = Self.alert("c1", type: .cancel, references: ["a1"])
        #expect(Self.ids(AlertMerge.active([advisory, other, cancel], at: Self.now)) == ["a2"])
    }

    @Test func anUpdateReplacesEveryMessageItReferences() {
        let update = Self.alert("u", type: .update, references: ["a", "b"])
        #expect(Self.ids(AlertMerge.active([Self.alert("a"), Self.alert("b", "Gale"), update], at: Self.now)) == ["u"])
    }

    @Test func referencesToUnknownMessagesChangeNothing() {
        let update = Self.alert("u", "Gale Warning", type: .update, references: ["never-seen"])
        let cancel = Self.alert("c", type: .cancel, references: ["also-never-seen"])
        #expect(Set(Self.ids(AlertMerge.active([Self.alert("a"), update, cancel], at: Self.now))) == ["a", "u"])
    }

    @Test func aReferenceFromAnotherSenderWithTheSameIdentifierDoesNotWithdraw() {
        let advisory = Self.alert("same-id", sender: "met.no")
        let cancel = Self.alert("c", type: .cancel, references: ["same-id"], sender: "w-nws@noaa.gov")
        #expect(Self.ids(AlertMerge.active([advisory, cancel], at: Self.now)) == ["same-id"])
    }

    @Test func expiredAndEndedAlertsAreGoneAndOneWithoutExpiryStays() {
        let expired = Self.alert("expired", expiresHours: -1)
        let ended = Self.alert("ended", "Gale", expiresHours: 5, endsHours: 0)
        let open = Self.alert("open", "Fog", expiresHours: nil)
        #expect(Self.ids(AlertMerge.active([expired, ended, open], at: Self.now)) == ["open"])
        #expect(AlertMerge.active([expired], at: Self.now.addingTimeInterval(-7_200)).count == 1)
    }

    @Test func anAlertWhosePolygonLeavesOutThePlaceIsGone() throws {
        let around = [(40, -75), (40, -73), (41, -73), (41, -75)].map { Coordinate(latitude: Double($0.0), longitude: Double($0.1))! }
        let elsewhere = around.map { Coordinate(latitude: $0.latitude + 5, longitude: $0.longitude)! }
        let active = AlertMerge.active([Self.alert("here", polygon: around), Self.alert("there", "Gale", polygon: elsewhere),
                                        Self.alert("zone", "Fog")], at: Self.now, for: Self.place)
        #expect(Set(Self.ids(active)) == ["here", "zone"])
    }

    @Test func theSameEventFromTwoSourcesIsShownOnceNamingBoth() throws {
        let nws = Self.alert("n1", "Wind Advisory", source: "nws")
        let owm = Self.alert("o1", "wind  advisory", severity: .minor, source: "openweathermap", sender: "owm")
        let active = AlertMerge.active([owm, nws], at: Self.now)
        let only = try #require(active.first)
        #expect(active.count == 1)
        #expect(only.alert == nws, "the more severe message is shown as sent, not blended")
        #expect(only.sources == ["nws", "openweathermap"])
        #expect(only.alsoSent == [owm])
    }

    @Test func aMessageThatExpiresBeforeItsEventBeginsIsTheSameEventAsTheEventPassedOn() throws {
        // NWS's Warning: its message expires in 7 hours (it is renewed), its event runs from 15 to 38 hours; OpenWeatherMap
        // passes on the event's start and end, with no severity.
        let nws = Self.alert("n1", "Winter Storm Warning", severity: .severe, onsetHours: 15, expiresHours: 7, endsHours: 38)
        let owm = Alert(identity: AlertIdentity(sender: "NWS Upton NY", identifier: "Winter Storm Warning@x"), event: "Winter Storm Warning",
                        onset: Self.now.addingTimeInterval(15 * 3_600), ends: Self.now.addingTimeInterval(38 * 3_600), source: "openweathermap-alerts")
        let active = AlertMerge.active([owm, nws], at: Self.now)
        let only = try #require(active.first)
        #expect(active.count == 1)
        #expect(only.alert == nws && only.sources == ["nws", "openweathermap-alerts"] && only.alsoSent == [owm])
        #expect(AlertMerge.sameEvent(nws, owm) && AlertMerge.sameEvent(owm, nws))

        var later = owm
        later.onset = Self.now.addingTimeInterval(40 * 3_600)
        later.ends = Self.now.addingTimeInterval(50 * 3_600)
        #expect(!AlertMerge.sameEvent(nws, later), "the next storm, after this one ends, is another event")
        #expect(AlertMerge.active([later, nws], at: Self.now).count == 2)
    }

    @Test func eventsThatDoNotOverlapInTimeOrComeFromOneSourceStaySeparate() {
        let today = Self.alert("t", onsetHours: 0, expiresHours: 6, source: "nws")
        let tomorrow = Self.alert("m", onsetHours: 24, expiresHours: 30, source: "owm", sender: "owm")
        let twoZones = [Self.alert("z1"), Self.alert("z2")]
        #expect(AlertMerge.active([today, tomorrow], at: Self.now).count == 2)
        #expect(AlertMerge.active(twoZones, at: Self.now).count == 2)
    }

    @Test func aMessageListedTwiceIsShownOnce() {
        #expect(AlertMerge.active([Self.alert("a"), Self.alert("a")], at: Self.now).count == 1)
    }

    @Test func severityThenUrgencyThenOnsetOrderTheAlerts() {
        let alerts = [
            Self.alert("minor", "A", severity: .minor, urgency: .immediate),
            Self.alert("severe-late", "B", severity: .severe, urgency: .expected, onsetHours: 3),
            Self.alert("severe-early", "C", severity: .severe, urgency: .expected, onsetHours: 1),
            Self.alert("severe-now", "D", severity: .severe, urgency: .immediate, onsetHours: 5),
            Self.alert("extreme", "E", severity: .extreme, urgency: .future),
            Self.alert("unknown", "F", severity: .unknown, urgency: .immediate),
        ]
        #expect(Self.ids(AlertMerge.active(alerts, at: Self.now))
                == ["extreme", "severe-now", "severe-early", "severe-late", "minor", "unknown"])
    }
}
