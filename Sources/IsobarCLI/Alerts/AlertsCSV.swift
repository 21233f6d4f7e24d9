import FoundationEssentials
import IsobarCore
import IsobarRender

/// `isobar alerts --format csv`: a header, then one row per alert in force, times as ISO-8601 at the place's offset.
enum AlertsCSV {
    /// The columns, in order.
    static let header = ["place", "latitude", "longitude", "provider", "providers", "identifier", "sender", "sent", "message_type", "event",
                         "severity", "urgency", "certainty", "onset", "effective", "expires", "ends", "headline", "area", "sender_name",
                         "language"]

    /// The whole output.
    static func text(_ report: AlertsReport) -> String {
        let offset = report.utcOffsetSeconds
        let time = { (instant: Date?) in instant.map { CivilTime.iso($0, utcOffsetSeconds: offset) } }
        var text = CSVField.line(header)
        for active in report.active {
            let alert = active.alert
            text += CSVField.line([
                report.place.name, JSONOutput.format(report.place.coordinate.latitude), JSONOutput.format(report.place.coordinate.longitude),
                alert.source, active.sources.joined(separator: " "), alert.identity.identifier, alert.identity.sender, time(alert.identity.sent),
                alert.messageType.rawValue, alert.event, alert.severity.rawValue, alert.urgency.rawValue, alert.certainty.rawValue,
                time(alert.onset), time(alert.effective), time(alert.expires), time(alert.ends), alert.headline, alert.area.description,
                alert.senderName, alert.language,
            ])
        }
        return text
    }
}
