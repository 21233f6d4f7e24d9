import FoundationEssentials
import IsobarCore
import IsobarRender

/// The words alerts are shown with, shared by the alerts command and the weather views.
enum AlertText {
    /// `Sat Nov 28 18:00` at the place's offset.
    static func localTime(_ instant: Date, utcOffsetSeconds offset: Int) -> String {
        let day = LocalDate(instant, utcOffsetSeconds: offset)
        let (_, month, dayOfMonth) = CivilTime.civil(fromDays: day.daysSinceEpoch)
        return "\(day.weekdayName) \(TableRenderer.monthName(month)) \(dayOfMonth) \(CivilTime.clock(instant, utcOffsetSeconds: offset))"
    }

    /// `until Sun Nov 29 18:00`: when the event ends as the issuer says (`ends`, else `expires`), or `no end given`.
    static func until(_ alert: Alert, utcOffsetSeconds offset: Int) -> String {
        (alert.ends ?? alert.expires).map { "until " + localTime($0, utcOffsetSeconds: offset) } ?? "no end given"
    }

    /// `; this message expires Sat Nov 28 16:00` when the message expires before the event ends (it is then gone unless
    /// its issuer renews it); empty otherwise.
    static func messageExpiry(_ alert: Alert, utcOffsetSeconds offset: Int) -> String {
        guard let expires = alert.expires, let ends = alert.ends, expires < ends else { return "" }
        return "; this message expires " + localTime(expires, utcOffsetSeconds: offset)
    }

    /// `14:05` at the place's offset, or `Sat Nov 28 14:05` when not on the day the alerts are judged.
    static func asOf(_ instant: Date, _ report: AlertsReport) -> String {
        let offset = report.utcOffsetSeconds
        guard LocalDate(instant, utcOffsetSeconds: offset) != LocalDate(report.judgedAt, utcOffsetSeconds: offset) else {
            return CivilTime.clock(instant, utcOffsetSeconds: offset)
        }
        return localTime(instant, utcOffsetSeconds: offset)
    }

    /// The severity in capitals, as the first word of an alert's line.
    static func label(_ severity: AlertSeverity) -> String { severity == .unknown ? "ALERT" : severity.rawValue.uppercased() }

    /// One line: `SEVERE Winter Storm Warning until Sun Nov 29 18:00 · NWS` (every source named).
    static func summary(_ active: ActiveAlert, utcOffsetSeconds offset: Int, name: (String) -> String) -> String {
        "\(label(active.alert.severity)) \(active.alert.event) \(until(active.alert, utcOffsetSeconds: offset)) · "
            + active.sources.map(name).joined(separator: ", ")
    }

    /// `severity severe, urgency expected, certainty likely`: the three axes, never folded into one.
    static func axes(_ alert: Alert) -> String {
        "severity \(alert.severity.rawValue.lowercased()), urgency \(alert.urgency.rawValue.lowercased()), "
            + "certainty \(alert.certainty.rawValue.lowercased())"
    }

    /// `Awareness level "3; orange; Severe", type "1; Wind"`: the CAP parameters as sent, nil when neither was.
    static func awareness(_ alert: Alert) -> String? {
        let parts = [alert.awarenessLevel.map { "level \"\($0)\"" }, alert.awarenessType.map { "type \"\($0)\"" }].compactMap { $0 }
        return parts.isEmpty ? nil : "Awareness " + parts.joined(separator: ", ")
    }
}
