import FoundationEssentials
import IsobarCore

/// Bytes through the XML reader and the CAP reader, as a CAP file from MetAlerts is read; the alerts must hold their promises.
enum CAPTarget {
    /// The instant alerts are judged at.
    static let now = Date(timeIntervalSince1970: 1_795_856_400)

    /// The target.
    static let target = FuzzTarget(name: "cap", summary: "a CAP 1.2 XML message (the XML reader, then the CAP reader and the merge)") { bytes in
        let alerts: [Alert]
        do throws(CAPError) {
            alerts = try CAPMessage.alerts(bytes, source: "fuzz", language: AlertLanguage(wanted: "nb"))
        } catch {
            return FuzzTarget.refusal(error.message)
        }
        for alert in alerts {
            if alert.identity.identifier.isEmpty { return .violated("an alert with an empty identifier") }
            if alert.event.isEmpty { return .violated("an alert with an empty event") }
            if alert.area.polygons.contains(where: { $0.count < 4 }) { return .violated("a polygon of fewer than four points") }
        }
        let active = AlertMerge.active(alerts, at: now, for: Coordinate(latitude: 59.9, longitude: 10.7))
        if active.contains(where: { $0.alert.messageType == .cancel }) { return .violated("a Cancel shown as in force") }
        return .accepted("\(alerts.count) alerts, \(active.count) in force")
    }
}
